package osmroads

import (
	"os"
	"runtime"
	"testing"

	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
)

// BenchmarkReadDelaware reads the Delaware extract (7.8 MB of PBF, (c)
// OpenStreetMap contributors, ODbL) into its car network on every core:
// both passes and the build, from the page cache.
func BenchmarkReadDelaware(b *testing.B) {
	path := osmroadstest.Extract(b, osmroadstest.Delaware)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		net, err := readFile(b, path, Options{Workers: runtime.NumCPU()})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(net.Edges.M()), "arcs")
	}
}
