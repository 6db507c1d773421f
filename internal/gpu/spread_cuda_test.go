//go:build cuda

package gpu_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// TestSSSPSpreadEqualsOneDevice splits sources over two contexts: the
// distances and their positions are those of one device, the parents a
// shortest-path tree.
func TestSSSPSpreadEqualsOneDevice(t *testing.T) {
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 17))
	e := graphtest.RandomGraph(r, 3000, 15000, 1, 100, 0)
	g := graph.BuildCSR(e)
	sources := make([]int32, 101)
	for i := range sources {
		sources[i] = int32(r.IntN(int(e.N)))
	}
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	for _, alg := range []string{"sssp", "bellman-ford", "dijkstra"} {
		got, _ := spreadDigest(t, two, g, alg, sources)
		if want, _ := spreadDigest(t, backendtest.Default(), g, alg, sources); !slices.Equal(got, want) {
			t.Errorf("%s on 2 contexts: rows differ from the one-device run", alg)
		}
	}
}

// TestSpreadSharesTheGraphsUpload runs a many-source search on two
// contexts over a graph whose arrays are large enough to be shared
// (device.UploadShare): the second context copies the graph from the
// first, and the rows equal one device's.
func TestSpreadSharesTheGraphsUpload(t *testing.T) {
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 19))
	// Over 2^20 vertices and 2.4M arcs: offsets, targets and weights each
	// past the 8 MiB of a staged upload.
	e := graphtest.RandomGraph(r, 1<<20+1000, 2_400_000, 1, 100, 0)
	g := graph.BuildCSR(e)
	sources := make([]int32, 40)
	for i := range sources {
		sources[i] = int32(r.IntN(int(e.N)))
	}
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	got, facts := spreadDigest(t, two, g, "sssp", sources)
	want, _ := spreadDigest(t, backendtest.Default(), g, "sssp", sources)
	if !slices.Equal(got, want) {
		t.Error("rows on 2 contexts differ from the one-device run")
	}
	// The forward arcs' three arrays: both contexts start at once, and
	// each one's searches outlast the other's upload by far.
	if n, _ := facts[sssp.FactSharedUploads].(int); n != 3 {
		t.Errorf("%d arrays copied between the contexts, want 3 (facts %v)", n, facts)
	}
}

// spreadDigest runs alg from sources over g with parents on b, checks
// every row's tree, and returns each row's hash in request order and the
// run's facts.
func spreadDigest(t *testing.T, b *gpu.Backend, g *graph.CSR, alg string, sources []int32) ([]uint64, map[string]any) {
	t.Helper()
	facts := map[string]any{}
	var mu sync.Mutex
	req := backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: g,
		Choice: backend.Choice{Algorithm: backend.Algorithm{Name: alg}},
		Facts: func(key string, value any) {
			mu.Lock()
			defer mu.Unlock()
			facts[key] = value
		}}
	d := make([]uint64, len(sources))
	err := b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			return err
		}
		for i := range rows.Len() {
			if err := gputest.CheckTree(g, rows.Tree(i).Copy()); err != nil {
				return err
			}
			d[rows.First+i] = gputest.RowHash(rows, i)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", alg, err)
	}
	return d, facts
}
