package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the byte-size units ByteSize accepts, in lower case:
// decimal (powers of 1000) and binary (powers of 1024).
var sizeUnits = map[string]int64{
	"":    1,
	"b":   1,
	"kb":  1e3,
	"mb":  1e6,
	"gb":  1e9,
	"tb":  1e12,
	"kib": 1 << 10,
	"mib": 1 << 20,
	"gib": 1 << 30,
	"tib": 1 << 40,
}

// sizeForms says what a byte size may look like, for error messages.
const sizeForms = "an integer number of bytes, or one with a unit: B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024)"

// ParseByteSize parses a non-negative byte size: an integer with an
// optional unit, case-insensitive and optionally after a space ("512",
// "10GiB", "512 MiB", "4gb").
func ParseByteSize(text string) (int64, error) {
	s := strings.TrimSpace(text)
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 {
		if strings.HasPrefix(s, "-") {
			return 0, fmt.Errorf("%q is negative", text)
		}
		return 0, fmt.Errorf("%q is not a byte size (want %s)", text, sizeForms)
	}
	unit, ok := sizeUnits[strings.ToLower(strings.TrimSpace(s[digits:]))]
	if !ok {
		return 0, fmt.Errorf("%q is not a byte size (want %s)", text, sizeForms)
	}
	n, err := strconv.ParseInt(s[:digits], 10, 64)
	if err != nil || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is more bytes than 2^63 - 1", text)
	}
	return n * unit, nil
}

// ByteSize returns key as a non-negative number of bytes: a YAML integer,
// or a string that ParseByteSize reads ("10GiB", "512 MiB").
func (vs *Values) ByteSize(key string) int64 {
	var n int64
	switch x := vs.l.V.Get(key).(type) {
	case string:
		size, err := ParseByteSize(x)
		if err != nil {
			vs.fail(key, "%v", err)
		}
		return size
	case int:
		n = int64(x)
	case int64:
		n = x
	case uint64:
		if x > math.MaxInt64 {
			vs.fail(key, "%d is more bytes than 2^63 - 1", x)
			return 0
		}
		n = int64(x)
	default:
		vs.fail(key, "want a byte size (%s), got %v", sizeForms, x)
		return 0
	}
	if n < 0 {
		vs.fail(key, "%d is negative", n)
		return 0
	}
	return n
}
