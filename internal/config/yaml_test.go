package config

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// syntaxKeys declare the keys the malformed files below would set.
var syntaxKeys = []Key{
	{Name: "input.generate", Default: ""},
	{Name: "compute.sources", Default: []string{"0"}},
	{Name: "compute.backend", Default: "auto"},
	{Name: "compute.workers", Default: 0},
	{Name: "output.dir", Default: "out"},
}

// TestSyntaxErrorsNameTheirLine reads malformed files and checks the line
// the error names: where the fault is, not the line before it.
func TestSyntaxErrorsNameTheirLine(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		say        string // after "c.yaml"
	}{
		{name: "flow list left open", file: "input:\n  generate: x\ncompute:\n  sources: [0, 1\n  backend: cpu\n",
			say: ":4: YAML syntax error: did not find expected ',' or ']'"},
		{name: "flow list open over lines", file: "input:\n  generate: x\ncompute:\n  sources: [0,\n    1,\n    2\n  backend: cpu\n",
			say: ":6: YAML syntax error: did not find expected ',' or ']' (in the flow list that starts on line 4)"},
		{name: "flow list left open at the end", file: "input:\n  generate: x\ncompute:\n  sources: [\n", say: ":4: YAML syntax error: "},
		{name: "flow mapping left open", file: "input:\n  generate: x\ncompute: {backend: cpu\noutput:\n  dir: x\n",
			say: ":3: YAML syntax error: did not find expected ',' or '}'"},
		{name: "list item in a mapping", file: "input:\n  generate: x\ncompute:\n  backend: cpu\n  - 2\n",
			say: ":5: YAML syntax error: did not find expected key (in the block mapping that starts on line 4)"},
		{name: "list item after a comment", file: "input:\n  generate: x\ncompute:\n  backend: cpu\n  # workers next\n\n  - 2\n",
			say: ":7: YAML syntax error: did not find expected key (in the block mapping that starts on line 4)"},
		{name: "key in a list", file: "compute:\n  sources:\n    - 1\n    - 2\n    workers: 2\n",
			say: ":5: YAML syntax error: "},
		{name: "deeper indented key", file: "input:\n  generate: x\ncompute:\n  backend: cpu\n   workers: 2\n",
			say: ":5: YAML syntax error: mapping values are not allowed in this context"},
		{name: "tab", file: "input:\n  generate: x\ncompute:\n  backend: cpu\n\tworkers: 2\n",
			say: ":4: YAML syntax error: found a tab character that violates indentation"},
		{name: "quote left open", file: "input:\n  generate: x\ncompute:\n  backend: \"cpu\n  workers: 2\n",
			say: ":4: YAML syntax error: found unexpected end of stream"},
		{name: "value on the first line", file: "compute: [\n", say: ":1: YAML syntax error: did not find expected node content"},
		{name: "fault in a second document", file: "compute:\n  backend: cpu\n---\noutput:\n  dir: x\n]\n", say: ":6: YAML syntax error: "},
		{name: "second document", file: "compute:\n  backend: cpu\n---\noutput:\n  dir: x\n", say: ":3: a second YAML document starts here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.file)
			_, err := Read("compute", syntaxKeys, Source{Args: []string{"-config=" + path}, Usage: io.Discard})
			var cerr *Error
			if !errors.As(err, &cerr) || cerr.Key != ConfigFlag {
				t.Fatalf("err = %v, want a config error naming -config", err)
			}
			if want := path + tc.say; !strings.Contains(err.Error(), want) {
				t.Errorf("err %q\ndoes not say %q", err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("err %q is more than one line", err)
			}
		})
	}
}

// TestKeyGivenTwiceIsAnError: viper folds keys to lower case, so a key
// spelled twice would let the later one win without a word.
func TestKeyGivenTwiceIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, file, key string
		say             string
	}{
		{name: "two cases", file: "compute:\n  Sources: [1]\n  backend: cpu\n  sources: [2]\n", key: "compute.sources",
			say: `given twice, as "Sources" on line 2 and "sources" on line 4`},
		{name: "top level", file: "compute:\n  backend: cpu\nOutput:\n  dir: a\noutput:\n  dir: b\n", key: "output",
			say: `given twice, as "Output" on line 3 and "output" on line 5`},
		{name: "same spelling", file: "compute:\n  workers: 1\n  workers: 2\n", key: "compute.workers",
			say: `given twice, "workers" on lines 2 and 3`},
		{name: "inside a list", file: "compute:\n  sources:\n    - {a: 1, A: 2}\n", key: "compute.sources.a",
			say: `given twice, as "a" on line 3 and "A" on line 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.file)
			_, err := Read("compute", syntaxKeys, Source{Args: []string{"-config=" + path}, Usage: io.Discard})
			var cerr *Error
			if !errors.As(err, &cerr) || cerr.Key != tc.key {
				t.Fatalf("err = %v, want a config error naming %s", err, tc.key)
			}
			if !strings.Contains(err.Error(), path+": "+tc.say) {
				t.Errorf("err %q\ndoes not say %q", err, tc.say)
			}
		})
	}
}

// TestDistinctKeysDifferingFromOthersPass: a key may share a name with a
// key of another mapping, in any case.
func TestKeysOfOtherMappingsMayShareANames(t *testing.T) {
	path := writeConfig(t, "input:\n  generate: x\ncompute:\n  backend: cpu\noutput:\n  dir: x\n")
	if _, err := Read("compute", syntaxKeys, Source{Args: []string{"-config=" + path}, Usage: io.Discard}); err != nil {
		t.Fatal(err)
	}
}
