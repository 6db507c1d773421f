package config

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cast"
)

// Values reads typed values from a Loaded configuration and collects the
// first error, which names the key: callers read every key they need and
// check Err once.
type Values struct {
	l   *Loaded
	err error
}

// Values returns a typed reader over the merged configuration.
func (l *Loaded) Values() *Values { return &Values{l: l} }

// Err returns the first error met while reading values.
func (vs *Values) Err() error { return vs.err }

// Fail records a validation error for key unless an earlier one is
// recorded; callers use it for checks that involve several keys.
func (vs *Values) Fail(key, format string, args ...any) { vs.fail(key, format, args...) }

func (vs *Values) fail(key, format string, args ...any) {
	if vs.err == nil {
		vs.err = Errorf(key, format, args...)
	}
}

// convert returns key converted by conv; when it does not convert, it
// fails with "want WANT, got VALUE" and returns the zero value and false.
func convert[T any](vs *Values, key, want string, conv func(any) (T, error)) (T, bool) {
	raw := vs.l.V.Get(key)
	v, err := conv(raw)
	if err != nil {
		vs.fail(key, "want %s, got %v", want, raw)
		var zero T
		return zero, false
	}
	return v, true
}

// integer returns key as an integer within [lo, hi], converted by conv.
func integer[T int | int64](vs *Values, key string, lo, hi T, conv func(any) (T, error)) T {
	// cast truncates a fractional YAML number; a setting of 2.5 is a
	// mistake to report, not a 2.
	if f, ok := vs.l.V.Get(key).(float64); ok && f != math.Trunc(f) {
		vs.fail(key, "want an integer, got %v", f)
		return 0
	}
	n, ok := convert(vs, key, "an integer", conv)
	if ok && (n < lo || n > hi) {
		vs.fail(key, "%d is outside [%d, %d]", n, lo, hi)
	}
	return n
}

// String returns key as a string.
func (vs *Values) String(key string) string {
	s, _ := convert(vs, key, "a string", cast.ToStringE)
	return s
}

// OneOf returns key as a string that must be one of allowed.
func (vs *Values) OneOf(key string, allowed ...string) string {
	s := vs.String(key)
	if !slices.Contains(allowed, s) {
		vs.fail(key, "%q is not one of %s", s, strings.Join(allowed, ", "))
	}
	return s
}

// Int returns key as an integer within [lo, hi].
func (vs *Values) Int(key string, lo, hi int) int {
	return integer(vs, key, lo, hi, cast.ToIntE)
}

// Int64 returns key as a 64-bit integer within [lo, hi].
func (vs *Values) Int64(key string, lo, hi int64) int64 {
	return integer(vs, key, lo, hi, cast.ToInt64E)
}

// Uint64 returns key as an unsigned 64-bit integer.
func (vs *Values) Uint64(key string) uint64 {
	n, _ := convert(vs, key, "a non-negative integer", cast.ToUint64E)
	return n
}

// Bool returns key as a boolean.
func (vs *Values) Bool(key string) bool {
	b, _ := convert(vs, key, "true or false", cast.ToBoolE)
	return b
}

// StringList returns key as a list of strings; a YAML scalar is a list of
// one, and a comma-separated string (from a flag or the environment) is
// split. An empty element fails, naming the key and the element.
func (vs *Values) StringList(key string) []string {
	raw := vs.l.V.Get(key)
	switch x := raw.(type) {
	case nil:
		return nil
	case string:
		list, err := splitList(x)
		if err != nil {
			vs.fail(key, "%v", err)
		}
		return list
	case []string:
		return vs.nonEmpty(key, x)
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			s, err := cast.ToStringE(item)
			if err != nil {
				vs.fail(key, "list item %v is not a scalar", item)
				return nil
			}
			out = append(out, s)
		}
		return vs.nonEmpty(key, out)
	default:
		s, err := cast.ToStringE(x)
		if err != nil {
			vs.fail(key, "want a list, got %v", raw)
			return nil
		}
		return []string{s}
	}
}

// nonEmpty returns list, or fails on its first empty element.
func (vs *Values) nonEmpty(key string, list []string) []string {
	for i, s := range list {
		if strings.TrimSpace(s) == "" {
			vs.fail(key, "%v", emptyElement(fmt.Sprintf("%q", list), i))
			return nil
		}
	}
	return list
}

// Path returns key as a file path, as seen from the working directory: a
// relative path from a config file was resolved against the file's
// folder when the file was read (Key.Path). It fails when required and
// empty.
func (vs *Values) Path(key string, required bool) string {
	s := vs.String(key)
	if required && s == "" {
		vs.fail(key, "is required")
	}
	return s
}
