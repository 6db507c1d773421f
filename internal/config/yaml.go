package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// checkYAML parses a config file's bytes the way viper will (with
// go.yaml.in/yaml/v3) and returns a syntax error that names the right
// line, or an error for a key given twice in one mapping, in any case
// ("Sources" and "sources"): viper folds keys to lower case, so the later
// one would otherwise win without a word.
func checkYAML(path string, raw []byte) error {
	doc, second, err := parseYAML(raw)
	if err != nil {
		return syntaxError(path, raw, err)
	}
	if second != nil {
		// viper reads the first document only: the rest would be
		// ignored without a word.
		return &Error{Key: ConfigFlag, Msg: fmt.Sprintf("%s:%d: a second YAML document starts here; a config file holds one", path, second.Line)}
	}
	return duplicateKeys(path, doc, "")
}

// parseYAML parses raw's first document and tells whether a second one
// follows.
func parseYAML(raw []byte) (doc, second *yaml.Node, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	doc = &yaml.Node{}
	if err := dec.Decode(doc); err != nil && err != io.EOF {
		return nil, nil, err
	}
	next := &yaml.Node{}
	switch err := dec.Decode(next); {
	case err == io.EOF:
		return doc, nil, nil
	case err != nil:
		return nil, nil, err
	default:
		return doc, next, nil
	}
}

// yamlError splits a yaml.v3 syntax error, "yaml: line N: PROBLEM" or
// "yaml: PROBLEM".
var yamlError = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// parserProblems are the problems yaml.v3's parser (not its scanner)
// reports, each with the construct it names as context, "" for none.
// yaml.v3 prints a parser error's line 0-based, and for the problems with
// a context it prints the line where the enclosing construct starts, not
// the line where the problem is (decode.go, parser.fail): a flow list
// left open on line 4 and noticed on line 5 reads "line 3". Scanner errors
// are printed 1-based and at the problem, so they are left as they are.
var parserProblems = map[string]string{
	"did not find expected <stream-start>":   "",
	"did not find expected <document start>": "",
	"found undefined tag handle":             "node",
	"did not find expected node content":     "node",
	"did not find expected '-' indicator":    "block list",
	"did not find expected key":              "block mapping",
	"did not find expected ',' or ']'":       "flow list",
	"did not find expected ',' or '}'":       "flow mapping",
	"found duplicate %YAML directive":        "",
	"found incompatible YAML document":       "",
	"found duplicate %TAG directive":         "",
}

// syntaxError turns yaml.v3's error for raw into "PATH:LINE: PROBLEM".
// For a parser problem it finds the line itself: the first line whose
// prefix of the file fails with the same problem is where the parser
// gave up (or, for a flow list or mapping never closed, the line that
// opens it, where the fault is).
func syntaxError(path string, raw []byte, err error) error {
	m := yamlError.FindStringSubmatch(err.Error())
	if m == nil {
		// Not a syntax error (such as a value yaml.v3 cannot hold):
		// its text already names lines, 1-based.
		return &Error{Key: ConfigFlag, Msg: fmt.Sprintf("%s: %s", path, oneLine(err.Error()))}
	}
	problem := m[2]
	line, _ := strconv.Atoi(m[1])
	construct, isParser := parserProblems[problem]
	if !isParser {
		if line == 0 {
			return &Error{Key: ConfigFlag, Msg: fmt.Sprintf("%s: YAML syntax error: %s", path, problem)}
		}
		return &Error{Key: ConfigFlag, Msg: fmt.Sprintf("%s:%d: YAML syntax error: %s", path, line, problem)}
	}
	// 1-based: the construct's first line, or the problem's when the
	// construct starts on line 1 (yaml.v3 then prints the problem's).
	start := line + 1
	// A problem found at the end of the file (a list never closed) is
	// reported by yaml.v3 on the empty line after the last one.
	at := min(problemLine(raw, start, problem), max(lineCount(raw), 1))
	msg := fmt.Sprintf("%s:%d: YAML syntax error: %s", path, at, problem)
	if construct != "" && at > start {
		msg += fmt.Sprintf(" (in the %s that starts on line %d)", construct, start)
	}
	return &Error{Key: ConfigFlag, Msg: msg}
}

// problemLine returns the first line, from `from` on, such that the file
// cut after it fails with problem; from when none does.
func problemLine(raw []byte, from int, problem string) int {
	lines := strings.SplitAfter(string(raw), "\n")
	for n := from; n <= len(lines); n++ {
		_, _, err := parseYAML([]byte(strings.Join(lines[:n], "")))
		if err == nil {
			continue
		}
		if m := yamlError.FindStringSubmatch(err.Error()); m != nil && m[2] == problem {
			return n
		}
	}
	return from
}

// lineCount is the number of lines of raw, a last one without a newline
// included.
func lineCount(raw []byte) int {
	n := bytes.Count(raw, []byte("\n"))
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		n++
	}
	return n
}

// duplicateKeys returns an error for the first mapping under node that
// holds one key twice, compared without case as viper compares them.
// prefix is the dotted path of node ("" for the top).
func duplicateKeys(path string, node *yaml.Node, prefix string) error {
	switch node.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, child := range node.Content {
			if err := duplicateKeys(path, child, prefix); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(node.Content); i += 2 {
			key, value := node.Content[i], node.Content[i+1]
			name := strings.ToLower(key.Value)
			dotted := name
			if prefix != "" {
				dotted = prefix + "." + name
			}
			if first, ok := seen[name]; ok {
				return &Error{Key: dotted, Err: errDuplicateKey, Msg: duplicateText(path, first, key)}
			}
			seen[name] = key
			if err := duplicateKeys(path, value, dotted); err != nil {
				return err
			}
		}
	}
	return nil
}

// errDuplicateKey is the Err of a key given twice.
var errDuplicateKey = errors.New("key given twice")

// duplicateText says where a key is given twice, and in which spellings.
func duplicateText(path string, first, second *yaml.Node) string {
	if first.Value == second.Value {
		return fmt.Sprintf("%s: given twice, %q on lines %d and %d", path, first.Value, first.Line, second.Line)
	}
	return fmt.Sprintf("%s: given twice, as %q on line %d and %q on line %d (keys do not depend on case)",
		path, first.Value, first.Line, second.Value, second.Line)
}

// oneLine joins a multi-line message into one, so that it fits the one
// error line every failure ends with.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
