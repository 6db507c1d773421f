// Package config is the configuration machinery shared by pathflow's
// commands: a declared set of keys with defaults, a YAML file, PATHFLOW_*
// environment variables and command-line flags, merged by a private
// viper.Viper per command.
//
// Precedence, highest first: flags the user set, environment variables, the
// config file, defaults. Keys the program does not declare are an error, so
// a typo in a scheduled job's YAML fails loudly instead of being ignored;
// so is a key given twice in one mapping, in any case (viper folds keys to
// lower case, and the later one would win). YAML syntax errors name the
// line of the fault. An unknown key, flag or PATHFLOW_* variable names the
// one likely meant.
//
// A relative path in a config file (a key marked Key.Path) is resolved
// against the file's folder, so that a file works from any working
// directory; one from a flag or an environment variable is relative to
// the working directory.
package config
