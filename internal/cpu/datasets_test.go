package cpu

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// The real graphs of the shared mirror, read with minimal parsers so this
// package's tests do not depend on the formats package.

// mirrorFile returns the path of a mirror file or skips the test.
func mirrorFile(t testing.TB, name string) string {
	t.Helper()
	path, ok := datasets.MirrorFile(name)
	if !ok {
		t.Skipf("%s not found in the dataset mirror %s (set %s)", name, datasets.MirrorDir(), datasets.MirrorEnv)
	}
	return path
}

// readLines calls line for every line of the file that is not empty and
// does not start with one of the comment prefixes.
func readLines(t testing.TB, path string, comments string, line func(fields []string) error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}()
	s := bufio.NewScanner(f)
	for no := 1; s.Scan(); no++ {
		text := s.Text()
		if text == "" || strings.ContainsRune(comments, rune(text[0])) {
			continue
		}
		if err := line(strings.Fields(text)); err != nil {
			t.Fatalf("%s:%d: %v", path, no, err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

func atoi32(s string) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	return int32(v), err
}

// readDIMACS reads a DIMACS shortest-path .gr file ("p sp n m", then
// "a u v w" with 1-based ids).
func readDIMACS(t testing.TB, name string) *graph.EdgeList {
	t.Helper()
	var e *graph.EdgeList
	readLines(t, mirrorFile(t, name), "c", func(f []string) error {
		switch {
		case f[0] == "p" && len(f) == 4:
			n, err := atoi32(f[2])
			e = graph.NewEdgeList(n, 0)
			return err
		case f[0] == "a" && len(f) == 4 && e != nil:
			u, err1 := atoi32(f[1])
			v, err2 := atoi32(f[2])
			w, err3 := atoi32(f[3])
			if err1 != nil || err2 != nil || err3 != nil {
				return fmt.Errorf("bad arc %v", f)
			}
			e.Add(u-1, v-1, w)
			return nil
		}
		return fmt.Errorf("unexpected line %v", f)
	})
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

// readSNAP reads a SNAP edge list, keeping the original ids as vertex ids
// (ids that never occur become isolated vertices), weighted by
// formats.HashWeight with seed 42 in [lo, hi].
func readSNAP(t testing.TB, name string, lo, hi int32) *graph.EdgeList {
	t.Helper()
	e := graph.NewEdgeList(0, 0)
	readLines(t, mirrorFile(t, name), "#", func(f []string) error {
		if len(f) != 2 {
			return fmt.Errorf("unexpected line %v", f)
		}
		u, err1 := atoi32(f[0])
		v, err2 := atoi32(f[1])
		if err1 != nil || err2 != nil || u < 0 || v < 0 {
			return fmt.Errorf("bad edge %v", f)
		}
		e.Add(u, v, formats.HashWeight(int64(u), int64(v), lo, hi, 42))
		e.N = max(e.N, u+1, v+1)
		return nil
	})
	return e
}

// checkSearches compares Dijkstra (when the weights allow it), Johnson
// and Bellman-Ford from a few sources, through Run, and checks every tree.
func checkSearches(t *testing.T, e *graph.EdgeList, sources []int32) {
	t.Helper()
	ctx := context.Background()
	g := graph.BuildCSR(e)
	run := func(name string) []*paths.Tree {
		req, err := requestFor(e, backend.Algorithm{Name: name}, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		trees, err := collect(ctx, t, New(0), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return trees
	}
	fromBF := run(backend.AlgorithmBellmanFord)
	for _, tree := range fromBF {
		if err := paths.CheckTree(g, tree); err != nil {
			t.Fatalf("bellman-ford from %d: %v", tree.Source, err)
		}
	}
	names := []string{backend.AlgorithmJohnson}
	if !e.HasNegativeWeight() {
		names = append(names, backend.AlgorithmDijkstra)
	}
	for _, name := range names {
		for i, tree := range run(name) {
			shortesttest.CheckTree(t, e, g, tree, fromBF[i].Dist)
		}
	}
}

// sampleSources returns min(count, n) distinct sources: 0 and random
// others.
func sampleSources(r *rand.Rand, n int32, count int) []int32 {
	out := []int32{0}
	seen := map[int32]bool{0: true}
	for len(out) < min(count, int(n)) {
		if s := r.Int32N(n); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func TestRome99(t *testing.T) {
	e := readDIMACS(t, "rome99.gr")
	if e.N != 3353 || e.M() != 8870 {
		t.Fatalf("rome99: %d vertices and %d arcs, want 3353 and 8870", e.N, e.M())
	}
	seed := rand.Uint64()
	t.Logf("sources from seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 5))
	checkSearches(t, e, sampleSources(r, e.N, 6))

	// Road weights turned partly negative by potentials, no negative cycle.
	neg := shortesttest.Reweighted(r, e, 2000)
	checkSearches(t, neg, sampleSources(r, e.N, 4))

	if testing.Short() {
		t.Skip("all pairs on rome99: skipped in short mode")
	}
	compareAllPairs(t, e, r)
}

// compareAllPairs checks Floyd-Warshall against Johnson on the whole
// matrix, both through Run, and a few rows of Floyd-Warshall with
// predecessors against Bellman-Ford.
func compareAllPairs(t *testing.T, e *graph.EdgeList, r *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	all := allSources(e.N)
	fwReq, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmFloydWarshall}, all, true)
	if err != nil {
		t.Fatal(err)
	}
	fw, err := collect(ctx, t, New(0), fwReq)
	if err != nil {
		t.Fatal(err)
	}
	// Johnson's rows are compared as they come, not kept.
	req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmJohnson}, all, false)
	if err != nil {
		t.Fatal(err)
	}
	err = New(0).Run(ctx, req, func(block *results.Rows) error {
		defer block.Release()
		if err := req.CheckRows(block); err != nil {
			return err
		}
		for i, s := range block.Sources {
			for v := range int(e.N) {
				if a, b := fw[s].Dist[v], block.Distances().Weight(i*block.Width+v); a != b {
					return fmt.Errorf("%d -> %d: floyd-warshall %d, johnson %d", s, v, a, b)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	for _, s := range sampleSources(r, e.N, 4) {
		bf, err := shortest.BellmanFord(ctx, g, s, false)
		if err != nil {
			t.Fatal(err)
		}
		shortesttest.CheckTree(t, e, g, fw[s], bf.Dist)
	}
}

func TestGnutella04(t *testing.T) {
	e := readSNAP(t, "p2p-Gnutella04.txt", 1, 100)
	if e.M() != 39994 || e.N != 10879 {
		t.Fatalf("Gnutella04: %d ids and %d arcs, want 10879 and 39994", e.N, e.M())
	}
	seed := rand.Uint64()
	t.Logf("sources from seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 6))
	checkSearches(t, e, sampleSources(r, e.N, 6))

	// Weights in [-20, 100] on this peer-to-peer graph may close negative
	// cycles: either Bellman-Ford names a real one, or its tree passes
	// paths.CheckTree, which proves no negative cycle is reachable.
	neg := readSNAP(t, "p2p-Gnutella04.txt", -20, 100)
	gneg := graph.BuildCSR(neg)
	tree, err := shortest.BellmanFord(context.Background(), gneg, 0, true)
	if err != nil {
		shortesttest.CheckNegativeCycle(t, neg, err)
	} else if err := paths.CheckTree(gneg, tree); err != nil {
		t.Fatal(err)
	}

	if testing.Short() {
		t.Skip("all pairs on Gnutella04: skipped in short mode")
	}
	// All pairs on the subgraph induced by the first 2000 ids, as weighted
	// and with potentials making it partly negative: the whole graph's
	// 10879^2 matrix is a benchmark, not a test.
	sub := graph.NewEdgeList(2000, 0)
	for i := range e.Src {
		if e.Src[i] < sub.N && e.Dst[i] < sub.N {
			sub.Add(e.Src[i], e.Dst[i], e.Weight[i])
		}
	}
	compareAllPairs(t, sub, r)
	compareAllPairs(t, shortesttest.Reweighted(r, sub, 500), r)
}
