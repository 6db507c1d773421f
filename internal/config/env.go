package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/viper"
)

// applyEnv sets every key whose variable env holds, and returns a warning
// for each PATHFLOW_* variable that is neither a key's nor one of others:
// a misspelled variable would otherwise be ignored without a word. A
// variable in renamed is told what replaced it instead of the nearest key.
func applyEnv(v *viper.Viper, keys []Key, env, others []string, renamed map[string]string) ([]string, error) {
	values := map[string]string{}
	for _, kv := range env {
		if name, value, ok := strings.Cut(kv, "="); ok {
			values[name] = value // the last wins, as in os.Getenv
		}
	}
	known := map[string]bool{}
	for _, name := range others {
		known[name] = true
	}
	for _, k := range keys {
		known[k.EnvName()] = true
		if value, ok := values[k.EnvName()]; ok {
			if err := set(v, k, value, "environment variable "+k.EnvName()); err != nil {
				return nil, err
			}
		}
	}
	var warnings []string
	for name := range values {
		if !strings.HasPrefix(name, EnvPrefix+"_") || known[name] {
			continue
		}
		if now, ok := renamed[name]; ok {
			warnings = append(warnings, fmt.Sprintf("environment variable %s matches no key and is ignored; it was renamed: %s", name, now))
		} else {
			warnings = append(warnings, unknownVariable(name, keys))
		}
	}
	sort.Strings(warnings)
	return warnings, nil
}

// unknownVariable is the warning for a PATHFLOW_* variable that sets no
// key, naming the key whose variable is nearest in edit distance.
func unknownVariable(name string, keys []Key) string {
	msg := fmt.Sprintf("environment variable %s matches no key and is ignored", name)
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.EnvName()
	}
	if i, _ := nearest(name, names); i >= 0 {
		msg += fmt.Sprintf("; did you mean %s (key %s)?", names[i], keys[i].Name)
	}
	return msg
}

// nearest returns the index in candidates of the name nearest to name in
// edit distance (the first of equals), and that distance; -1 when there
// are no candidates. O(len(candidates) * len(name) * longest candidate).
func nearest(name string, candidates []string) (index, distance int) {
	index, distance = -1, -1
	for i, c := range candidates {
		if d := editDistance(name, c); distance < 0 || d < distance {
			index, distance = i, d
		}
	}
	return index, distance
}

// likelyMeant returns the candidate name was likely meant to be, "" for
// none: the nearest in edit distance when it is close enough to be a
// typo (a third of name's length, at least one edit). Unlike a variable,
// whose prefix every candidate shares, a flag or key far from every
// candidate gets no suggestion: the nearest would be noise.
func likelyMeant(name string, candidates []string) string {
	i, d := nearest(name, candidates)
	if i < 0 || d > max(1, len(name)/3) {
		return ""
	}
	return candidates[i]
}

// editDistance is the Levenshtein distance between a and b: the fewest
// single-byte insertions, deletions and substitutions that turn one into
// the other. O(len(a) * len(b)).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
