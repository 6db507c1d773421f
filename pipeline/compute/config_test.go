package compute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestReferenceConfigListsEveryKey keeps configs/reference.yaml complete:
// it loads without unknown keys and names every key the commands read.
func TestReferenceConfigListsEveryKey(t *testing.T) {
	if _, err := config.Load("compute", Keys(), []string{"-config=../../configs/reference.yaml"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../../configs/reference.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := viper.New()
	file.SetConfigType("yaml")
	if err := file.ReadConfig(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	for _, k := range append(Keys(), ingest.Keys()...) {
		if !file.IsSet(k.Name) {
			t.Errorf("configs/reference.yaml does not document %s", k.Name)
		}
	}
}

// TestShippedConfigs loads every config in configs/ as compute does and
// checks the values each one is there to show.
func TestShippedConfigs(t *testing.T) {
	files, err := filepath.Glob("../../configs/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]func(c *Config) bool{
		"demo.yaml": func(c *Config) bool {
			return c.Input.Generate == "grid:side=64,lo=1,hi=1000,seed=1" && slices.Equal(c.Sources, []string{"0-3"}) &&
				slices.Equal(c.Pairs, []string{"0:4095"}) && c.Summary && c.OutDir == filepath.Join("..", "..", "out", "demo") && c.OutFormat == tables.Parquet
		},
		"nyc.yaml": func(c *Config) bool {
			return c.Input.Dataset == "NY" && slices.Equal(c.Sources, []string{"1"}) && c.OriginalIDs &&
				c.Parents && c.SkipIfSame && c.OutDir == filepath.Join("..", "..", "out", "nyc")
		},
		"rome99.yaml": func(c *Config) bool {
			return strings.HasSuffix(c.Input.Path, "rome99.gr") && len(c.Sources) == 1 && c.OutDir == filepath.Join("..", "..", "out", "rome99")
		},
		"delaware-osm.yaml": func(c *Config) bool {
			return c.Input.Dataset == "delaware-osm" && c.Input.OSM == input.OSMSpec{Profile: "car", Weight: "time", Components: input.ComponentsLargest} &&
				c.OriginalIDs && len(c.Sources) == 10 && len(c.Targets) == 10 && c.OutDir == filepath.Join("..", "..", "out", "delaware-osm")
		},
		"delaware-places.yaml": func(c *Config) bool {
			return c.Input.Dataset == "delaware-osm" && c.Places.Origins == c.Places.Destinations && filepath.Base(c.Places.Origins) == "delaware-towns.csv" &&
				c.Places.SnapMaxMetres == 1000 && c.OutDir == filepath.Join("..", "..", "out", "delaware-places")
		},
		"gnutella04-apsp.yaml": func(c *Config) bool {
			return c.Input.Weighting == "hash" && c.allSources() && c.Algorithm == backend.AlgorithmAuto
		},
		"reference.yaml": func(c *Config) bool {
			return c.Algorithm == backend.AlgorithmAuto && !c.OriginalIDs && c.Layout == resultfiles.Long && c.PartRows == tables.DefaultPartRows &&
				c.BatchRows == tables.DefaultBatchRows && c.Compression == tables.DefaultCompression(c.OutFormat) && c.CompressionLevel == tables.DefaultZstdLevel
		},
	}
	if len(files) != len(want) {
		t.Errorf("configs/ holds %v; the test knows %d configs", files, len(want))
	}
	for _, f := range files {
		check, ok := want[filepath.Base(f)]
		if !ok {
			t.Errorf("%s: no expected values", f)
			continue
		}
		l, err := config.Read("compute", Keys(), config.Source{Args: []string{"-config=" + f}})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if filepath.Base(f) == "reference.yaml" {
			l.V.Set(input.KeyInputPath, "x.gr") // it names no input
		}
		cfg, err := ConfigFrom(l)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !check(cfg) {
			t.Errorf("%s: unexpected values %+v", f, cfg)
		}
	}
}

// TestShippedConfigsFromAnotherFolder loads every shipped config from a
// working directory outside the checkout, as cron runs a job from $HOME:
// their outputs still go to out/ in the checkout and their inputs are
// still read from the shared datasets beside it.
func TestShippedConfigsFromAnotherFolder(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "configs", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("configs: %v %v", files, err)
	}
	t.Chdir(t.TempDir())
	for _, f := range files {
		name := filepath.Base(f)
		l, err := config.Read("compute", Keys(), config.Source{Args: []string{"-config=" + f}})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name == "reference.yaml" {
			continue // it names no input and no output folder
		}
		cfg, err := ConfigFrom(l)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if filepath.Dir(cfg.OutDir) != filepath.Join(root, "out") {
			t.Errorf("%s: output folder %s, want one in %s", name, cfg.OutDir, filepath.Join(root, "out"))
		}
		if cfg.Input.Path == "" {
			continue
		}
		shared := filepath.Join(filepath.Dir(root), "shared", "datasets")
		if filepath.Dir(cfg.Input.Path) != shared {
			t.Errorf("%s: input %s, want one in %s", name, cfg.Input.Path, shared)
		}
		if _, err := os.Stat(shared); err == nil {
			if _, err := os.Stat(cfg.Input.Path); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// TestMissingInputNamesTheKeyAndPath: a file the configuration names and
// that is not there is an input error naming the key and where the run
// looked.
func TestMissingInputNamesTheKeyAndPath(t *testing.T) {
	dir := t.TempDir()
	good := stagetest.WriteFile(t, "g.gr", "p sp 2 1\na 1 2 3\n")
	for _, tc := range []struct {
		key  string
		args []string
	}{
		{input.KeyInputPath, []string{"-input", "none.gr"}},
		{input.KeyInputCoordinates, []string{"-input", good, "-coordinates", "none.co"}},
		{KeyPairList, []string{"-input", good, "-pairs", "none.csv"}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			t.Chdir(dir)
			cfg := loadCompute(t, "", append(tc.args, "-out", filepath.Join(t.TempDir(), "out"))...)
			_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
			missing := tc.args[len(tc.args)-1]
			want := fmt.Sprintf("%s: %s (%s): ", tc.key, missing, filepath.Join(dir, missing))
			if stageerr.KindOf(err) != stageerr.Input || err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v (kind %v), want kind %v saying %q", err, stageerr.KindOf(err), stageerr.Input, want)
			}
		})
	}
}

// TestReferenceConfigHoldsTheDefaults checks that every value written in
// configs/reference.yaml is the key's default.
func TestReferenceConfigHoldsTheDefaults(t *testing.T) {
	l, err := config.Read("compute", Keys(), config.Source{Args: []string{"-config=../../configs/reference.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		got, want := fmt.Sprint(l.V.Get(k.Name)), fmt.Sprint(k.Default)
		if got != want {
			t.Errorf("configs/reference.yaml sets %s to %s; its default is %s", k.Name, got, want)
		}
	}
}

func TestVertexNames(t *testing.T) {
	sparse := input.NewVertexIDs(5, &graph.Vertices{OriginalID: []int64{10, 20, 35, 36, 40}})
	shuffled := input.NewVertexIDs(3, &graph.Vertices{OriginalID: []int64{7, 3, 9}})
	for _, tc := range []struct {
		name  string
		names VertexNames
		items []string
		want  []int32
		err   string // a part of the error; "" for none
	}{
		{"dense ids and ranges in the order given", DenseNames(5), []string{"3", "0-2", "4"}, []int32{3, 0, 1, 2, 4}, ""},
		{"an id named twice", DenseNames(5), []string{"3", "1", "3"}, nil, `source 3 is named by item 1 ("3") and again by item 3 ("3")`},
		{"an id inside a range", DenseNames(5), []string{"0-2", "3", "2"}, nil, `source 2 is named by item 1 ("0-2") and again by item 3 ("2")`},
		{"overlapping ranges", DenseNames(5), []string{"0-2", "2-4"}, nil, `source 2 is named by item 1 ("0-2") and again by item 2 ("2-4")`},
		{"all and an id", DenseNames(5), []string{"all", "4"}, nil, `source 4 is named by item 1 ("all") and again by item 2 ("4")`},
		{"a repeat in the original ids", VertexNames{IDs: sparse, Original: true}, []string{"35", "20-36"}, nil, `source 35 is named by item 1 ("35") and again by item 2 ("20-36")`},
		{"plus sign", DenseNames(5), []string{"+3"}, nil, `"+3" is not a vertex id`},
		{"plus sign in a range", DenseNames(5), []string{"1-+3"}, nil, `"1-+3" is not a range`},
		{"space inside", DenseNames(5), []string{"1 2"}, nil, "not a vertex id"},
		{"empty item", DenseNames(5), []string{"1", ""}, nil, `"" is not a vertex id`},
		{"dense id out of range", DenseNames(5), []string{"5"}, nil, "source 5 is outside 0..4"},
		{"negative", DenseNames(5), []string{"-1"}, nil, "not a vertex id"},
		{"reversed range", DenseNames(5), []string{"2-1"}, nil, "lo <= hi"},
		{"not a number", DenseNames(5), []string{"x"}, nil, "not a vertex id"},
		{"empty", DenseNames(5), []string{}, nil, "at least one"},
		{"original ids", VertexNames{IDs: sparse, Original: true}, []string{"35", "10"}, []int32{2, 0}, ""},
		{"original range", VertexNames{IDs: sparse, Original: true}, []string{"20-36"}, []int32{1, 2, 3}, ""},
		{"unknown original id", VertexNames{IDs: sparse, Original: true}, []string{"21"}, nil, "source 21: no vertex has that original id"},
		{"range to an unknown id", VertexNames{IDs: sparse, Original: true}, []string{"10-37"}, nil, "source 37: no vertex"},
		{"original all", VertexNames{IDs: sparse, Original: true}, []string{"all"}, []int32{0, 1, 2, 3, 4}, ""},
		{"shuffled ids", VertexNames{IDs: shuffled, Original: true}, []string{"9", "7"}, []int32{2, 0}, ""},
		{"shuffled range", VertexNames{IDs: shuffled, Original: true}, []string{"3-9"}, nil, "not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.names.Sources(KeySources, tc.items)
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), KeySources)):
				t.Fatalf("err = %v, want one naming %s and saying %q", err, KeySources, tc.err)
			case !slices.Equal(got, tc.want):
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestVertexNamesPairsAndTargets(t *testing.T) {
	names := VertexNames{IDs: input.NewVertexIDs(4, &graph.Vertices{OriginalID: []int64{1, 2, 3, 4}}), Original: true}
	pairs, err := names.Pairs(KeyPaths, []string{"1:4", " 3 : 2 "})
	if err != nil || !slices.Equal(pairs, [][2]int32{{0, 3}, {2, 1}}) {
		t.Errorf("pairs %v, %v", pairs, err)
	}
	if _, err := names.Pairs(KeyPaths, []string{"1:5"}); err == nil || !strings.Contains(err.Error(), "pair 1:5: target 5") {
		t.Errorf("unknown target: err = %v", err)
	}
	for _, bad := range []string{"1", "1:", ":2", "1:2:3", "1->2", "a:b", "1-2:3"} {
		if _, err := DenseNames(4).Pairs(KeyPaths, []string{bad}); err == nil || !strings.Contains(err.Error(), KeyPaths) {
			t.Errorf("malformed pair %q: err = %v", bad, err)
		}
	}
	// The old form is still read as a pair, and listed for a warning.
	pairs, err = names.Pairs(KeyPaths, []string{"1-4", "3:2"})
	if err != nil || !slices.Equal(pairs, [][2]int32{{0, 3}, {2, 1}}) {
		t.Errorf("old-form pairs %v, %v", pairs, err)
	}
	if old := LegacyPairs([]string{"1-4", "3:2", "x"}); !slices.Equal(old, []string{"1-4"}) {
		t.Errorf("LegacyPairs = %q, want [1-4]", old)
	}
	for _, bad := range []string{"+1:2", "1:+2", "+1-2"} {
		if _, err := DenseNames(4).Pairs(KeyPaths, []string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("signed pair %q: err = %v", bad, err)
		}
	}
	targets, err := DenseNames(6).Targets(KeyTargets, []string{"5", "0-1"})
	if err != nil || !slices.Equal(targets, []int32{5, 0, 1}) {
		t.Errorf("targets %v, %v; want [5 0 1]", targets, err)
	}
	if _, err := DenseNames(6).Targets(KeyTargets, []string{"5", "5"}); err == nil ||
		!strings.Contains(err.Error(), KeyTargets) || !strings.Contains(err.Error(), `target 5 is named by item 1 ("5") and again by item 2 ("5")`) {
		t.Errorf("a target named twice: err = %v", err)
	}
	if all, err := names.Targets(KeyTargets, []string{"all"}); all != nil || err != nil {
		t.Errorf("all targets: %v, %v; want nil", all, err)
	}
	if got := names.IDs.Describe(2); got != "vertex 3 (dense id 2)" {
		t.Errorf("Describe(2) = %q", got)
	}
}

func TestGeneratorSpecs(t *testing.T) {
	g, err := input.Generate("grid:side=8,lo=2,hi=2")
	if err != nil {
		t.Fatal(err)
	}
	if g.Edges.N != 64 || g.Edges.M() != 4*8*7 || g.Name != "grid:hi=2,lo=2,seed=1,side=8" {
		t.Errorf("grid: n=%d m=%d name=%q", g.Edges.N, g.Edges.M(), g.Name)
	}
	road, err := input.Generate("road:side=16,seed=3")
	if err != nil {
		t.Fatal(err)
	}
	if road.Edges.N != 256 || road.Name != "road:seed=3,side=16" || road.Vertices == nil {
		t.Errorf("road: n=%d name=%q coordinates %v", road.Edges.N, road.Name, road.Vertices != nil)
	}
	if arcs := float64(road.Edges.M()) / 256; arcs < 2 || arcs > 3.2 {
		t.Errorf("road: %.2f arcs per vertex, want about 2.5", arcs)
	}
	for _, bad := range []string{"torus:side=3", "grid:side=x", "grid:width=3", "grid:side=0", "road:side=0", "road:lo=1"} {
		if _, err := input.Generate(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// compute.block_size, from the file, a flag or the environment, is the
// tile edge of blocked all-pairs variants (backend.Algorithm.TileEdge).
func TestBlockSizeKeyIsTheTileEdge(t *testing.T) {
	for _, tc := range []struct {
		name      string
		yaml      string
		args, env []string
	}{
		{name: "file", yaml: "input:\n  generate: grid:side=4\ncompute:\n  block_size: 16\n"},
		{name: "flag", args: []string{"-generate", "grid:side=4", "-block-size", "16"}},
		{name: "environment", args: []string{"-generate", "grid:side=4"}, env: []string{"PATHFLOW_COMPUTE_BLOCK_SIZE=16"}},
	} {
		cfg, err := readComputeConfig(t, tc.yaml, tc.args, tc.env)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cfg.TileEdge != 16 {
			t.Errorf("%s: tile edge %d, want 16", tc.name, cfg.TileEdge)
		}
	}
}

// TestHierarchyThresholdsAreDocumented keeps the README and the reference
// config on the thresholds of ingest.hierarchy: auto.
func TestHierarchyThresholdsAreDocumented(t *testing.T) {
	for _, file := range []string{"../../README.md", "../../configs/reference.yaml"} {
		text := strings.ReplaceAll(proseLine(t, file), ",", "")
		for _, want := range []string{
			fmt.Sprintf("sample of %d vertices", ingest.AutoTrialVertices),
			fmt.Sprintf("at most %d settled vertices per vertex", ingest.AutoTrialMaxSettled),
			fmt.Sprintf("at most %g shortcuts per arc", ingest.AutoTrialMaxShortcutsPerArc),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not say %q", file, want)
			}
		}
	}
	usage := ingest.HierarchyKey("hierarchy").Usage
	if want := fmt.Sprintf("<= %d settled vertices per vertex", ingest.AutoTrialMaxSettled); !strings.Contains(usage, want) {
		t.Errorf("-hierarchy help %q does not say %q", usage, want)
	}
}

// proseLine returns the text of a README or commented config as one
// line: the YAML comments' markers dropped and every run of white space
// one space, so that a phrase matches however the file wraps it.
func proseLine(t *testing.T, path string) string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(string(text), "#", "")), " ")
}

// TestPathKeysAreDocumented keeps the README's and the reference config's
// list of keys whose relative paths follow the config file's folder in
// step with the keys marked config.Key.Path.
func TestPathKeysAreDocumented(t *testing.T) {
	var paths []string
	for _, k := range append(Keys(), ingest.Keys()...) {
		if k.Path && !slices.Contains(paths, k.Name) {
			paths = append(paths, k.Name)
		}
	}
	slices.Sort(paths)
	list := regexp.MustCompile(`Relative paths in a config file \(([^)]*)\)`)
	for _, file := range []string{"../../README.md", "../../configs/reference.yaml"} {
		text := proseLine(t, file)
		m := list.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s does not list the keys whose relative paths follow the config file", file)
			continue
		}
		var named []string
		for _, name := range strings.Split(m[1], ",") {
			named = append(named, strings.Trim(strings.TrimSpace(name), "`"))
		}
		slices.Sort(named)
		if !slices.Equal(named, paths) {
			t.Errorf("%s lists %v; the path keys are %v", file, named, paths)
		}
	}
}

// TestVertexListSyntaxNeedsNoGraph: an item of compute.sources or
// compute.targets that is no id, range or all is a configuration error
// when the configuration is read, before any input would be loaded (the
// input here does not exist, so reaching the load would fail otherwise).
func TestVertexListSyntaxNeedsNoGraph(t *testing.T) {
	for _, tc := range []struct {
		args []string
		key  string
	}{
		{[]string{"-sources", "+3"}, KeySources},
		{[]string{"-sources", "0,1-x"}, KeySources},
		{[]string{"-targets", "5-2"}, KeyTargets},
		{[]string{"-targets", "all,-1"}, KeyTargets},
	} {
		l, err := config.Load("compute", Keys(), append([]string{"-input", "/nonexistent/graph.gr"}, tc.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ConfigFrom(l)
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Key != tc.key {
			t.Errorf("%v: %v, want a configuration error of %s", tc.args, err, tc.key)
		}
	}
}
