package formats

import (
	"math"
	"strconv"
	"testing"
)

func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		st   intStatus
	}{
		{"0", 0, intOK},
		{"007", 7, intOK},
		{"-0", 0, intOK},
		{"-12", -12, intOK},
		{strconv.FormatInt(math.MaxInt64, 10), math.MaxInt64, intOK},
		{strconv.FormatInt(math.MinInt64, 10), math.MinInt64, intOK},
		{"9223372036854775808", 0, intRange},
		{"-9223372036854775809", 0, intRange},
		{"99999999999999999999999", 0, intRange},
		{"", 0, intSyntax},
		{"-", 0, intSyntax},
		{"+1", 0, intSyntax},
		{"1e3", 0, intSyntax},
		{"1.0", 0, intSyntax},
		{"1\r", 0, intSyntax},
	} {
		got, st := parseInt([]byte(tc.in))
		if got != tc.want || st != tc.st {
			t.Errorf("parseInt(%q) = %d, %d; want %d, %d", tc.in, got, st, tc.want, tc.st)
		}
	}
	if _, st := parseInt32([]byte("2147483648")); st != intRange {
		t.Error("parseInt32 accepted 2^31")
	}
	if v, st := parseInt32([]byte("-2147483648")); st != intOK || v != math.MinInt32 {
		t.Error("parseInt32 refused -2^31")
	}
}

func TestSplitFields(t *testing.T) {
	var store [3][]byte
	f, ok := splitFields([]byte("a \t b  c"), store[:])
	if !ok || len(f) != 3 || string(f[0]) != "a" || string(f[1]) != "b" || string(f[2]) != "c" {
		t.Errorf("got %q, %v", f, ok)
	}
	if _, ok := splitFields([]byte("a b c d"), store[:]); ok {
		t.Error("four fields fit in three")
	}
	if got := string(trimLine([]byte(" \tx y \t\r\r"))); got != "x y" {
		t.Errorf("trimLine: %q", got)
	}
}
