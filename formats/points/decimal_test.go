package points

import (
	"math"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// TestParseFloat checks parseFloat against strconv.ParseFloat, bit for
// bit, on the numbers its fast path takes and on those it must leave.
func TestParseFloat(t *testing.T) {
	texts := []string{"0", "-0", "+0", "1", "-75.1234567", "39.0000001", ".5", "5.", "-.25",
		"999999999999999", "9999999999999999", "0.000000000000001", "0.1234567890123456",
		"180", "-180.0000000000000", "1e2", "1E-7", "0x1p-2", "inf", "NaN", "", ".", "-", "1.2.3", "1,5", " 1", "1_0", "--1"}
	rng := tablestest.NewRand(3)
	for range 100000 {
		v := (rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(6)))
		texts = append(texts, strconv.FormatFloat(v, 'f', rng.IntN(17)-1, 64))
	}
	for _, s := range texts {
		want, wantErr := strconv.ParseFloat(s, 64)
		got, err := parseFloat([]byte(s))
		if (err != nil) != (wantErr != nil) || math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv says %v, %v", s, got, err, want, wantErr)
		}
	}
}

// TestParseID checks parseID against strconv.ParseInt, which it must
// follow except for a '+' sign.
func TestParseID(t *testing.T) {
	texts := []string{"0", "-0", "7", "007", "-8", "+5", "", "-", "1e3", "12a", " 1",
		"999999999999999999", "-999999999999999999", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "+9223372036854775807", "18446744073709551616"}
	rng := tablestest.NewRand(4)
	for range 10000 {
		texts = append(texts, strconv.FormatInt(int64(rng.Uint64())>>rng.IntN(64), 10))
	}
	for _, s := range texts {
		want, err := strconv.ParseInt(s, 10, 64)
		wantOK := err == nil && (s == "" || s[0] != '+')
		if got, ok := parseID([]byte(s)); ok != wantOK || ok && got != want {
			t.Errorf("parseID(%q) = %d, %v; want %d, %v", s, got, ok, want, wantOK)
		}
	}
}
