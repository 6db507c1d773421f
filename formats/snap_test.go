package formats

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestReadSNAPRenumber checks the dense ascending renumbering on random ids,
// dense (lookup table) and sparse (sort), against a map built here.
func TestReadSNAPRenumber(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, spread := range []int64{50, 1 << 20, math.MaxInt64} {
			m := 1 + rng.IntN(5000)
			pool := make([]int64, 1+rng.IntN(2*m))
			for i := range pool {
				pool[i] = rng.Int64N(spread)
			}
			var b bytes.Buffer
			type line struct{ u, v int64 }
			lines := make([]line, m)
			for i := range lines {
				lines[i] = line{pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]}
				sep := [...]string{" ", "\t", "  \t"}[rng.IntN(3)]
				fmt.Fprintf(&b, "%d%s%d\n", lines[i].u, sep, lines[i].v)
				if rng.IntN(30) == 0 {
					b.WriteString("# a comment\n\n")
				}
			}
			used := map[int64]bool{}
			for _, l := range lines {
				used[l.u], used[l.v] = true, true
			}
			var ids []int64
			for id := range used {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			e, vs, err := ReadSNAP(&b, "random.txt", SNAPOptions{Directed: true})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if !slices.Equal(vs.OriginalID, ids) {
				t.Fatalf("seed %d, spread %d: original ids differ from the sorted distinct ids", seed, spread)
			}
			for i, l := range lines {
				if vs.Original(e.Src[i]) != l.u || vs.Original(e.Dst[i]) != l.v {
					t.Fatalf("seed %d, spread %d: arc %d renumbered wrongly", seed, spread, i)
				}
			}
		}
	}
}

func TestReadSNAPWeights(t *testing.T) {
	text := "# Nodes: 3 Edges: 3\n10 20 5\n20 30 -7\n30 30 2147483647\n"
	for _, tc := range []struct {
		opts SNAPOptions
		want []int32
	}{
		{SNAPOptions{Directed: true}, []int32{5, -7, math.MaxInt32}},
		{SNAPOptions{Directed: true, Weighting: WeightUnit}, []int32{1, 1, 1}},
		{SNAPOptions{}, []int32{5, 5, -7, -7, math.MaxInt32}},
	} {
		e, _, err := ReadSNAP(strings.NewReader(text), "w.txt", tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Weight, tc.want) {
			t.Errorf("%+v: weights %v, want %v", tc.opts, e.Weight, tc.want)
		}
	}
	// Hash weights: the published test vectors of the rule (seed 42, lo 1,
	// hi 100: w(0,1) = 61, w(0,2) = 99, w(1,0) = 48, w(10875,10878) = 60,
	// w(123456,7) = 84, in shared/datasets/README.md), and the same hashes
	// over [-50, 49], a range of the same width: each weight moves by -51.
	// The weight column, when present, is ignored.
	vectors := "0 1 1000\n0 2 1000\n1 0 1000\n10875 10878 1000\n123456 7 1000\n"
	for _, tc := range []struct {
		opts SNAPOptions
		want []int32
	}{
		{SNAPOptions{Directed: true, Weighting: WeightHash, Lo: 1, Hi: 100, Seed: 42}, []int32{61, 99, 48, 60, 84}},
		{SNAPOptions{Directed: true, Weighting: WeightHash, Lo: -50, Hi: 49, Seed: 42}, []int32{10, 48, -3, 9, 33}},
		{SNAPOptions{Weighting: WeightHash, Lo: 1, Hi: 100, Seed: 42}, []int32{61, 61, 99, 99, 48, 48, 60, 60, 84, 84}},
	} {
		e, _, err := ReadSNAP(strings.NewReader(vectors), "vectors.txt", tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Weight, tc.want) {
			t.Errorf("%+v: weights %v, want %v", tc.opts, e.Weight, tc.want)
		}
	}
	// An overriding policy ignores the column, whatever it holds.
	e, _, err := ReadSNAP(strings.NewReader("1 2 0.25\n"), "f.txt", SNAPOptions{Weighting: WeightUnit, Directed: true})
	if err != nil || e.Weight[0] != 1 {
		t.Errorf("unit weighting over a float column: %v, %v", e, err)
	}
}

func TestReadSNAPEmpty(t *testing.T) {
	e, vs, err := ReadSNAP(strings.NewReader("# Nodes: 0 Edges: 0\n"), "empty.txt", SNAPOptions{})
	if err != nil || e.N != 0 || e.M() != 0 || len(vs.OriginalID) != 0 {
		t.Errorf("got %+v, %+v, %v", e, vs, err)
	}
}

func TestReadSNAPErrors(t *testing.T) {
	for _, tc := range []struct {
		text, prefix string
		opts         SNAPOptions
		fragments    []string
	}{
		{"1 2\n3 4 5\n", "bad.txt:2: ", SNAPOptions{}, []string{"3 fields, but line 1 has 2"}},
		{"1\n", "bad.txt:1: ", SNAPOptions{}, []string{`edge line must be "FromNodeId ToNodeId [Weight]"`}},
		{"1 2 3 4\n", "bad.txt:1: ", SNAPOptions{}, []string{`edge line must be`}},
		{"1 x\n", "bad.txt:1: ", SNAPOptions{}, []string{`node id "x" is not an integer`}},
		{"-1 2\n", "bad.txt:1: ", SNAPOptions{}, []string{`node id "-1" outside 0..9223372036854775807`}},
		{"1 92233720368547758070\n", "bad.txt:1: ", SNAPOptions{}, []string{`node id "92233720368547758070" outside`}},
		{"1 2 1.5\n", "bad.txt:1: ", SNAPOptions{}, []string{`weight "1.5" is not an integer`}},
		{"1 2 2147483648\n", "bad.txt:1: ", SNAPOptions{}, []string{`weight "2147483648" outside the int32 range`}},
		{"# Nodes: 2 Edges: 2\n0 1\n", "bad.txt:1: ", SNAPOptions{}, []string{"declares 2 edges, the file has 1 edge lines"}},
		{"# c\n# Nodes: 3 Edges: 1\n0 1\n", "bad.txt:2: ", SNAPOptions{}, []string{"declares 3 nodes, the edges use 2 distinct ids"}},
		{"# Nodes: 2 Edges: 1\n# Nodes: 2 Edges: 1\n0 1\n", "bad.txt:2: ", SNAPOptions{}, []string{"second Nodes/Edges header (the first is line 1)"}},
		{"# Nodes: 2\n0 1\n", "bad.txt:1: ", SNAPOptions{}, []string{`header must be "# Nodes: N Edges: M"`}},
		{"# Nodes: x Edges: 1\n0 1\n", "bad.txt:1: ", SNAPOptions{}, []string{`Nodes: count "x" is not a non-negative integer`}},
		{"0 1\n", "bad.txt: ", SNAPOptions{Weighting: WeightHash, Lo: 5, Hi: 4}, []string{"hash weighting needs lo <= hi"}},
		{"0 1\n", "bad.txt: ", SNAPOptions{Weighting: 9}, []string{"unknown weighting"}},
	} {
		_, _, err := ReadSNAP(strings.NewReader(tc.text), "bad.txt", tc.opts)
		if err == nil {
			t.Errorf("%q: no error", tc.text)
			continue
		}
		checkText(t, err, "formats: "+tc.prefix, tc.fragments)
	}
	// The header check can be switched off for files known to be off.
	if _, _, err := ReadSNAP(strings.NewReader("# Nodes: 9 Edges: 9\n0 1\n"), "off.txt", SNAPOptions{IgnoreHeaderCounts: true}); err != nil {
		t.Errorf("IgnoreHeaderCounts: %v", err)
	}
}

func FuzzReadSNAP(f *testing.F) {
	f.Add([]byte("# Nodes: 3 Edges: 2\n0\t1\n7 0\n"), true, uint8(0), uint64(42))
	f.Add([]byte("5 5 -3\n9223372036854775807 0 12\n"), false, uint8(0), uint64(1))
	f.Add([]byte("1 2 x\n"), false, uint8(2), uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, directed bool, weighting uint8, seed uint64) {
		opts := SNAPOptions{Directed: directed, Weighting: Weighting(weighting % 3), Lo: -3, Hi: 1000, Seed: seed}
		e, vs, err := ReadSNAP(bytes.NewReader(data), "fuzz.txt", opts)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, not a *ParseError", err, err)
			}
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(vs.OriginalID) != int(e.N) {
			t.Fatalf("%d original ids for %d vertices", len(vs.OriginalID), e.N)
		}
		for i := 1; i < len(vs.OriginalID); i++ {
			if vs.OriginalID[i-1] >= vs.OriginalID[i] {
				t.Fatal("original ids are not strictly ascending")
			}
		}
		// Write every arc back as a weighted directed line of original
		// ids; reading that must give the same graph.
		var b bytes.Buffer
		for i := range e.Src {
			fmt.Fprintf(&b, "%d %d %d\n", vs.Original(e.Src[i]), vs.Original(e.Dst[i]), e.Weight[i])
		}
		again, avs, err := ReadSNAP(&b, "again.txt", SNAPOptions{Directed: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := equalEdgeLists(again, e); diff != "" || !slices.Equal(avs.OriginalID, vs.OriginalID) {
			t.Fatalf("round trip: %s", diff)
		}
	})
}
