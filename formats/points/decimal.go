package points

import "strconv"

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseFloat reads a decimal number as strconv.ParseFloat does, bit for
// bit, but first tries the form nearly every coordinate in a CSV file
// has (-75.1234567: a sign, at most 15 digits, a point), which it reads
// several times faster.
func parseFloat(b []byte) (float64, error) {
	if v, ok := parseShortDecimal(b); ok {
		return v, nil
	}
	return strconv.ParseFloat(string(b), 64)
}

// parseShortDecimal reads [+-]digits[.digits] with at most 15 digits in
// all, and false for anything else. Such a number is m / 10^k with m and
// 10^k exact in a float64 (both below 2^53), so the one division, which
// IEEE 754 rounds correctly, gives the correctly rounded value (Clinger's
// fast path).
func parseShortDecimal(b []byte) (float64, bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		i, neg = 1, b[0] == '-'
	}
	var m uint64
	digits, frac := 0, -1 // frac counts the digits after the point, -1 before it
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' {
			if frac >= 0 {
				return 0, false
			}
			frac = 0
			continue
		}
		d := c - '0'
		if d > 9 || digits == len(pow10)-1 {
			return 0, false
		}
		m = m*10 + uint64(d)
		digits++
		if frac >= 0 {
			frac++
		}
	}
	if digits == 0 {
		return 0, false
	}
	v := float64(m)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseID reads an id as an int64 the way strconv.ParseInt(s, 10, 64)
// does but with no '+' sign ("+5" stays text: only the form an integer
// column prints is one), and false for anything else. Up to 18 digits
// cannot overflow and are read here; longer ones go to strconv.
func parseID(b []byte) (int64, bool) {
	i, neg := 0, false
	if len(b) > 0 && b[0] == '-' {
		i, neg = 1, true
	}
	if len(b) == i {
		return 0, false
	}
	if len(b)-i > 18 {
		if b[0] == '+' {
			return 0, false
		}
		v, err := strconv.ParseInt(string(b), 10, 64)
		return v, err == nil
	}
	var v int64
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	if neg {
		v = -v
	}
	return v, true
}
