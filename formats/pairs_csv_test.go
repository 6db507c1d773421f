package formats

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

type csvPair struct{ line, source, target int64 }

func readPairs(t *testing.T, text []byte) ([]csvPair, error) {
	t.Helper()
	var got []csvPair
	err := ReadPairsCSV(bytes.NewReader(text), "pairs.csv", func(line, s, d int64) error {
		got = append(got, csvPair{line, s, d})
		return nil
	})
	return got, err
}

// A pair list in CSV: the header names the columns in any order beside
// others, quoted or not; blank lines, spaces around fields, CRLF ends, a
// missing final newline and gzip are accepted; lines are numbered with the
// header as line 1.
func TestReadPairsCSV(t *testing.T) {
	text := "\"target\", weight ,source\r\n7,x,3\r\n\r\n 9 , y, -2\n4,,1"
	want := []csvPair{{2, 3, 7}, {4, -2, 9}, {5, 1, 4}}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(text))
	w.Close()
	for name, in := range map[string][]byte{"plain": []byte(text), "gzip": gz.Bytes()} {
		got, err := readPairs(t, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
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
	err := ReadPairsCSV(strings.NewReader("source,target\n1,2\n3,4\n"), "p", func(int64, int64, int64) error { return stop })
	if err != stop {
		t.Errorf("err = %v, want the callback's", err)
	}
}
