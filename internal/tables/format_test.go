package tables

import (
	"bytes"
	"testing"
)

func TestParseFormat(t *testing.T) {
	cases := map[string]Format{"parquet": Parquet, "PARQUET": Parquet, " arrow ": Arrow, "ipc": Arrow, "feather": Arrow}
	for in, want := range cases {
		got, err := ParseFormat(in)
		if err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFormat("csv"); err == nil {
		t.Error("ParseFormat(csv) succeeded")
	}
	var f Format
	if err := f.Set("arrow"); err != nil || f != Arrow {
		t.Errorf("Set(arrow) gave %v, %v", f, err)
	}
	if Parquet.Ext() != ".parquet" || Arrow.Ext() != ".arrow" {
		t.Errorf("extensions %q %q", Parquet.Ext(), Arrow.Ext())
	}
}

func TestDetectFormat(t *testing.T) {
	cases := []struct {
		data string
		want Format
		ok   bool
	}{
		{"ARROW1\x00\x00rest", Arrow, true},
		{"PAR1rest", Parquet, true},
		{"PAR1", Parquet, true},
		{"PAR", 0, false},
		{"", 0, false},
		{"c 9th DIMACS", 0, false},
	}
	for _, c := range cases {
		got, err := DetectFormat(bytes.NewReader([]byte(c.data)))
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("DetectFormat(%q) = %v, %v; want %v ok=%v", c.data, got, err, c.want, c.ok)
		}
	}
}
