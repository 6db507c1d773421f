package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// ConfigFlag is the flag naming the YAML file, the same for every command.
const ConfigFlag = "config"

// VersionFlag is the flag that asks a command for its version; Read then
// returns ErrVersion.
const VersionFlag = "version"

// ErrVersion is Read's answer to -version: the caller prints its version
// and exits 0.
var ErrVersion = errors.New("config: version requested")

// Loaded is the merged configuration of one command run.
type Loaded struct {
	// V holds the merged values; read them with the Key names.
	V *viper.Viper
	// File is the config file that was read, "" when none.
	File string
	// Raw is the config file's bytes (for the run's config checksum).
	Raw []byte
	// Default is true when File is the command's default config, read
	// because the arguments named none (Source.Default).
	Default bool
	// Dir is the folder relative paths in File were resolved against
	// (Key.Path): File's own folder, or the default config's File.Dir.
	Dir string
	// Warnings are problems that do not stop the run, such as a PATHFLOW_*
	// variable that matches no key; the command prints them.
	Warnings []string
}

// Source is what a command reads its configuration from besides the
// defaults and the config file.
type Source struct {
	// Args are the command-line arguments, without the program name.
	Args []string
	// Env is the environment as os.Environ returns it: "NAME=value".
	Env []string
	// OtherVariables are PATHFLOW_* variables the program reads that are
	// not keys (such as PATHFLOW_DATASETS): they draw no warning.
	OtherVariables []string
	// RenamedVariables maps PATHFLOW_* variables that were renamed to what
	// replaced them, for a warning that says so rather than naming the
	// nearest key.
	RenamedVariables map[string]string
	// Usage receives the -help text and flag errors.
	Usage io.Writer
	// Default, when not nil, is read as the config file when the
	// arguments name none.
	Default *File
}

// File is a config file's name (for messages) and text.
type File struct {
	// Name names the file in messages and in Loaded.File.
	Name string
	// Raw is the file's YAML text.
	Raw []byte
	// Dir is the folder the file's relative paths (Key.Path) are
	// resolved against; "" is the working directory. An embedded file
	// names the folder it has in the repository, relative to the working
	// directory, so that it reads like the checked-out copy run from the
	// repository's root.
	Dir string
}

// Load is Read with args and the process environment.
func Load(name string, keys []Key, args []string, usage io.Writer) (*Loaded, error) {
	return Read(name, keys, Source{Args: args, Env: os.Environ(), Usage: usage})
}

// Read parses src.Args for a command named name that accepts keys, reads
// the config file given by -config (or --config), and merges defaults,
// file, environment and the flags the user set. It returns flag.ErrHelp
// when the user asked for -help (usage has then been printed to
// src.Usage).
func Read(name string, keys []Key, src Source) (*Loaded, error) {
	args, usage := src.Args, src.Usage
	if usage == nil {
		usage = io.Discard
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// Parse errors come back as one error line; only -help prints usage.
	fs.SetOutput(io.Discard)
	configPath := fs.String(ConfigFlag, "", "YAML config file (keys: see configs/reference.yaml); relative paths in it are resolved against its folder")
	version := fs.Bool(VersionFlag, false, "print the version and exit")
	flagKeys := map[string]Key{}
	for _, k := range keys {
		if k.Flag == "" {
			continue
		}
		flagKeys[k.Flag] = k
		usage := fmt.Sprintf("%s (key %s, env %s)", k.Usage, k.Name, k.EnvName())
		if b, ok := k.Default.(bool); ok {
			fs.Bool(k.Flag, b, usage) // so that a bare -quiet means true
		} else {
			fs.String(k.Flag, fmt.Sprint(defaultText(k.Default)), usage)
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(usage)
			fmt.Fprintf(usage, "Usage of %s:\n", name)
			fs.PrintDefaults()
			return nil, err
		}
		return nil, flagError(fs, keys, err)
	}
	if *version {
		return nil, ErrVersion
	}
	if fs.NArg() > 0 {
		return nil, &Error{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}

	v := viper.New()
	v.SetConfigType("yaml")
	known := map[string]Key{}
	for _, k := range keys {
		known[k.Name] = k
		v.SetDefault(k.Name, k.Default)
	}

	loaded := &Loaded{V: v, File: *configPath}
	if *configPath != "" {
		raw, err := os.ReadFile(*configPath)
		if err != nil {
			return nil, &Error{Key: ConfigFlag, Msg: err.Error()}
		}
		loaded.Raw, loaded.Dir = raw, filepath.Dir(*configPath)
	} else if src.Default != nil {
		loaded.File, loaded.Raw, loaded.Default = src.Default.Name, src.Default.Raw, true
		loaded.Dir = src.Default.Dir
	}
	if loaded.File != "" {
		if err := readYAML(v, loaded.File, loaded.Raw, loaded.Dir, known); err != nil {
			return nil, err
		}
	}

	warnings, err := applyEnv(v, keys, src.Env, src.OtherVariables, src.RenamedVariables)
	if err != nil {
		return nil, err
	}
	loaded.Warnings = warnings
	var flagErr error
	fs.Visit(func(f *flag.Flag) {
		if k, ok := flagKeys[f.Name]; ok && flagErr == nil {
			flagErr = set(v, k, f.Value.String(), "flag -"+f.Name)
		}
	})
	return loaded, flagErr
}

// readYAML merges the file into v and rejects keys the command does not
// declare, syntax errors (at their line) and keys given twice. Relative
// paths of Path keys are resolved against dir.
func readYAML(v *viper.Viper, path string, raw []byte, dir string, known map[string]Key) error {
	if err := checkYAML(path, raw); err != nil {
		return err
	}
	file := viper.New()
	file.SetConfigType("yaml")
	if err := file.ReadConfig(bytes.NewReader(raw)); err != nil {
		return &Error{Key: ConfigFlag, Msg: fmt.Sprintf("%s: %s", path, oneLine(err.Error()))}
	}
	var unknown []string
	for _, key := range file.AllKeys() {
		if _, ok := known[key]; !ok {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		msg := fmt.Sprintf("unknown key in %s", path)
		if meant := meantKey(unknown[0], known); meant != "" {
			msg += fmt.Sprintf("; did you mean %s?", meant)
		}
		return &Error{Key: unknown[0], Msg: msg + " (see configs/reference.yaml)"}
	}
	for _, key := range file.AllKeys() {
		value := file.Get(key)
		if p, ok := value.(string); ok && known[key].Path {
			value = resolvePath(dir, p)
		}
		v.Set(key, value)
	}
	return nil
}

// resolvePath returns p, a path written in a config file, as seen from
// the working directory: a relative p is joined to dir, the file's
// folder. Empty (unset) and absolute paths are returned as they are.
func resolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// meantKey returns the declared key an unknown one was likely meant to
// be, "" for none: one with the same last part in another section
// ("input.algorithm" for compute.algorithm), else a near spelling.
func meantKey(name string, known map[string]Key) string {
	names := slices.Sorted(maps.Keys(known))
	leaf := name[strings.LastIndex(name, ".")+1:]
	for _, k := range names {
		if k[strings.LastIndex(k, ".")+1:] == leaf {
			return k
		}
	}
	return likelyMeant(name, names)
}

// flagError turns a flag parse error into one line for the command: an
// unknown flag names the flag it was likely meant to be, or the flag of
// the key it spells; other errors keep the flag package's words.
func flagError(fs *flag.FlagSet, keys []Key, err error) error {
	name, unknown := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !unknown {
		return &Error{Msg: err.Error() + " (-help lists the flags)"}
	}
	for _, k := range keys {
		if k.Name != name {
			continue
		}
		if k.Flag != "" {
			return &Error{Msg: fmt.Sprintf("unknown flag -%s (did you mean -%s? key %s's flag)", name, k.Flag, k.Name)}
		}
		return &Error{Msg: fmt.Sprintf("unknown flag -%s: key %s has no flag; set it in the config file or as %s", name, k.Name, k.EnvName())}
	}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f.Name) })
	if meant := likelyMeant(name, flags); meant != "" {
		return &Error{Msg: fmt.Sprintf("unknown flag -%s (did you mean -%s?)", name, meant)}
	}
	return &Error{Msg: fmt.Sprintf("unknown flag -%s (-help lists the flags)", name)}
}

// set parses a textual value (from a flag or the environment) with the
// key's type and stores it with override precedence.
func set(v *viper.Viper, k Key, text, origin string) error {
	var value any
	switch k.Default.(type) {
	case string:
		value = text
	case bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return &Error{Key: k.Name, Msg: fmt.Sprintf("%s: %q is not a boolean", origin, text)}
		}
		value = b
	case int:
		n, err := strconv.Atoi(text)
		if err != nil {
			return &Error{Key: k.Name, Msg: fmt.Sprintf("%s: %q is not an integer", origin, text)}
		}
		value = n
	case float64:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return &Error{Key: k.Name, Msg: fmt.Sprintf("%s: %q is not a number", origin, text)}
		}
		value = f
	case []string:
		list, err := splitList(text)
		if err != nil {
			return &Error{Key: k.Name, Msg: fmt.Sprintf("%s: %v", origin, err)}
		}
		value = list
	default:
		return &Error{Key: k.Name, Msg: fmt.Sprintf("unsupported key type %T", k.Default)}
	}
	v.Set(k.Name, value)
	return nil
}

// splitList splits a comma-separated flag or environment value into its
// elements, spaces around each trimmed. A blank value is the empty list;
// an empty element ("0,,1", "0,1,") is an error rather than skipped, as
// it is most likely a value lost in a script.
func splitList(text string) ([]string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	out := strings.Split(text, ",")
	for i, part := range out {
		if out[i] = strings.TrimSpace(part); out[i] == "" {
			return nil, emptyElement(strconv.Quote(text), i)
		}
	}
	return out, nil
}

// emptyElement is the error for the empty element i (0-based) of a list;
// written is the list as given.
func emptyElement(written string, i int) error {
	return fmt.Errorf("%s: element %d is empty", written, i+1)
}

func defaultText(d any) any {
	if list, ok := d.([]string); ok {
		return strings.Join(list, ",")
	}
	return d
}
