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
	best, bestDist := Key{}, -1
	for _, k := range keys {
		if d := editDistance(name, k.EnvName()); bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist >= 0 {
		msg += fmt.Sprintf("; did you mean %s (key %s)?", best.EnvName(), best.Name)
	}
	return msg
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
