//go:build cuda

package gpu_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
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
		digest := func(b *gpu.Backend) []uint64 {
			req := backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: g, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: alg}}}
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
			return d
		}
		if got, want := digest(two), digest(backendtest.Default()); !slices.Equal(got, want) {
			t.Errorf("%s on 2 contexts: rows differ from the one-device run", alg)
		}
	}
}
