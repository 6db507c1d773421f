package osmroads

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// The built-in profiles are these files, embedded as they are: users copy
// one, edit it and pass its path, so the copy starts from exactly what the
// built-in profile does.
//
//go:embed profiles/*.yaml
var builtinFiles embed.FS

// DefaultProfile is the profile an empty name resolves to.
const DefaultProfile = "car"

// digestFormat names the meaning of the rules the digest covers. A change
// to how a profile's keys are applied to tags (not to a profile's values)
// must change it, so that a manifest's digest never names two behaviours.
const digestFormat = "pathflow-osmroads-profile/1"

// maxTagKeys bounds the distinct tag keys one profile reads from a way:
// Way keeps their values in a fixed array on the stack, so that it does not
// allocate. Each access key counts three times (plain, :forward and
// :backward); the fixed keys (junction and the three maxspeed keys) count
// too.
const maxTagKeys = 64

// Profile is a routing profile: which OpenStreetMap ways a mode of
// transport may use, in which directions and at what speed, and which
// barriers stop it. It is immutable once loaded and safe for concurrent use.
// docs/openstreetmap.md documents the rules and the YAML keys.
type Profile struct {
	name   string
	digest string

	// speeds is the km/h of each routable highway class.
	speeds map[string]float64
	// slots numbers every tag key Way reads; Way copies their values into
	// an array indexed by these numbers in one pass over a way's tags.
	slots map[string]uint8
	// keyFilter has bit len(k)%64 of entry k[0] set for every key k of
	// slots: most keys of a way (name, tiger:*, surface, lanes) fail it,
	// which is cheaper than hashing them for a map lookup.
	keyFilter [256]uint64

	// accessKeys are the access keys, most specific first.
	accessKeys []accessKey
	// verdicts tells, for an access value, whether it allows or denies;
	// a value not listed decides nothing.
	verdicts map[string]verdict

	excluded          []excludedTag
	onewaySlots       []uint8
	impliedOneway     map[string]bool
	roundaboutsOneway bool
	junctionSlot      uint8

	useMaxspeed                                             bool
	maxspeedSlot, maxspeedForwardSlot, maxspeedBackwardSlot uint8
	maxspeedNoneKMH, maxspeedWalkKMH, maxKMH                float64

	blocking map[string]bool
}

// accessKey is one access key with the slots of its plain and directional
// forms (directed[forward] is "KEY:forward", directed[backward]
// "KEY:backward").
type accessKey struct {
	name     string
	plain    uint8
	directed [2]uint8
}

// excludedTag makes a way with the tag at slot, holding one of values (or
// any value when anyValue), not routable.
type excludedTag struct {
	slot     uint8
	anyValue bool
	values   map[string]bool
}

// verdict is what an access value says; the zero value decides nothing.
type verdict uint8

const (
	undecided verdict = iota
	allowed
	denied
)

// profileFile is the YAML form of a profile. docs/openstreetmap.md
// documents every key.
type profileFile struct {
	Name                 string              `yaml:"name" json:"-"`
	SpeedsKMH            map[string]float64  `yaml:"speeds_kmh" json:"speeds_kmh"`
	AccessKeys           []string            `yaml:"access_keys" json:"access_keys"`
	AccessAllowed        []string            `yaml:"access_allowed" json:"access_allowed"`
	AccessDenied         []string            `yaml:"access_denied" json:"access_denied"`
	ExcludedTags         map[string][]string `yaml:"excluded_tags" json:"excluded_tags"`
	OnewayKeys           []string            `yaml:"oneway_keys" json:"oneway_keys"`
	ImpliedOnewayClasses []string            `yaml:"implied_oneway_classes" json:"implied_oneway_classes"`
	RoundaboutsOneway    bool                `yaml:"roundabouts_oneway" json:"roundabouts_oneway"`
	UseMaxspeed          bool                `yaml:"use_maxspeed" json:"use_maxspeed"`
	MaxspeedNoneKMH      float64             `yaml:"maxspeed_none_kmh" json:"maxspeed_none_kmh"`
	MaxspeedWalkKMH      float64             `yaml:"maxspeed_walk_kmh" json:"maxspeed_walk_kmh"`
	MaxKMH               float64             `yaml:"max_kmh" json:"max_kmh"`
	BlockingBarriers     []string            `yaml:"blocking_barriers" json:"blocking_barriers"`
}

// requiredKeys must be in every profile file: a profile is always a whole
// copy of one, so a key left out is a mistake, not a wish for a default.
var requiredKeys = []string{
	"speeds_kmh", "access_keys", "access_allowed", "access_denied",
	"oneway_keys", "implied_oneway_classes", "roundabouts_oneway",
	"use_maxspeed", "blocking_barriers",
}

// optionalKeys may be left out: name (the file's base name then),
// excluded_tags (nothing excluded), max_kmh (no cap) and the two maxspeed
// speeds (required when use_maxspeed is true).
var optionalKeys = []string{
	"name", "excluded_tags", "max_kmh", "maxspeed_none_kmh", "maxspeed_walk_kmh",
}

// ProfileError is a problem in a profile file. Its text is
// "osmroads: FILE:LINE: MSG", LINE left out when the problem belongs to the
// whole file.
type ProfileError struct {
	// File is the profile's path (or "builtin:NAME").
	File string
	// Line is the 1-based line of the key at fault, 0 for none.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error implements error.
func (e *ProfileError) Error() string {
	if e.Line > 0 {
		return "osmroads: " + e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
	}
	return "osmroads: " + e.File + ": " + e.Msg
}

// Name returns the profile's name: its name key, or the base name of its
// file without the extension.
func (p *Profile) Name() string { return p.name }

// Digest returns "sha256:HEX" of a canonical encoding of everything in the
// profile that changes the graph: the same rules give the same digest
// whatever the file's layout, key order, comments or name, and any change
// to a speed, key or value list gives another one. Manifests record it.
func (p *Profile) Digest() string { return p.digest }

var builtins = sync.OnceValues(loadBuiltins)

// loadBuiltins parses every embedded profile once.
func loadBuiltins() (map[string]*Profile, error) {
	entries, err := fs.ReadDir(builtinFiles, "profiles")
	if err != nil {
		return nil, fmt.Errorf("osmroads: built-in profiles: %w", err)
	}
	out := make(map[string]*Profile, len(entries))
	for _, e := range entries {
		raw, err := builtinFiles.ReadFile(path.Join("profiles", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("osmroads: built-in profiles: %w", err)
		}
		name := strings.TrimSuffix(e.Name(), ".yaml")
		p, err := parseProfile("builtin:"+name, name, raw)
		if err != nil {
			return nil, err
		}
		out[name] = p
	}
	return out, nil
}

// BuiltinNames returns the names of the built-in profiles, sorted.
func BuiltinNames() []string {
	all, _ := builtins()
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Builtin returns the built-in profile of that name ("car", "foot"). The
// same *Profile is returned on every call; profiles are immutable.
func Builtin(name string) (*Profile, error) {
	all, err := builtins()
	if err != nil {
		return nil, err
	}
	p, ok := all[name]
	if !ok {
		return nil, fmt.Errorf("osmroads: no built-in profile %q: want one of %s", name, strings.Join(BuiltinNames(), ", "))
	}
	return p, nil
}

// ReadProfile reads a profile from a YAML file. It is strict: an unknown
// key, a required key left out, a key given twice, a value of the wrong
// type or out of range is an error naming the file, line and key.
func ReadProfile(file string) (*Profile, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("osmroads: profile: %w", err)
	}
	base := filepath.Base(file)
	return parseProfile(file, strings.TrimSuffix(base, filepath.Ext(base)), raw)
}

// ResolveProfile returns the built-in profile nameOrPath names, or else
// reads the file at that path; "" means the car profile. A name with no
// path separator and no file of that name is reported as an unknown
// built-in profile, the likelier mistake.
func ResolveProfile(nameOrPath string) (*Profile, error) {
	if nameOrPath == "" {
		nameOrPath = DefaultProfile
	}
	if slices.Contains(BuiltinNames(), nameOrPath) {
		return Builtin(nameOrPath)
	}
	if _, err := os.Stat(nameOrPath); err != nil && !strings.ContainsAny(nameOrPath, `/\.`) {
		return nil, fmt.Errorf("osmroads: profile %q is neither a built-in profile (%s) nor a file", nameOrPath, strings.Join(BuiltinNames(), ", "))
	}
	return ReadProfile(nameOrPath)
}

// parseProfile decodes and checks a profile file; file names it in errors
// and defaultName is its name when it has no name key.
func parseProfile(file, defaultName string, raw []byte) (*Profile, error) {
	fail := func(line int, format string, args ...any) error {
		return &ProfileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, fail(0, "the file is empty")
		}
		msg := oneLine(strings.TrimPrefix(err.Error(), "yaml: "))
		if m := decodeErrorLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, fail(line, "%s", m[2])
		}
		return nil, fail(0, "%s", msg)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fail(0, "a profile is a YAML mapping of keys (see docs/openstreetmap.md)")
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fail(extra.Line, "a second YAML document starts here; a profile file holds one")
	}
	top := doc.Content[0]
	lines := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		key := top.Content[i]
		if !slices.Contains(requiredKeys, key.Value) && !slices.Contains(optionalKeys, key.Value) {
			return nil, fail(key.Line, "unknown key %q (the keys are %s)", key.Value, strings.Join(append(slices.Clone(requiredKeys), optionalKeys...), ", "))
		}
		lines[key.Value] = key.Line
	}
	for _, k := range requiredKeys {
		if _, ok := lines[k]; !ok {
			return nil, fail(0, "required key %q is missing", k)
		}
	}
	var pf profileFile
	if err := top.Decode(&pf); err != nil {
		// "yaml: unmarshal errors:\n  line N: MSG": keep the first.
		msg := oneLine(strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n"))
		if m := decodeErrorLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, fail(line, "%s", m[2])
		}
		return nil, fail(0, "%s", msg)
	}
	if pf.Name == "" {
		pf.Name = defaultName
	}
	p, key, msg := compile(&pf)
	if msg != "" {
		return nil, fail(lines[key], "%s: %s", key, msg)
	}
	return p, nil
}

// compile checks a decoded profile and builds the Profile; on a problem it
// returns the top-level key at fault and what is wrong.
func compile(pf *profileFile) (p *Profile, key, msg string) {
	p = &Profile{
		name:              pf.Name,
		speeds:            map[string]float64{},
		slots:             map[string]uint8{},
		verdicts:          map[string]verdict{},
		impliedOneway:     map[string]bool{},
		roundaboutsOneway: pf.RoundaboutsOneway,
		useMaxspeed:       pf.UseMaxspeed,
		maxspeedNoneKMH:   pf.MaxspeedNoneKMH,
		maxspeedWalkKMH:   pf.MaxspeedWalkKMH,
		maxKMH:            pf.MaxKMH,
		blocking:          map[string]bool{},
	}
	if len(pf.SpeedsKMH) == 0 {
		return nil, "speeds_kmh", "no highway class is listed, so no way would be routable"
	}
	for class, kmh := range pf.SpeedsKMH {
		if !isSpeed(kmh) {
			return nil, "speeds_kmh", fmt.Sprintf("%s: %v is not a speed (want km/h above 0)", class, kmh)
		}
		if class == "" {
			return nil, "speeds_kmh", "an empty highway class"
		}
		p.speeds[class] = kmh
	}
	for _, k := range []struct {
		name string
		kmh  float64
	}{{"maxspeed_none_kmh", pf.MaxspeedNoneKMH}, {"maxspeed_walk_kmh", pf.MaxspeedWalkKMH}} {
		if pf.UseMaxspeed && !isSpeed(k.kmh) {
			return nil, k.name, fmt.Sprintf("%v is not a speed (want km/h above 0; required when use_maxspeed is true)", k.kmh)
		}
		if !pf.UseMaxspeed && k.kmh != 0 {
			return nil, k.name, "has no effect when use_maxspeed is false; leave it out"
		}
	}
	if pf.MaxKMH != 0 && !isSpeed(pf.MaxKMH) {
		return nil, "max_kmh", fmt.Sprintf("%v is not a speed (want km/h above 0, or 0 for no cap)", pf.MaxKMH)
	}

	if msg := nonEmptyDistinct(pf.AccessKeys); msg != "" {
		return nil, "access_keys", msg
	}
	for _, list := range []struct {
		key    string
		values []string
		v      verdict
	}{{"access_allowed", pf.AccessAllowed, allowed}, {"access_denied", pf.AccessDenied, denied}} {
		if msg := nonEmptyDistinct(list.values); msg != "" {
			return nil, list.key, msg
		}
		for _, value := range list.values {
			if p.verdicts[value] != undecided {
				return nil, list.key, fmt.Sprintf("%q is both allowed and denied", value)
			}
			p.verdicts[value] = list.v
		}
	}
	if msg := nonEmptyDistinct(pf.OnewayKeys); msg != "" {
		return nil, "oneway_keys", msg
	}
	if msg := nonEmptyDistinct(pf.ImpliedOnewayClasses); msg != "" {
		return nil, "implied_oneway_classes", msg
	}
	for _, class := range pf.ImpliedOnewayClasses {
		if _, ok := p.speeds[class]; !ok {
			return nil, "implied_oneway_classes", fmt.Sprintf("%q is not a class of speeds_kmh", class)
		}
		p.impliedOneway[class] = true
	}
	if msg := nonEmptyDistinct(pf.BlockingBarriers); msg != "" {
		return nil, "blocking_barriers", msg
	}
	for _, b := range pf.BlockingBarriers {
		p.blocking[b] = true
	}

	// Number the keys Way reads, each once however many roles it has.
	slot := func(k string) (uint8, bool) {
		if s, ok := p.slots[k]; ok {
			return s, true
		}
		if len(p.slots) == maxTagKeys {
			return 0, false
		}
		s := uint8(len(p.slots))
		p.slots[k] = s
		p.keyFilter[k[0]] |= 1 << (len(k) % 64)
		return s, true
	}
	tooMany := fmt.Sprintf("a profile reads at most %d distinct tag keys (each access key counts three times)", maxTagKeys)
	p.junctionSlot, _ = slot("junction")
	p.maxspeedSlot, _ = slot("maxspeed")
	p.maxspeedForwardSlot, _ = slot("maxspeed:forward")
	p.maxspeedBackwardSlot, _ = slot("maxspeed:backward")
	for _, k := range pf.AccessKeys {
		plain, ok1 := slot(k)
		fwd, ok2 := slot(k + ":forward")
		bwd, ok3 := slot(k + ":backward")
		if !ok1 || !ok2 || !ok3 {
			return nil, "access_keys", tooMany
		}
		p.accessKeys = append(p.accessKeys, accessKey{name: k, plain: plain, directed: [2]uint8{fwd, bwd}})
	}
	for _, k := range pf.OnewayKeys {
		s, ok := slot(k)
		if !ok {
			return nil, "oneway_keys", tooMany
		}
		p.onewaySlots = append(p.onewaySlots, s)
	}
	excludedKeys := make([]string, 0, len(pf.ExcludedTags))
	for k := range pf.ExcludedTags {
		excludedKeys = append(excludedKeys, k)
	}
	sort.Strings(excludedKeys)
	for _, k := range excludedKeys {
		values := pf.ExcludedTags[k]
		if k == "" {
			return nil, "excluded_tags", "an empty tag key"
		}
		if len(values) == 0 {
			return nil, "excluded_tags", fmt.Sprintf("%s: no values (list \"*\" to exclude any value)", k)
		}
		if msg := nonEmptyDistinct(values); msg != "" {
			return nil, "excluded_tags", k + ": " + msg
		}
		s, ok := slot(k)
		if !ok {
			return nil, "excluded_tags", tooMany
		}
		ex := excludedTag{slot: s, values: map[string]bool{}}
		for _, v := range values {
			if v == "*" {
				ex.anyValue = true
			}
			ex.values[v] = true
		}
		p.excluded = append(p.excluded, ex)
	}
	p.digest = digestOf(pf)
	return p, "", ""
}

// isSpeed tells whether kmh is a usable speed.
func isSpeed(kmh float64) bool {
	return kmh > 0 && !math.IsInf(kmh, 0) && !math.IsNaN(kmh)
}

// nonEmptyDistinct says what is wrong with a list of names: an empty name
// or one listed twice; "" when nothing is.
func nonEmptyDistinct(list []string) string {
	seen := map[string]bool{}
	for _, v := range list {
		if v == "" {
			return "an empty value in the list"
		}
		if seen[v] {
			return fmt.Sprintf("%q is listed twice", v)
		}
		seen[v] = true
	}
	return ""
}

// digestOf hashes the canonical encoding of a profile: JSON with sorted
// map keys, sets sorted, ordered lists (the access and oneway keys, where
// the first present decides) as given, and the name left out.
func digestOf(pf *profileFile) string {
	sorted := func(list []string) []string {
		out := slices.Clone(list)
		if out == nil {
			out = []string{}
		}
		sort.Strings(out)
		return out
	}
	excluded := map[string][]string{}
	for k, v := range pf.ExcludedTags {
		excluded[k] = sorted(v)
	}
	// The file's own fields in their order (yaml and json tags alike),
	// the name left out, behind the encoding's version.
	canonical := *pf
	canonical.AccessKeys = append([]string{}, pf.AccessKeys...)
	canonical.AccessAllowed, canonical.AccessDenied = sorted(pf.AccessAllowed), sorted(pf.AccessDenied)
	canonical.ExcludedTags = excluded
	canonical.OnewayKeys = append([]string{}, pf.OnewayKeys...)
	canonical.ImpliedOnewayClasses = sorted(pf.ImpliedOnewayClasses)
	canonical.BlockingBarriers = sorted(pf.BlockingBarriers)
	// Only strings, finite floats (checked by compile) and bools: the
	// encoding cannot fail.
	enc, _ := json.Marshal(struct {
		Format string `json:"format"`
		profileFile
	}{digestFormat, canonical})
	sum := sha256.Sum256(enc)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// decodeErrorLine splits yaml.v3's "line N: MSG" (the first of a list
// joined by "; ").
var decodeErrorLine = regexp.MustCompile(`^line (\d+): ([^;]*)`)

// oneLine joins a multi-line message into one.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
