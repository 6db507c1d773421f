package ingest

import (
	"bufio"
	"compress/gzip"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
)

// The benchmark input: about 106 MB of DIMACS text, 4,500,000 arcs over
// 1,700,000 vertices, the arcs per vertex of the DIMACS road networks
// (USA: 58.3M arcs, 23.9M vertices).
const (
	benchGraphArcs     = 4_500_000
	benchGraphVertices = 1_700_000
)

// writeBenchGraph writes a road-like DIMACS graph: arcs between nearby
// vertices of a grid numbering plus a few long links, weights up to 6
// digits; gzip-compressed when zipped (under a name without .gz).
func writeBenchGraph(path string, zipped bool) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if closeErr := f.Close(); err == nil {
			err = closeErr
		}
	}()
	var out io.Writer = f
	var zw *gzip.Writer
	if zipped {
		zw = gzip.NewWriter(f)
		out = zw
	}
	w := bufio.NewWriterSize(out, 1<<20)
	const n, width = benchGraphVertices, 1_300
	rng := rand.New(rand.NewPCG(1, 2))
	w.WriteString("c road-like benchmark graph\np sp " + strconv.Itoa(n) + " " + strconv.Itoa(benchGraphArcs) + "\n")
	steps := [...]int{1, -1, width, -width}
	line := make([]byte, 0, 64)
	for range benchGraphArcs {
		u := 1 + rng.IntN(n)
		v := u + steps[rng.IntN(len(steps))]
		if rng.IntN(64) == 0 || v < 1 || v > n {
			v = 1 + rng.IntN(n)
		}
		line = append(line[:0], "a "...)
		line = strconv.AppendInt(line, int64(u), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(v), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(1+rng.IntN(999_999)), 10)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// benchLoadToArrow measures an input file to the Arrow record batches of
// its edges and vertices tables in memory: read, SHA-256 of the file,
// parse, vertex ids. MB/s counts the file's bytes. The input is generated
// in the benchmark's temporary folder (b.Loop runs the function once).
func benchLoadToArrow(b *testing.B, zipped bool) {
	path := filepath.Join(b.TempDir(), "road.gr")
	if err := writeBenchGraph(path, zipped); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	cpu := stagetest.ProcessCPUSeconds()
	for b.Loop() {
		g, err := input.LoadGraph(context.Background(), input.Spec{Path: path}, stagetest.QuietLog, io.Discard, true)
		if err != nil {
			b.Fatal(err)
		}
		edges, vertices, err := tables.GraphRecords(g.Edges, g.Vertices, input.Metadata(g))
		if err != nil {
			b.Fatal(err)
		}
		if g.SHA256 == "" || g.Edges.M() != benchGraphArcs {
			b.Fatalf("%d arcs, checksum %q", g.Edges.M(), g.SHA256)
		}
		for _, rec := range append(edges, vertices...) {
			rec.Release()
		}
	}
	b.ReportMetric((stagetest.ProcessCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
}

// BenchmarkLoadToArrow: the uncompressed .gr of about 106 MB.
func BenchmarkLoadToArrow(b *testing.B) { benchLoadToArrow(b, false) }

// BenchmarkLoadToArrowGzip: the same graph gzip-compressed (about 46 MB),
// under a name without .gz; MB/s counts the compressed bytes.
func BenchmarkLoadToArrowGzip(b *testing.B) { benchLoadToArrow(b, true) }
