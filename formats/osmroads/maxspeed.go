package osmroads

import (
	"math"
	"strconv"
	"strings"
)

// Conversion factors of the maxspeed units to km/h (exact by definition).
const (
	kmhPerMph  = 1.609344
	kmhPerKnot = 1.852
)

// ParseMaxspeed reads an OpenStreetMap maxspeed value as km/h. It knows a
// number (km/h), a number followed, with or without a space, by km/h, kmh,
// kph, mph or knots; "none" and "unlimited" (p's maxspeed_none_kmh) and
// "walk" (p's maxspeed_walk_kmh). A list "50;30" gives its lowest part
// that parses, so a way signed for two speeds is driven at the lower one.
// Anything else, such as "signals", "variable" or a country zone like
// "DE:urban", gives ok false: the caller keeps the class default. Units and
// words are matched without regard to case. With a nil p, "none" and
// "walk" do not parse. It does not allocate.
func ParseMaxspeed(v string, p *Profile) (kmh float64, ok bool) {
	for v != "" {
		part := v
		if i := strings.IndexByte(v, ';'); i >= 0 {
			part, v = v[:i], v[i+1:]
		} else {
			v = ""
		}
		if s, good := parseMaxspeedValue(strings.TrimSpace(part), p); good && (!ok || s < kmh) {
			kmh, ok = s, true
		}
	}
	return kmh, ok
}

// parseMaxspeedValue reads one value of a maxspeed list.
func parseMaxspeedValue(s string, p *Profile) (float64, bool) {
	switch {
	case strings.EqualFold(s, "none"), strings.EqualFold(s, "unlimited"):
		if p == nil || p.maxspeedNoneKMH <= 0 {
			return 0, false
		}
		return p.maxspeedNoneKMH, true
	case strings.EqualFold(s, "walk"):
		if p == nil || p.maxspeedWalkKMH <= 0 {
			return 0, false
		}
		return p.maxspeedWalkKMH, true
	}
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	if end == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || n <= 0 || math.IsInf(n, 0) {
		return 0, false
	}
	switch unit := strings.TrimLeft(s[end:], " "); {
	case unit == "", strings.EqualFold(unit, "km/h"), strings.EqualFold(unit, "kmh"), strings.EqualFold(unit, "kph"):
		return n, true
	case strings.EqualFold(unit, "mph"):
		return n * kmhPerMph, true
	case strings.EqualFold(unit, "knots"):
		return n * kmhPerKnot, true
	}
	return 0, false
}
