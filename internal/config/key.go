package config

import (
	"errors"
	"fmt"
	"strings"
)

// Key declares one configuration key.
type Key struct {
	// Name is the dotted key as written in YAML, e.g. "compute.backend".
	Name string
	// Default is the value used when nothing else sets the key. Its Go type
	// (string, int, bool, float64 or []string) is the key's type.
	Default any
	// Flag is the command-line flag that sets the key; empty for none.
	Flag string
	// Usage documents the key for -help and the reference config.
	Usage string
	// Path marks a key whose value names a file or folder. A relative
	// path written in a config file is resolved against the file's
	// folder, so that the file works from any working directory (a cron
	// job starts in $HOME); one from a flag or an environment variable is
	// left relative to the working directory, as a shell user expects.
	Path bool
}

// EnvName returns the environment variable that sets the key:
// "compute.backend" is PATHFLOW_COMPUTE_BACKEND.
func (k Key) EnvName() string {
	return EnvPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(k.Name))
}

// EnvPrefix starts every environment variable pathflow reads for its keys.
const EnvPrefix = "PATHFLOW"

// Error is a configuration problem tied to one key.
type Error struct {
	// Key is the dotted key; "" for a problem of the command line (an
	// unknown flag, a stray argument), which Msg then says whole.
	Key string
	// Msg says what is wrong.
	Msg string
	// Err is the error Msg reports, when there is one (errors.Is and As
	// see through to it).
	Err error
}

func (e *Error) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return fmt.Sprintf("config key %q: %s", e.Key, e.Msg)
}

// Unwrap returns the error the message reports, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error for key; a %w verb makes the wrapped error
// its Err.
func Errorf(key, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Key: key, Msg: err.Error(), Err: errors.Unwrap(err)}
}
