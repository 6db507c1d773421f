package formats

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"
)

type csvPair struct {
	line, source, target int64
	others               string // the other fields, joined by "|"
}

func readPairs(t *testing.T, text []byte) ([]csvPair, error) {
	got, _, err := readPairsAndNames(t, text)
	return got, err
}

// readPairsAndNames reads text and returns its pairs and the names of its
// other columns.
func readPairsAndNames(t *testing.T, text []byte) ([]csvPair, []string, error) {
	t.Helper()
	var got []csvPair
	names, err := ReadPairsCSV(bytes.NewReader(text), "pairs.csv", func(line, s, d int64, others [][]byte) error {
		got = append(got, csvPair{line, s, d, string(bytes.Join(others, []byte("|")))})
		return nil
	})
	return got, names, err
}

// A pair list in CSV: the header names the columns in any order beside
// others, quoted or not; blank lines, spaces around fields, CRLF ends, a
// missing final newline and gzip are accepted; lines are numbered with the
// header as line 1; the other columns come with each pair, in header
// order, and their names at the end.
func TestReadPairsCSV(t *testing.T) {
	text := "\"target\", weight ,source, \"mode\"\r\n7,x,3,car\r\n\r\n 9 , y, -2,\"a, b\"\n4,,1,"
	want := []csvPair{{2, 3, 7, "x|car"}, {4, -2, 9, "y|a, b"}, {5, 1, 4, "|"}}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(text))
	w.Close()
	for name, in := range map[string][]byte{"plain": []byte(text), "gzip": gz.Bytes()} {
		got, names, err := readPairsAndNames(t, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(names, []string{"weight", "mode"}) {
			t.Errorf("%s: other columns %q, want weight and mode", name, names)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: pair %d is %v, want %v", name, i, got[i], want[i])
			}
		}
	}
}

// Errors name the file and the line, and the callback's error comes back
// as it is.
func TestReadPairsCSVErrors(t *testing.T) {
	for text, mention := range map[string]string{
		"src,target\n1,2\n":                       "pairs.csv:1: the header must name the columns source and target",
		"source,target\n1,2\n3\n":                 "pairs.csv:3: 1 fields",
		"source,target\n1,2\n3,4.5\n":             `pairs.csv:3: target "4.5" is not an integer`,
		"source,target\n\n\nq,1\n":                `pairs.csv:4: source "q" is not an integer`,
		"source,target\n1,99999999999999999999\n": "pairs.csv:2: target",
	} {
		_, err := readPairs(t, []byte(text))
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), mention) {
			t.Errorf("%q: err = %v, want a ParseError mentioning %q", text, err, mention)
		}
	}
	stop := errors.New("stop")
	_, err := ReadPairsCSV(strings.NewReader("source,target\n1,2\n3,4\n"), "p", func(int64, int64, int64, [][]byte) error { return stop })
	if err != stop {
		t.Errorf("err = %v, want the callback's", err)
	}
}

// Rows have exactly the header's fields, and quotes follow RFC 4180 in
// the header and the values alike: a quoted value is read, a quoted comma
// or doubled quote belongs to its field, a byte order mark before the
// header is dropped.
func TestReadPairsCSVFieldsAndQuotes(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []csvPair
	}{
		{"quoted header and values", "\"source\",\"target\"\n\"1\",\"2\"\n", []csvPair{{2, 1, 2, ""}}},
		{"quoted values under a plain header", "source,target\n\"1\",2\n3,\"4\"\n", []csvPair{{2, 1, 2, ""}, {3, 3, 4, ""}}},
		{"spaces around quotes", "source,target\n \"1\" , \"2\" \n", []csvPair{{2, 1, 2, ""}}},
		{"a quoted comma in another column", "source,note,target\n1,\"a, b\",2\n", []csvPair{{2, 1, 2, "a, b"}}},
		{"doubled quotes", "source,note,target\n1,\"say \"\"hi\"\", then \"\"\"\"\",2\n", []csvPair{{2, 1, 2, `say "hi", then ""`}}},
		{"a quoted comma in the header", "\"from, to\",source,target\nx,5,6\n", []csvPair{{2, 5, 6, "x"}}},
		{"an empty quoted field", "source,note,target\n1,\"\",2\n", []csvPair{{2, 1, 2, ""}}},
		{"byte order mark", "\xef\xbb\xbfsource,target\n1,2\n", []csvPair{{2, 1, 2, ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readPairs(t, []byte(tc.text))
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for text, mention := range map[string]string{
		"source,target\n1,2,3\n":                     "pairs.csv:2: 3 fields, the header has 2",
		"source,target\n1,2,\n":                      "pairs.csv:2: 3 fields, the header has 2",
		"source,note,target\n1,2\n":                  "pairs.csv:2: 2 fields, the header has 3",
		"source,target,source\n1,2,3\n":              "pairs.csv:1: the header names the column source twice (fields 1 and 3)",
		"source,target\n1,2\"\n":                     "pairs.csv:2: a quote inside an unquoted field",
		"source,target\n\"1\"x,2\n":                  "pairs.csv:2: text after the closing quote",
		"source,note,target\n1,\"a\nb\",2\n":         "pairs.csv:2: a quoted field runs past the end of the line",
		"source,target\n\"1,2\"\n":                   "pairs.csv:2: 1 fields, the header has 2",
		"\"source\",\"target\"\n\"+1\",2\n":          `pairs.csv:2: source "+1" is not an integer`,
		"source,target\n\"1\",\"\"\n":                `pairs.csv:2: target "" is not an integer`,
		"\"source,target\"\n1,2\n":                   "pairs.csv:1: the header must name the columns source and target",
		"source,target\n1,2\n\"3\",\"4\",\"5\"\n":    "pairs.csv:3: 3 fields, the header has 2",
		"source,target\n1,2\n\"3\",4\n\"5\" \"6\"\n": "pairs.csv:4: text after the closing quote",
	} {
		_, err := readPairs(t, []byte(text))
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), mention) {
			t.Errorf("%q: err = %v, want a ParseError mentioning %q", text, err, mention)
		}
	}
}

// splitCSV reads every well-formed line as encoding/csv does.
func TestSplitCSVAgreesWithEncodingCSV(t *testing.T) {
	for _, line := range []string{
		`1,2`, `"1","2"`, `a,"b,c",d`, `"say ""hi""",x`, `"",""`, `,`, `x,,y`, `"a""",b`, `""""`,
	} {
		r := csv.NewReader(strings.NewReader(line))
		r.FieldsPerRecord = -1
		want, err := r.Read()
		if err != nil {
			t.Fatalf("%s: encoding/csv: %v", line, err)
		}
		fields, err := splitCSV([]byte(line), nil)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got := make([]string, len(fields))
		for i, f := range fields {
			got[i] = string(f)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: fields %q, encoding/csv reads %q", line, got, want)
		}
	}
}
