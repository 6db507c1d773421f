package formats_test

// The tests on the real datasets live outside the package: they find the
// files through the datasets package, which imports this one.

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
)

// mirrorFile returns the path of a real dataset file, skipping the test
// when the mirror does not have it.
func mirrorFile(t *testing.T, name string) string {
	t.Helper()
	path, ok := datasets.MirrorFile(name)
	if !ok {
		t.Skipf("%s not found in the dataset mirror %s (set %s)", name, datasets.MirrorDir(), datasets.MirrorEnv)
	}
	return path
}

// referenceDIMACS parses a valid DIMACS text the simple way, independently
// of the scanner under test.
func referenceDIMACS(t *testing.T, text []byte) (n int64, m int64, arcs [][3]int64) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "c") {
			continue
		}
		atoi := func(s string) int64 {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("reference parse: %v", err)
			}
			return v
		}
		switch f[0] {
		case "p":
			n, m = atoi(f[2]), atoi(f[3])
		case "a":
			arcs = append(arcs, [3]int64{atoi(f[1]), atoi(f[2]), atoi(f[3])})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n, m, arcs
}

func TestReadDIMACSRome99(t *testing.T) {
	text := formats.ReadTestFile(t, mirrorFile(t, "rome99.gr"))
	n, m, arcs := referenceDIMACS(t, text)
	// The published size of the network.
	if n != 3353 || m != 8870 || len(arcs) != 8870 {
		t.Fatalf("reference parse: n %d, m %d, %d arc lines; want 3353, 8870, 8870", n, m, len(arcs))
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"plain", text},
		{"gzip", formats.GzipTestBytes(t, text)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := formats.ReadDIMACS(bytes.NewReader(tc.data), "rome99.gr")
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			if int64(e.N) != n || int64(e.M()) != m {
				t.Fatalf("n %d, m %d; want %d, %d", e.N, e.M(), n, m)
			}
			for _, i := range []int{0, len(arcs) / 2, len(arcs) - 1} {
				want := arcs[i]
				if got := [3]int64{int64(e.Src[i]) + 1, int64(e.Dst[i]) + 1, int64(e.Weight[i])}; got != want {
					t.Errorf("arc %d: %v, want %v", i, got, want)
				}
			}
			for i, want := range arcs {
				if got := [3]int64{int64(e.Src[i]) + 1, int64(e.Dst[i]) + 1, int64(e.Weight[i])}; got != want {
					t.Fatalf("arc %d: %v, want %v", i, got, want)
				}
			}
		})
	}
}

// snapLines re-reads a SNAP text the simple way: the header counts and the
// edge lines' fields.
func snapLines(t *testing.T, text []byte) (nodes, edges int64, lines [][]string) {
	t.Helper()
	header := regexp.MustCompile(`Nodes:\s*(\d+)\s+Edges:\s*(\d+)`)
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if m := header.FindStringSubmatch(line); m != nil {
				nodes, _ = strconv.ParseInt(m[1], 10, 64)
				edges, _ = strconv.ParseInt(m[2], 10, 64)
			}
			continue
		}
		if f := strings.Fields(line); len(f) > 0 {
			lines = append(lines, f)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return nodes, edges, lines
}

func TestReadSNAPGnutella(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(datasets.MirrorDir(), "p2p-Gnutella*.txt"))
	if len(files) == 0 {
		t.Skipf("no p2p-Gnutella*.txt in the dataset mirror %s (set %s)", datasets.MirrorDir(), datasets.MirrorEnv)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			text := formats.ReadTestFile(t, path)
			nodes, edges, lines := snapLines(t, text)
			if nodes == 0 || edges != int64(len(lines)) {
				t.Fatalf("reference parse: header %d nodes, %d edges; %d edge lines", nodes, edges, len(lines))
			}
			e, vs, err := formats.ReadSNAP(bytes.NewReader(text), name, formats.SNAPOptions{Directed: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			if int64(e.N) != nodes || int64(e.M()) != edges || len(vs.OriginalID) != int(e.N) {
				t.Fatalf("n %d, m %d, %d ids; want %d, %d", e.N, e.M(), len(vs.OriginalID), nodes, edges)
			}
			if !slices.IsSorted(vs.OriginalID) || len(slices.Compact(slices.Clone(vs.OriginalID))) != len(vs.OriginalID) {
				t.Error("original ids are not strictly ascending")
			}
			for _, i := range []int{0, len(lines) / 2, len(lines) - 1} {
				u, _ := strconv.ParseInt(lines[i][0], 10, 64)
				v, _ := strconv.ParseInt(lines[i][1], 10, 64)
				if gu, gv := vs.Original(e.Src[i]), vs.Original(e.Dst[i]); gu != u || gv != v || e.Weight[i] != 1 {
					t.Errorf("arc %d: %d -> %d weight %d, want %d -> %d weight 1", i, gu, gv, e.Weight[i], u, v)
				}
			}
			if name == "p2p-Gnutella04.txt" && vs.OriginalID[len(vs.OriginalID)-1] != 10878 {
				t.Errorf("largest id %d, want 10878", vs.OriginalID[len(vs.OriginalID)-1])
			}

			opts := formats.SNAPOptions{Weighting: formats.WeightHash, Lo: 1, Hi: 100, Seed: 42}
			und, uvs, err := formats.ReadSNAP(bytes.NewReader(formats.GzipTestBytes(t, text)), name+".gz", opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(uvs.OriginalID, vs.OriginalID) {
				t.Error("an undirected read renumbered differently")
			}
			loops := 0
			for _, l := range lines {
				if l[0] == l[1] {
					loops++
				}
			}
			if und.M() != 2*len(lines)-loops {
				t.Fatalf("undirected: %d arcs, want %d", und.M(), 2*len(lines)-loops)
			}
			// Line by line: the arc, then its reverse with the same weight.
			at := 0
			weights := map[[2]int64]int64{}
			for _, l := range lines {
				u, _ := strconv.ParseInt(l[0], 10, 64)
				v, _ := strconv.ParseInt(l[1], 10, 64)
				want := [][2]int64{{u, v}}
				if u != v {
					want = append(want, [2]int64{v, u})
				}
				for k, arc := range want {
					got := [2]int64{uvs.Original(und.Src[at]), uvs.Original(und.Dst[at])}
					if got != arc || und.Weight[at] != und.Weight[at-k] {
						t.Fatalf("undirected arc %d: %v weight %d, want %v with the weight of its line", at, got, und.Weight[at], arc)
					}
					at++
				}
				weights[[2]int64{u, v}] = int64(und.Weight[at-1])
			}
			// Known weights of the rule (the test vectors of the datasets
			// README) on the lines Gnutella04 has.
			if name == "p2p-Gnutella04.txt" {
				for line, w := range map[[2]int64]int64{{0, 1}: 61, {0, 2}: 99} {
					if weights[line] != w {
						t.Errorf("the line %d %d has weight %d, want %d", line[0], line[1], weights[line], w)
					}
				}
			}
		})
	}
}
