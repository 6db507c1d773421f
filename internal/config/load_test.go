package config

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testKeys = []Key{
	{Name: "compute.backend", Default: "auto", Flag: "backend", Usage: "backend"},
	{Name: "compute.workers", Default: 0, Flag: "workers", Usage: "workers"},
	{Name: "compute.sources", Default: []string{"0"}, Flag: "sources", Usage: "sources"},
	{Name: "output.dir", Default: "out", Usage: "output folder"},
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPrecedenceFlagOverEnvOverFileOverDefault(t *testing.T) {
	path := writeConfig(t, "compute:\n  backend: gpu\n  workers: 3\n  sources: [1, 2]\n")
	t.Setenv("PATHFLOW_COMPUTE_WORKERS", "5")

	l, err := Load("compute", testKeys, []string{"-config=" + path, "-backend=cpu"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	vs := l.Values()
	if got := vs.String("compute.backend"); got != "cpu" {
		t.Errorf("backend = %q, want the flag's cpu", got)
	}
	if got := vs.Int("compute.workers", 0, 64); got != 5 {
		t.Errorf("workers = %d, want the environment's 5", got)
	}
	if got := vs.StringList("compute.sources"); strings.Join(got, ",") != "1,2" {
		t.Errorf("sources = %v, want the file's [1 2]", got)
	}
	if got := vs.String("output.dir"); got != "out" {
		t.Errorf("output.dir = %q, want the default", got)
	}
	if vs.Err() != nil {
		t.Fatal(vs.Err())
	}
	if l.File != path || len(l.Raw) == 0 {
		t.Errorf("loaded file %q (%d bytes), want %q", l.File, len(l.Raw), path)
	}
}

func TestDoubleDashConfigFlag(t *testing.T) {
	path := writeConfig(t, "output:\n  dir: elsewhere\n")
	l, err := Load("compute", testKeys, []string{"--config", path}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Values().String("output.dir"); got != "elsewhere" {
		t.Errorf("output.dir = %q", got)
	}
}

func TestUnknownKeyNamesTheKey(t *testing.T) {
	path := writeConfig(t, "compute:\n  backnd: gpu\n")
	_, err := Load("compute", testKeys, []string{"-config=" + path}, io.Discard)
	var cerr *Error
	if !errors.As(err, &cerr) || cerr.Key != "compute.backnd" {
		t.Fatalf("err = %v, want an *Error naming compute.backnd", err)
	}
}

func TestBadValuesNameTheKey(t *testing.T) {
	t.Setenv("PATHFLOW_COMPUTE_WORKERS", "many")
	_, err := Load("compute", testKeys, nil, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "compute.workers") || !strings.Contains(err.Error(), "PATHFLOW_COMPUTE_WORKERS") {
		t.Fatalf("err = %v, want it to name the key and the variable", err)
	}

	path := writeConfig(t, "compute:\n  workers: 2.5\n  backend: tpu\n")
	os.Unsetenv("PATHFLOW_COMPUTE_WORKERS")
	l, err := Load("compute", testKeys, []string{"-config=" + path}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	vs := l.Values()
	vs.Int("compute.workers", 0, 64)
	if err := vs.Err(); err == nil || !strings.Contains(err.Error(), "compute.workers") {
		t.Errorf("non-integer workers: err = %v", err)
	}
	vs = l.Values()
	if n := vs.Int64("compute.workers", 0, 64); vs.Err() == nil {
		t.Errorf("non-integer workers as int64: got %d and no error", n)
	}
	vs = l.Values()
	vs.OneOf("compute.backend", "cpu", "gpu", "auto")
	if err := vs.Err(); err == nil || !strings.Contains(err.Error(), "compute.backend") {
		t.Errorf("bad backend: err = %v", err)
	}
}

func TestHelpAndStrayArguments(t *testing.T) {
	if _, err := Load("compute", testKeys, []string{"-help"}, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: err = %v, want flag.ErrHelp", err)
	}
	if _, err := Load("compute", testKeys, []string{"stray"}, io.Discard); err == nil {
		t.Error("a stray argument was accepted")
	}
	if _, err := Load("compute", testKeys, []string{"-config=/nonexistent/x.yaml"}, io.Discard); err == nil {
		t.Error("a missing config file was accepted")
	}
}

func TestBareBooleanFlag(t *testing.T) {
	keys := append([]Key{{Name: "log.quiet", Default: false, Flag: "quiet", Usage: "quiet"}}, testKeys...)
	l, err := Load("compute", keys, []string{"-quiet", "-backend", "gpu"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if vs := l.Values(); !vs.Bool("log.quiet") || vs.String("compute.backend") != "gpu" {
		t.Errorf("quiet=%v backend=%q", vs.Bool("log.quiet"), vs.String("compute.backend"))
	}
}

func TestMisspelledVariableWarnsWithTheNearestKey(t *testing.T) {
	l, err := Read("compute", testKeys, Source{
		Env: []string{"HOME=/root", "PATHFLOW_COMPUTE_BACKNED=gpu", "PATHFLOW_DATASETS=/data",
			"PATHFLOW_COMPUTE_WORKERS=2", "PATHFLOW_OUTPUTDIR=x"},
		OtherVariables: []string{"PATHFLOW_DATASETS"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"environment variable PATHFLOW_COMPUTE_BACKNED matches no key and is ignored; did you mean PATHFLOW_COMPUTE_BACKEND (key compute.backend)?",
		"environment variable PATHFLOW_OUTPUTDIR matches no key and is ignored; did you mean PATHFLOW_OUTPUT_DIR (key output.dir)?",
	}
	if strings.Join(l.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(l.Warnings, "\n"), strings.Join(want, "\n"))
	}
	vs := l.Values()
	if vs.String("compute.backend") != "auto" || vs.Int("compute.workers", 0, 64) != 2 {
		t.Errorf("backend %q workers %d, want the default auto and the variable's 2",
			vs.String("compute.backend"), vs.Int("compute.workers", 0, 64))
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"BACKNED", "BACKEND", 2},
		{"OUTPUTDIR", "OUTPUT_DIR", 1},
		{"same", "same", 0},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestErrorfWrapsWithW(t *testing.T) {
	cause := errors.New("not supported")
	err := Errorf("compute.algorithm", "johnson: %w", cause)
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "compute.algorithm" || !errors.Is(err, cause) {
		t.Fatalf("err = %#v, want a config error wrapping the cause", err)
	}
	if got := err.Error(); got != `config key "compute.algorithm": johnson: not supported` {
		t.Errorf("message %q", got)
	}
	if errors.Unwrap(Errorf("k", "%v", cause)) != nil {
		t.Errorf("Errorf with %%v wrapped its argument")
	}
}

func TestDefaultFileWhenNoneIsNamed(t *testing.T) {
	def := &File{Name: "demo.yaml (embedded)", Raw: []byte("compute:\n  backend: gpu\n  workers: 3\n")}
	l, err := Read("compute", testKeys, Source{Env: []string{"PATHFLOW_COMPUTE_WORKERS=4"}, Default: def})
	if err != nil {
		t.Fatal(err)
	}
	vs := l.Values()
	if !l.Default || l.File != def.Name || vs.String("compute.backend") != "gpu" || vs.Int("compute.workers", 0, 64) != 4 {
		t.Errorf("default %v file %q backend %q workers %d; want the default file under the environment",
			l.Default, l.File, vs.String("compute.backend"), vs.Int("compute.workers", 0, 64))
	}
	path := writeConfig(t, "compute:\n  backend: cpu\n")
	l, err = Read("compute", testKeys, Source{Args: []string{"-config=" + path}, Default: def})
	if err != nil {
		t.Fatal(err)
	}
	if vs := l.Values(); l.Default || vs.String("compute.backend") != "cpu" || vs.Int("compute.workers", 0, 64) != 0 {
		t.Errorf("with -config: default %v backend %q workers %d; want the named file alone", l.Default, vs.String("compute.backend"), vs.Int("compute.workers", 0, 64))
	}
}

// TestEmptyListElementsAreRefused: an empty element of a list, from a
// flag, the environment or the file, is an error naming the key and the
// element rather than skipped.
func TestEmptyListElementsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		env  string
		args []string
		want string
	}{
		{name: "flag", args: []string{"-sources", "0,,1"}, want: `"0,,1": element 2 is empty`},
		{name: "trailing comma", args: []string{"-sources", "0,1,"}, want: `"0,1,": element 3 is empty`},
		{name: "environment", env: " 4 , ", want: `element 2 is empty`},
		{name: "file list", file: "compute:\n  sources: [0, '', 1]\n", want: `element 2 is empty`},
		{name: "file text", file: "compute:\n  sources: '0,,1'\n", want: `"0,,1": element 2 is empty`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-config=" + writeConfig(t, tc.file)}, args...)
			}
			if tc.env != "" {
				t.Setenv("PATHFLOW_COMPUTE_SOURCES", tc.env)
			}
			l, err := Load("compute", testKeys, args, io.Discard)
			if err == nil {
				vs := l.Values()
				vs.StringList("compute.sources")
				err = vs.Err()
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != "compute.sources" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a compute.sources error saying %q", err, tc.want)
			}
		})
	}
	l, err := Load("compute", testKeys, []string{"-sources", " 3 , 1-2 "}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Values().StringList("compute.sources"); strings.Join(got, "|") != "3|1-2" {
		t.Errorf("sources = %q, want [3 1-2]", got)
	}
}

func TestUnknownKeySuggestsTheKeyMeant(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"compute:\n  backnd: gpu\n", "did you mean compute.backend?"},
		{"input:\n  backend: gpu\n", "did you mean compute.backend?"}, // the right key in the wrong section
		{"output:\n  dirs: x\n", "did you mean output.dir?"},
		{"zzz:\n  qqq: 1\n", ""},
	} {
		_, err := Load("compute", testKeys, []string{"-config=" + writeConfig(t, tc.yaml)}, io.Discard)
		if err == nil {
			t.Errorf("%q: no error", tc.yaml)
			continue
		}
		if tc.want == "" && strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want it to say %q", tc.yaml, err, tc.want)
		}
	}
}

func TestUnknownFlagSuggestsTheFlagMeant(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-backnd", "gpu"}, "unknown flag -backnd (did you mean -backend?)"},
		{[]string{"--worker=2"}, "unknown flag -worker (did you mean -workers?)"},
		{[]string{"-compute.backend", "gpu"}, "unknown flag -compute.backend (did you mean -backend? key compute.backend's flag)"},
		{[]string{"-output.dir", "x"}, "unknown flag -output.dir: key output.dir has no flag; set it in the config file or as PATHFLOW_OUTPUT_DIR"},
		{[]string{"-frobnicate"}, "unknown flag -frobnicate (-help lists the flags)"},
	} {
		_, err := Load("compute", testKeys, tc.args, io.Discard)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: %v; want %q", tc.args, err, tc.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	if _, err := Load("compute", testKeys, []string{"-version"}, io.Discard); !errors.Is(err, ErrVersion) {
		t.Errorf("-version: %v, want ErrVersion", err)
	}
}

// TestPeek reads one setting as Read would, from a command line, an
// environment or a file that does not load as a whole.
func TestPeek(t *testing.T) {
	bad := writeConfig(t, "compute:\n  backend: gpu\n  nosuchkey: 1\n")
	for _, tc := range []struct {
		name string
		src  Source
		want string
	}{
		{"flag", Source{Args: []string{"-backend", "cpu", "-nosuchflag"}, Env: []string{"PATHFLOW_COMPUTE_BACKEND=auto"}}, "cpu"},
		{"flag with =", Source{Args: []string{"--backend=cpu"}}, "cpu"},
		{"environment", Source{Args: []string{"-config", bad}, Env: []string{"PATHFLOW_COMPUTE_BACKEND=auto"}}, "auto"},
		{"file with an unknown key", Source{Args: []string{"-config=" + bad}}, "gpu"},
		{"default file", Source{Default: &File{Raw: []byte("compute:\n  backend: gpu\n")}}, "gpu"},
		{"nothing", Source{Args: []string{"-config", "/nonexistent.yaml"}}, ""},
	} {
		if got := Peek(testKeys, tc.src, "compute.backend"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
