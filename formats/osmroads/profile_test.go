package osmroads

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func mustBuiltin(t testing.TB, name string) *Profile {
	t.Helper()
	p, err := Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// builtinYAML is the embedded text of a built-in profile.
func builtinYAML(t testing.TB, name string) string {
	t.Helper()
	raw, err := builtinFiles.ReadFile("profiles/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// writeProfile writes text to a file in a fresh folder and returns its path.
func writeProfile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// edit replaces old, which must occur exactly once, by new.
func edit(t *testing.T, text, old, new string) string {
	t.Helper()
	if n := strings.Count(text, old); n != 1 {
		t.Fatalf("%q occurs %d times in the profile; want once", old, n)
	}
	return strings.Replace(text, old, new, 1)
}

func TestBuiltins(t *testing.T) {
	if got, want := BuiltinNames(), []string{"car", "foot"}; !slices.Equal(got, want) {
		t.Fatalf("BuiltinNames() = %v; want %v", got, want)
	}
	for _, name := range BuiltinNames() {
		p := mustBuiltin(t, name)
		if p.Name() != name {
			t.Errorf("Builtin(%q).Name() = %q", name, p.Name())
		}
		if !strings.HasPrefix(p.Digest(), "sha256:") || len(p.Digest()) != len("sha256:")+64 {
			t.Errorf("Builtin(%q).Digest() = %q; want sha256:<64 hex digits>", name, p.Digest())
		}
	}
	if _, err := Builtin("bicycle"); err == nil || !strings.Contains(err.Error(), "car, foot") {
		t.Errorf("Builtin(bicycle) error = %v; want one naming the built-in profiles", err)
	}
}

func TestResolveProfile(t *testing.T) {
	car := mustBuiltin(t, "car")
	for _, in := range []string{"", "car"} {
		p, err := ResolveProfile(in)
		if err != nil || p != car {
			t.Errorf("ResolveProfile(%q) = %v, %v; want the car profile", in, p, err)
		}
	}
	if p, err := ResolveProfile("foot"); err != nil || p.Name() != "foot" {
		t.Errorf("ResolveProfile(foot) = %v, %v", p, err)
	}
	path := writeProfile(t, "slow-car.yaml", edit(t, builtinYAML(t, "car"), "name: car\n", ""))
	p, err := ResolveProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "slow-car" {
		t.Errorf("a profile file without a name is named %q; want its base name slow-car", p.Name())
	}
	if _, err := ResolveProfile("bicycle"); err == nil || !strings.Contains(err.Error(), "neither a built-in profile") {
		t.Errorf("ResolveProfile(bicycle) error = %v; want one saying it is neither built in nor a file", err)
	}
	if _, err := ResolveProfile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("ResolveProfile(missing file) error = %v; want one naming the file", err)
	}
}

// TestEditedProfile copies the built-in car profile, edits two speeds as a
// user would, and checks that exactly those change.
func TestEditedProfile(t *testing.T) {
	text := builtinYAML(t, "car")
	text = edit(t, text, "name: car", "name: my-car")
	text = edit(t, text, "  residential: 25\n", "  residential: 30\n")
	text = edit(t, text, "  motorway: 90\n", "  motorway: 110\n")
	text = edit(t, text, "max_kmh: 0", "max_kmh: 100")
	p, err := ReadProfile(writeProfile(t, "my-car.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "my-car" {
		t.Errorf("Name() = %q; want my-car", p.Name())
	}
	checkWays(t, p, []wayCase{
		{"edited residential", []string{"highway=residential"}, 30, 30},
		{"edited motorway, capped", []string{"highway=motorway"}, 100, 0},
		{"maxspeed capped", []string{"highway=primary", "maxspeed=80 mph"}, 100, 100},
		{"maxspeed=none capped", []string{"highway=trunk", "maxspeed=none"}, 100, 100},
		{"unedited primary", []string{"highway=primary"}, 65, 65},
	})
	if p.Digest() == mustBuiltin(t, "car").Digest() {
		t.Error("an edited profile has the built-in profile's digest")
	}
}

func TestDigest(t *testing.T) {
	car := builtinYAML(t, "car")
	digest := func(text string) string {
		t.Helper()
		p, err := parseProfile("test.yaml", "test", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return p.Digest()
	}
	base := digest(car)
	if again := digest(car); again != base {
		t.Fatalf("two loads of one profile give digests %s and %s", base, again)
	}
	if base != mustBuiltin(t, "car").Digest() {
		t.Error("the built-in car profile's digest differs from a load of its file")
	}
	if base == mustBuiltin(t, "foot").Digest() {
		t.Error("car and foot have one digest")
	}
	same := map[string]string{
		"renamed":           edit(t, car, "name: car", "name: other"),
		"comments stripped": stripComments(car),
		"flow list as block list and allowed values reordered": edit(t, car,
			"access_allowed: [yes, permissive, designated, destination, customers, official, discouraged]",
			"access_allowed:\n  - discouraged\n  - official\n  - customers\n  - destination\n  - designated\n  - permissive\n  - yes"),
		"speed written as a float": edit(t, car, "  residential: 25\n", "  residential: 25.0\n"),
		"keys moved":               edit(t, car, "use_maxspeed: true\n", "") + "use_maxspeed: true\n",
	}
	for what, text := range same {
		if got := digest(text); got != base {
			t.Errorf("%s: digest %s; want the unchanged %s", what, got, base)
		}
	}
	different := map[string]string{
		"a speed":          edit(t, car, "  residential: 25\n", "  residential: 26\n"),
		"a class added":    edit(t, car, "  track: 8\n", "  track: 8\n  path: 5\n"),
		"access key order": edit(t, car, "[motorcar, motor_vehicle, vehicle, access]", "[motor_vehicle, motorcar, vehicle, access]"),
		"an allowed value": edit(t, car, "official, discouraged]", "official]"),
		"a denied value":   edit(t, car, "permit, military]", "permit]"),
		"an excluded tag":  edit(t, car, "  area: [yes]\n", "  area: [yes]\n  motorroad: [yes]\n"),
		"implied oneways":  edit(t, car, "[motorway, motorway_link]", "[motorway]"),
		"roundabouts":      edit(t, car, "roundabouts_oneway: true", "roundabouts_oneway: false"),
		"maxspeed none":    edit(t, car, "maxspeed_none_kmh: 130", "maxspeed_none_kmh: 120"),
		"maxspeed walk":    edit(t, car, "maxspeed_walk_kmh: 5", "maxspeed_walk_kmh: 6"),
		"cap":              edit(t, car, "max_kmh: 0", "max_kmh: 120"),
		"a barrier":        edit(t, car, "  - wall\n", ""),
		"oneway keys":      edit(t, car, "oneway_keys: [oneway]", "oneway_keys: [oneway, \"oneway:motorcar\"]"),
	}
	seen := map[string]string{base: "the car profile"}
	for what, text := range different {
		got := digest(text)
		if other, ok := seen[got]; ok {
			t.Errorf("changing %s gives the digest of %s", what, other)
		}
		seen[got] = what
	}
}

// stripComments drops every comment line and trailing comment of a
// profile's text (none of the profiles has a # inside a value).
func stripComments(text string) string {
	var out []string
	for line := range strings.Lines(text) {
		line, _, _ = strings.Cut(strings.TrimRight(line, "\n"), "#")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

func TestReadProfileErrors(t *testing.T) {
	car := builtinYAML(t, "car")
	lineOf := func(text, prefix string) string {
		for i, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, prefix) {
				return ":" + strconv.Itoa(i+1) + ": "
			}
		}
		t.Fatalf("no line starts with %q", prefix)
		return ""
	}
	unknown := edit(t, car, "use_maxspeed: true\n", "use_maxspeed: true\nuse_maxspeeds: true\n")
	typo := edit(t, car, "  residential: 25\n", "  residential: fast\n")
	cases := []struct {
		name, text string
		want       []string
	}{
		{"unknown key", unknown, []string{lineOf(unknown, "use_maxspeeds:"), `unknown key "use_maxspeeds"`}},
		{"missing key", edit(t, car, "roundabouts_oneway: true\n", ""), []string{`required key "roundabouts_oneway" is missing`}},
		{"key twice", car + "max_kmh: 100\n", []string{":" + strconv.Itoa(strings.Count(car, "\n")+1) + ": ", "max_kmh", "already defined"}},
		{"wrong type", typo, []string{lineOf(typo, "  residential: fast"), "cannot unmarshal", "fast"}},
		{"zero speed", edit(t, car, "  residential: 25\n", "  residential: 0\n"), []string{lineOf(car, "speeds_kmh:"), "residential: 0 is not a speed"}},
		{"negative speed", edit(t, car, "  track: 8\n", "  track: -8\n"), []string{"track: -8 is not a speed"}},
		{"no classes", edit(t, stripComments(car), "speeds_kmh:\n", "speeds_kmh: {}\nignored:\n"), []string{`unknown key "ignored"`}},
		{"empty table", "speeds_kmh: {}\naccess_keys: []\naccess_allowed: []\naccess_denied: []\noneway_keys: []\nimplied_oneway_classes: []\nroundabouts_oneway: false\nuse_maxspeed: false\nblocking_barriers: []\n", []string{"speeds_kmh: no highway class"}},
		{"allowed and denied", edit(t, car, "official, discouraged]", "official, discouraged, private]"), []string{`"private" is both allowed and denied`}},
		{"listed twice", edit(t, car, "  - wall\n", "  - wall\n  - wall\n"), []string{"blocking_barriers", `"wall" is listed twice`}},
		{"implied class not a class", edit(t, car, "[motorway, motorway_link]", "[motorway, highway]"), []string{`"highway" is not a class of speeds_kmh`}},
		{"maxspeed none missing", edit(t, car, "maxspeed_none_kmh: 130\n", ""), []string{"maxspeed_none_kmh", "required when use_maxspeed is true"}},
		{"maxspeed walk without maxspeed", edit(t, car, "use_maxspeed: true", "use_maxspeed: false"), []string{"maxspeed_none_kmh: has no effect"}},
		{"negative cap", edit(t, car, "max_kmh: 0", "max_kmh: -1"), []string{"max_kmh: -1 is not a speed"}},
		{"excluded tag without values", edit(t, car, "  area: [yes]\n", "  area: []\n"), []string{"excluded_tags: area: no values"}},
		{"two documents", car + "---\nname: other\n", []string{"a second YAML document"}},
		{"not a mapping", "- car\n", []string{"a YAML mapping"}},
		{"syntax", "speeds_kmh: [\n", []string{"osmroads: "}},
		{"empty", "", []string{"the file is empty"}},
	}
	for _, c := range cases {
		_, err := ReadProfile(writeProfile(t, "bad.yaml", c.text))
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, want := range append(c.want, "bad.yaml") {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, want)
			}
		}
	}
}

// TestExcludedAnyValue checks "*", which excludes a key whatever its value.
func TestExcludedAnyValue(t *testing.T) {
	text := edit(t, builtinYAML(t, "car"), "  area: [yes]\n", "  area: [yes]\n  toll: [\"*\"]\n")
	p, err := ReadProfile(writeProfile(t, "no-toll.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	checkWays(t, p, []wayCase{
		{"toll=yes", []string{"highway=primary", "toll=yes"}, 0, 0},
		{"toll=no", []string{"highway=primary", "toll=no"}, 0, 0},
		{"no toll tag", []string{"highway=primary"}, 65, 65},
	})
}

// TestDocumentedSpeeds checks the speed table of docs/openstreetmap.md
// against the built-in profiles, both ways: every class of a profile is
// documented with its speed, and every documented speed is the profile's.
func TestDocumentedSpeeds(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "openstreetmap.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "### Speeds by highway class\n")
	if !ok {
		t.Fatal("docs/openstreetmap.md has no section \"Speeds by highway class\"")
	}
	profiles := []*Profile{mustBuiltin(t, "car"), mustBuiltin(t, "foot")}
	documented := []map[string]float64{{}, {}}
	inTable := false
	for line := range strings.Lines(section) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("table row %q: want 3 cells", line)
		}
		class := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if class == "highway" || strings.HasPrefix(class, "---") {
			continue
		}
		for i, cell := range cells[1:] {
			cell = strings.TrimSpace(cell)
			if cell == "-" {
				continue
			}
			kmh, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatalf("table row %q: %v", line, err)
			}
			documented[i][class] = kmh
		}
	}
	for i, p := range profiles {
		for class, kmh := range p.speeds {
			if doc, ok := documented[i][class]; !ok || doc != kmh {
				t.Errorf("%s: %s is %v km/h; the docs say %v (documented: %v)", p.Name(), class, kmh, doc, ok)
			}
		}
		for class := range documented[i] {
			if _, ok := p.speeds[class]; !ok {
				t.Errorf("%s: the docs give a speed for %s, which the profile does not route", p.Name(), class)
			}
		}
	}
}
