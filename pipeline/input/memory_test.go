package input

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/memlimit"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// withMemory makes availableMemory report free bytes left under a limit
// named "test limit" for the rest of the test.
func withMemory(t *testing.T, free int64) {
	t.Helper()
	old := availableMemory
	availableMemory = func() (memlimit.Limit, bool) {
		return memlimit.Limit{Name: "test limit", Total: free, Free: free}, true
	}
	t.Cleanup(func() { availableMemory = old })
}

func TestLoadGraphRefusesDeclaredVerticesBeyondMemory(t *testing.T) {
	withMemory(t, 64<<20)
	path := filepath.Join(t.TempDir(), "big.gr")
	if err := os.WriteFile(path, []byte("p sp 3000000 1\na 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Path: path, Format: string(formats.KindAuto), Footprint: ComputeFootprint}
	_, err := LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true)
	var memErr *stageerr.NotEnoughMemoryError
	if !errors.As(err, &memErr) {
		t.Fatalf("LoadGraph: %v, want a *NotEnoughMemoryError", err)
	}
	if got := stageerr.KindOf(err); got != stageerr.OutOfMemory {
		t.Errorf("exit code %d, want %d", got, stageerr.OutOfMemory)
	}
	if want := ComputeFootprint.need(3000000, 1); memErr.Need != want {
		t.Errorf("need %d bytes, want %d", memErr.Need, want)
	}
	for _, want := range []string{"big.gr (3000000 vertices, 1 arcs)", "115 MiB", "64 MiB left (test limit)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}

	// The same file fits where the memory is there, and so does a small
	// graph under the small limit.
	withMemory(t, 1<<30)
	if _, err := LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true); err != nil {
		t.Errorf("with 1 GiB: %v", err)
	}
	withMemory(t, 64<<20)
	spec.Path = filepath.Join(t.TempDir(), "small.gr")
	if err := os.WriteFile(spec.Path, []byte("p sp 3 1\na 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true); err != nil {
		t.Errorf("small graph: %v", err)
	}
}

func TestGeneratorRefusedBeforeGenerating(t *testing.T) {
	withMemory(t, 64<<20)
	for _, gen := range []string{"road:side=40000", "grid:side=46340", "random-degree:n=100000000,k=7", "erdos-renyi:n=100000,p=0.5"} {
		spec := Spec{Generate: gen, Footprint: IngestFootprint}
		_, err := LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true)
		if got := stageerr.KindOf(err); got != stageerr.OutOfMemory {
			t.Errorf("%s: %v (kind %v), want kind %v", gen, err, got, stageerr.OutOfMemory)
		}
	}
	// A bad parameter is still a configuration error, and a small graph
	// is generated.
	if _, err := LoadGraph(context.Background(), Spec{Generate: "grid:side=0", Footprint: IngestFootprint}, stagetest.QuietLog, io.Discard, true); stageerr.KindOf(err) != stageerr.Config {
		t.Errorf("grid:side=0: %v, want a configuration error", err)
	}
	if _, err := LoadGraph(context.Background(), Spec{Generate: "grid:side=64", Footprint: IngestFootprint}, stagetest.QuietLog, io.Discard, true); err != nil {
		t.Errorf("grid:side=64: %v", err)
	}
}
