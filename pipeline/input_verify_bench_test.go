package pipeline

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/csrfile"
	"github.com/pathflow/pathflow/internal/tables"
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
// while hashed. MB/s counts the files' bytes; the files are in the page
// cache after the first pass.
func BenchmarkLoadIngestOutput(b *testing.B) {
	side := benchRoadSide(b)
	dir := filepath.Join(b.TempDir(), "road")
	cfg := loadIngest(b, "-generate", "road:side="+strconv.Itoa(side)+",seed=1", "-hierarchy", "on", "-out", dir)
	if _, err := Ingest(context.Background(), cfg, quietLog, io.Discard); err != nil {
		b.Fatal(err)
	}
	listing, err := readIngestListing(dir)
	if err != nil {
		b.Fatal(err)
	}
	graphFiles := tables.GraphFilesIn(dir, tables.Parquet)
	hierarchyFiles := tables.HierarchyFilesIn(dir)
	reload := filepath.Join(dir, ReloadName)
	workers := runtime.GOMAXPROCS(0)
	for _, bc := range []struct {
		name  string
		files []string
		load  func() error
	}{
		{"tables/verified", []string{graphFiles.Edges, graphFiles.Vertices}, func() error {
			_, err := loadTable(dir, true)
			return err
		}},
		{"tables/unverified", []string{graphFiles.Edges, graphFiles.Vertices}, func() error {
			_, _, _, err := tables.ReadGraph(graphFiles)
			return err
		}},
		{"reload/verified", []string{reload}, func() error {
			_, err := loadTable(dir, false)
			return err
		}},
		{"reload/unverified", []string{reload}, func() error {
			_, err := csrfile.Open(reload, workers)
			return err
		}},
		{"hierarchy/verified", hierarchyFiles.Paths(), func() error {
			return listing.verifiedRead(hierarchyFiles.Paths(), func() error {
				_, _, err := tables.ReadHierarchy(hierarchyFiles, tables.WithConcurrency(workers))
				return err
			})
		}},
		{"hierarchy/unverified", hierarchyFiles.Paths(), func() error {
			_, _, err := tables.ReadHierarchy(hierarchyFiles, tables.WithConcurrency(workers))
			return err
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
			cpu := processCPUSeconds()
			for b.Loop() {
				if err := bc.load(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}
