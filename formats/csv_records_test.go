package formats

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// csvRecord is one line ScanCSV handed out, its fields copied.
type csvRecord struct {
	line   int64
	fields string // joined by '|'
}

func scanRecords(text string) ([]csvRecord, error) {
	var got []csvRecord
	keep := func(line int64, fields [][]byte) error {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = string(f)
		}
		got = append(got, csvRecord{line, strings.Join(parts, "|")})
		return nil
	}
	err := ScanCSV(strings.NewReader(text), "t.csv", keep, keep)
	return got, err
}

// ScanCSV hands out the header and every line's fields, unquoted and
// trimmed, with their line numbers; blank lines are skipped and a byte
// order mark dropped.
func TestScanCSV(t *testing.T) {
	got, err := scanRecords("\xef\xbb\xbf\n\"id\", lon ,lat\r\n\"a,\"\"b\"\"\",1,2\r\n\n x ,, 3")
	if err != nil {
		t.Fatal(err)
	}
	want := []csvRecord{{2, "id|lon|lat"}, {3, `a,"b"|1|2`}, {5, "x||3"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// ScanCSV's own errors are ParseErrors at the line; the callbacks' come
// back unwrapped and stop the scan.
func TestScanCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int64
		msg  string
	}{
		{"", 0, "no header line"},
		{"\n\n", 0, "no header line"},
		{"a,b\n1,2,3\n", 2, "3 fields, the header has 2"},
		{"a,b\n1,\"2\n", 2, "a quoted field runs past the end of the line"},
	} {
		_, err := scanRecords(tc.text)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "t.csv" || pe.Line != tc.line || !strings.HasPrefix(pe.Msg, tc.msg) {
			t.Errorf("%q: %v, want %q at line %d", tc.text, err, tc.msg, tc.line)
		}
	}
	stop := errors.New("stop")
	rows := 0
	err := ScanCSV(strings.NewReader("a\n1\n2\n"), "t.csv",
		func(int64, [][]byte) error { return nil },
		func(int64, [][]byte) error { rows++; return stop })
	if err != stop || rows != 1 {
		t.Errorf("row callback's error: %v after %d rows, want it unwrapped after 1", err, rows)
	}
	if err := ScanCSV(strings.NewReader("a\n1\n"), "t.csv", func(int64, [][]byte) error { return stop }, nil); err != stop {
		t.Errorf("header callback's error: %v, want it unwrapped", err)
	}
}
