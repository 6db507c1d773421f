package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IndexList returns key as a non-empty list of non-negative integers (such
// as device ordinals; one may repeat), or nil when key is the word all. It
// takes a YAML list ([0, 1]), a YAML integer (a list of one), or a string:
// all, or comma-separated integers ("0,1", from a flag or the
// environment). Anything else fails, naming the key and the value.
func (vs *Values) IndexList(key, all string) []int {
	raw := vs.l.V.Get(key)
	var items []any
	switch x := raw.(type) {
	case string:
		switch strings.TrimSpace(x) {
		case all:
			return nil
		case "":
			vs.fail(key, "is empty: want %s or a list of integers >= 0", all)
			return nil
		}
		for _, part := range strings.Split(x, ",") {
			items = append(items, part)
		}
	case []any:
		items = x
	case []int:
		for _, n := range x {
			items = append(items, n)
		}
	case []string:
		for _, s := range x {
			items = append(items, s)
		}
	case int, int64, uint64:
		items = []any{x}
	default:
		vs.fail(key, "want %s or a list of integers >= 0, got %s", all, describe(raw))
		return nil
	}
	if len(items) == 0 {
		vs.fail(key, "is an empty list: want %s or a list of integers >= 0", all)
		return nil
	}
	out := make([]int, 0, len(items))
	for _, item := range items {
		n, ok := index(item)
		if !ok {
			vs.fail(key, "want %s or a list of integers >= 0, got %s (%s is not an integer >= 0)", all, describe(raw), describe(item))
			return nil
		}
		out = append(out, n)
	}
	return out
}

// index converts one list item to a non-negative int.
func index(item any) (int, bool) {
	switch x := item.(type) {
	case int:
		return x, x >= 0
	case int64:
		return int(x), x >= 0 && x <= math.MaxInt
	case uint64:
		return int(x), x <= math.MaxInt
	case string:
		s := strings.TrimSpace(x)
		if s == "" || strings.TrimLeft(s, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil
	default:
		return 0, false
	}
}

// describe formats a value for a message: strings quoted, the rest as %v.
func describe(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
