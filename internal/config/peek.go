package config

import (
	"os"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Peek returns what src sets key to, by the usual precedence (flag,
// environment, config file), without checking anything else: for
// settings that must be known even when the configuration does not load,
// such as the format of the message that says why it did not. It returns
// "" when nothing sets the key or what sets it cannot be read.
func Peek(keys []Key, src Source, key string) string {
	var k Key
	for _, c := range keys {
		if c.Name == key {
			k = c
		}
	}
	if k.Name == "" {
		return ""
	}
	configPath := ""
	flagValue, flagSet := "", false
	args := src.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break // the flag package stops here too
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && i+1 < len(args) && (name == ConfigFlag || (k.Flag != "" && name == k.Flag)) {
			i++
			value = args[i]
		}
		switch {
		case name == ConfigFlag:
			configPath = value
		case k.Flag != "" && name == k.Flag:
			flagValue, flagSet = value, true
		}
	}
	if flagSet {
		return flagValue
	}
	for i := len(src.Env) - 1; i >= 0; i-- { // the last wins, as in os.Getenv
		if value, ok := strings.CutPrefix(src.Env[i], k.EnvName()+"="); ok {
			return value
		}
	}
	var raw []byte
	switch {
	case configPath != "":
		raw, _ = os.ReadFile(configPath)
	case src.Default != nil:
		raw = src.Default.Raw
	}
	var doc map[string]any
	if yaml.Unmarshal(raw, &doc) != nil {
		return ""
	}
	var node any = doc
	for _, part := range strings.Split(key, ".") {
		m, ok := node.(map[string]any)
		if !ok {
			return ""
		}
		node = m[part]
	}
	if s, ok := node.(string); ok {
		return s
	}
	return ""
}
