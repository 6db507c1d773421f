package pipeline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/viper"

	"github.com/pathflow/pathflow/internal/config"
)

// TestReferenceConfigListsEveryKey keeps configs/reference.yaml complete:
// it loads without unknown keys and names every key the commands read.
func TestReferenceConfigListsEveryKey(t *testing.T) {
	if _, err := config.Load("compute", ComputeKeys(), []string{"-config=../configs/reference.yaml"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../configs/reference.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := viper.New()
	file.SetConfigType("yaml")
	if err := file.ReadConfig(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	for _, k := range append(ComputeKeys(), IngestKeys()...) {
		if !file.IsSet(k.Name) {
			t.Errorf("configs/reference.yaml does not document %s", k.Name)
		}
	}
}

// TestShippedConfigsValidate loads every config in configs/ as compute
// does.
func TestShippedConfigsValidate(t *testing.T) {
	files, _ := filepath.Glob("../configs/*.yaml")
	if len(files) < 4 {
		t.Fatalf("found %v", files)
	}
	for _, f := range files {
		l, err := config.Load("compute", ComputeKeys(), []string{"-config=" + f, "-input", "x.gr"}, io.Discard)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := ComputeConfigFrom(l); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestParseSources(t *testing.T) {
	got, err := ParseSources(KeySources, []string{"3", "0-2", "2", "all"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{3, 0, 1, 2, 4}; len(got) != len(want) || got[0] != 3 || got[4] != 4 {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range [][]string{{"5"}, {"-1"}, {"2-1"}, {"x"}, {}} {
		if _, err := ParseSources(KeySources, bad, 5); err == nil || !strings.Contains(err.Error(), KeySources) {
			t.Errorf("%v: err = %v", bad, err)
		}
	}
}

func TestGeneratorSpecs(t *testing.T) {
	g, err := generateGraph("grid:side=8,lo=2,hi=2")
	if err != nil {
		t.Fatal(err)
	}
	if g.Edges.N != 64 || g.Edges.M() != 4*8*7 || g.Name != "grid:hi=2,lo=2,seed=1,side=8" {
		t.Errorf("grid: n=%d m=%d name=%q", g.Edges.N, g.Edges.M(), g.Name)
	}
	for _, bad := range []string{"torus:side=3", "grid:side=x", "grid:width=3", "grid:side=0"} {
		if _, err := generateGraph(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
