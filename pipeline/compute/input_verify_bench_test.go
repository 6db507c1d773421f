package compute

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/chfile"
	"github.com/pathflow/pathflow/internal/csrfile"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// benchRoadSideEnv sets the side of the generated road graph that
// BenchmarkLoadIngestOutput loads: side*side vertices. The default keeps
// the benchmark a quick check; 4900 is the scale (24M vertices,
// about 96M arcs: an ingest of several minutes and tens of GB of memory,
// hierarchy included).
const benchRoadSideEnv = "BENCH_ROAD_SIDE"

// benchRoadSide reads benchRoadSideEnv, 64 when unset.
func benchRoadSide(b *testing.B) int {
	s := os.Getenv(benchRoadSideEnv)
	if s == "" {
		return 64
	}
	side, err := strconv.Atoi(s)
	if err != nil || side < 2 {
		b.Fatalf("%s=%q: want a side of at least 2", benchRoadSideEnv, s)
	}
	return side
}

// BenchmarkLoadIngestOutput loads each part of one ingest output of a
// generated road graph (side from BENCH_ROAD_SIDE) as compute
// does, checked against the manifest ("verified"), and with the readers
// alone ("unverified"): the difference is what the checks cost. tables:
// edges and vertices decoded while a goroutine per file hashes it; reload:
// graph.csr mapped, its block CRCs checked either way (csrfile.Open), the
// manifest's checksum compared beside; hierarchy: the three tables read
// while hashed and validated whole (what compute does with an older ingest
// output); hierarchy-mapped: hierarchy.chf mapped, its block CRCs checked
// either way (chfile.Open), verified adding the graph checksum recorded in
// graph.csr and the manifest's checksum compared; graph-checksum: the
// checksum compute compares with the hierarchy's, hashed over the arcs (a
// graph read from tables) or read from graph.csr's metadata. MB/s counts
// the files' bytes; the files are in the page cache after the first pass.
func BenchmarkLoadIngestOutput(b *testing.B) {
	side := benchRoadSide(b)
	dir := filepath.Join(b.TempDir(), "road")
	cfg := loadIngest(b, "-generate", "road:side="+strconv.Itoa(side)+",seed=1", "-hierarchy", "on", "-out", dir)
	if _, err := ingest.Run(context.Background(), cfg, stagetest.QuietLog, io.Discard); err != nil {
		b.Fatal(err)
	}
	listing, err := input.ReadIngestListing(dir)
	if err != nil {
		b.Fatal(err)
	}
	graphFiles := tables.GraphFilesIn(dir, tables.Parquet)
	hierarchyFiles := tables.HierarchyFilesIn(dir)
	reload := filepath.Join(dir, input.ReloadName)
	mapped := filepath.Join(dir, output.HierarchyName)
	workers := runtime.GOMAXPROCS(0)
	g, err := input.LoadTable(dir, input.ReloadFirst)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		files []string
		load  func() error
	}{
		{"tables/verified", []string{graphFiles.Edges, graphFiles.Vertices}, func() error {
			_, err := input.LoadTable(dir, input.TablesAlways)
			return err
		}},
		{"tables/unverified", []string{graphFiles.Edges, graphFiles.Vertices}, func() error {
			_, _, _, err := tables.ReadGraph(graphFiles)
			return err
		}},
		{"reload/verified", []string{reload}, func() error {
			_, err := input.LoadTable(dir, input.ReloadFirst)
			return err
		}},
		{"reload/unverified", []string{reload}, func() error {
			_, err := csrfile.Open(reload, workers)
			return err
		}},
		{"hierarchy/verified", hierarchyFiles.Paths(), func() error {
			return listing.VerifiedRead(hierarchyFiles.Paths(), func() error {
				_, _, err := tables.ReadHierarchy(hierarchyFiles, tables.WithConcurrency(workers))
				return err
			})
		}},
		{"hierarchy/unverified", hierarchyFiles.Paths(), func() error {
			_, _, err := tables.ReadHierarchy(hierarchyFiles, tables.WithConcurrency(workers))
			return err
		}},
		{"hierarchy-mapped/verified", []string{mapped}, func() error {
			s, err := mappedHierarchyFor(g, mapped, workers)
			if err != nil {
				return err
			}
			_, err = s.load(workers)
			return err
		}},
		{"hierarchy-mapped/unverified", []string{mapped}, func() error {
			_, err := chfile.Open(mapped, workers)
			return err
		}},
		{"graph-checksum/hashed", []string{reload}, func() error {
			g.CSR.Checksum(workers)
			return nil
		}},
		{"graph-checksum/recorded", nil, func() error {
			if g.RecordedChecksum() == "" {
				return errors.New("graph.csr records no graph checksum")
			}
			g.GraphChecksum(workers)
			return nil
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var bytes int64
			for _, p := range bc.files {
				st, err := os.Stat(p)
				if err != nil {
					b.Fatal(err)
				}
				bytes += st.Size()
			}
			b.SetBytes(bytes)
			cpu := stagetest.ProcessCPUSeconds()
			for b.Loop() {
				if err := bc.load(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((stagetest.ProcessCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}
