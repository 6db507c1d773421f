package osmroads

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/graph"
)

// readFile reads an extract from disk, each pass opening the file anew.
func readFile(tb testing.TB, path string, opts Options) (*Network, error) {
	tb.Helper()
	return Read(context.Background(), path, func(Pass) (io.ReadCloser, error) { return os.Open(path) }, opts)
}

// TestDelaware reads the real Delaware extract (2016, (c) OpenStreetMap
// contributors, ODbL) twice, on different worker counts, and checks that
// both give the same network, that it is the size RoutingKit's car
// profile gives the same file (73,273 vertices, 175,316 arcs) to within a
// few per cent, and that every vertex and geometry point lies in the
// state.
func TestDelaware(t *testing.T) {
	path := osmroadstest.Extract(t, osmroadstest.Delaware)
	a, err := readFile(t, path, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := readFile(t, path, Options{Workers: max(runtime.NumCPU(), 3)})
	if err != nil {
		t.Fatal(err)
	}
	if !sameNetwork(a, b) {
		t.Fatal("two reads of the same extract differ")
	}
	n, m := int(a.Edges.N), a.Edges.M()
	if n < 70000 || n > 77000 || m < 170000 || m > 181000 {
		t.Errorf("%d vertices and %d arcs; RoutingKit's car profile gives 73,273 and 175,316", n, m)
	}
	// Delaware's bounding box (75.79 to 75.05 degrees west, 38.45 to
	// 39.84 north) and the few kilometres of border the extract keeps.
	inside := func(x, y int32) bool {
		return x > fixed(-76.0) && x < fixed(-74.9) && y > fixed(38.3) && y < fixed(40.0)
	}
	for v := range n {
		if !inside(a.Vertices.X[v], a.Vertices.Y[v]) {
			t.Fatalf("vertex %d (node %d) at %d, %d lies outside Delaware", v, a.Vertices.OriginalID[v], a.Vertices.X[v], a.Vertices.Y[v])
		}
	}
	for k := range a.Geometry.X {
		if !inside(a.Geometry.X[k], a.Geometry.Y[k]) {
			t.Fatalf("geometry point %d lies outside Delaware", k)
		}
	}
	if err := a.Edges.Validate(); err != nil {
		t.Fatal(err)
	}
	for i := range m {
		if a.Edges.Src[i] == a.Edges.Dst[i] {
			t.Fatalf("arc %d is a self-loop", i)
		}
		// A road is at least as long as the straight line between its
		// ends.
		u, v := a.Edges.Src[i], a.Edges.Dst[i]
		if line := distance(a.Vertices.X[u], a.Vertices.Y[u], a.Vertices.X[v], a.Vertices.Y[v]); float64(a.LengthM[i]) < line-0.5 {
			t.Fatalf("arc %d is %d m long, its ends %.1f m apart", i, a.LengthM[i], line)
		}
	}
	if a.Stats.Components < 2 || a.Stats.ComponentSizes[0] < int64(n)*9/10 {
		t.Errorf("components %d, largest %v of %d vertices", a.Stats.Components, a.Stats.ComponentSizes, n)
	}
	largest, err := readFile(t, path, Options{LargestComponent: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if comp, sizes := graph.StrongComponents(graph.BuildCSR(largest.Edges)); len(sizes) != 1 || int64(len(comp)) != a.Stats.ComponentSizes[0] {
		t.Errorf("largest component only: %d components of %d vertices, want one of %d", len(sizes), len(comp), a.Stats.ComponentSizes[0])
	}
}

// sameNetwork reports whether two networks are identical.
func sameNetwork(a, b *Network) bool {
	return a.Edges.N == b.Edges.N && slices.Equal(a.Edges.Src, b.Edges.Src) && slices.Equal(a.Edges.Dst, b.Edges.Dst) &&
		slices.Equal(a.Edges.Weight, b.Edges.Weight) && slices.Equal(a.LengthM, b.LengthM) && slices.Equal(a.WayID, b.WayID) &&
		slices.Equal(a.Vertices.OriginalID, b.Vertices.OriginalID) && slices.Equal(a.Vertices.X, b.Vertices.X) && slices.Equal(a.Vertices.Y, b.Vertices.Y) &&
		slices.Equal(a.Geometry.Offsets, b.Geometry.Offsets) && slices.Equal(a.Geometry.X, b.Geometry.X) && slices.Equal(a.Geometry.Y, b.Geometry.Y)
}

// TestAndorraXML reads the bzip2-compressed XML extract of Andorra.
func TestAndorraXML(t *testing.T) {
	if testing.Short() {
		t.Skip("decompressing bzip2 takes a few seconds")
	}
	net, err := readFile(t, osmroadstest.Extract(t, osmroadstest.Andorra), Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if net.Edges.N < 1000 || net.Edges.M() < 2000 {
		t.Errorf("Andorra: %d vertices and %d arcs", net.Edges.N, net.Edges.M())
	}
	for v := range net.Edges.N {
		if lon, lat := net.Vertices.X[v], net.Vertices.Y[v]; lon < fixed(1.3) || lon > fixed(1.9) || lat < fixed(42.3) || lat > fixed(42.8) {
			t.Fatalf("vertex %d outside Andorra", v)
		}
	}
}

// TestDamagedPBF checks that a truncated or corrupted extract is refused
// with the offset of the block that failed.
func TestDamagedPBF(t *testing.T) {
	data, err := os.ReadFile(osmroadstest.Extract(t, osmroadstest.Delaware))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	damaged := map[string][]byte{
		"truncated": data[:len(data)/2],
		"corrupted": slices.Concat(data[:len(data)/3], make([]byte, 4096), data[len(data)/3+4096:]),
	}
	for name, bytes := range damaged {
		path := filepath.Join(dir, name+".osm.pbf")
		if err := os.WriteFile(path, bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readFile(t, path, Options{Workers: 2})
		var block *BlockError
		if !errors.As(err, &block) || block.Offset <= 0 || block.Offset+13 > int64(len(bytes)) {
			t.Fatalf("%s: %v, want a block error with its offset", name, err)
		}
		// The offset is a block's start: its header's type field.
		if at := bytes[block.Offset+4 : block.Offset+13]; string(at) != "\x0a\x07OSMData" {
			t.Errorf("%s: offset %d holds %q, not a data block's header", name, block.Offset, at)
		}
		t.Logf("%s: %v", name, err)
	}
}

// TestDelawareOnFoot reads Delaware with the foot profile: more of the
// region is walkable than drivable, and walkers ignore oneways, so every
// arc has its reverse along the same way except where a barrier stops
// walkers.
func TestDelawareOnFoot(t *testing.T) {
	path := osmroadstest.Extract(t, osmroadstest.Delaware)
	foot, err := Builtin("foot")
	if err != nil {
		t.Fatal(err)
	}
	walk, err := readFile(t, path, Options{Profile: foot, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	car, err := readFile(t, path, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if walk.Edges.N <= car.Edges.N {
		t.Errorf("foot: %d vertices, car: %d", walk.Edges.N, car.Edges.N)
	}
	type arcKey struct {
		u, v int32
		way  int64
	}
	arcs := map[arcKey]bool{}
	for i := range walk.Edges.M() {
		arcs[arcKey{walk.Edges.Src[i], walk.Edges.Dst[i], walk.WayID[i]}] = true
	}
	oneWay := 0
	for k := range arcs {
		if !arcs[arcKey{k.v, k.u, k.way}] {
			oneWay++
		}
	}
	if int64(oneWay) > 3*walk.Stats.Blocking {
		t.Errorf("foot: %d arcs without their reverse, %d blocking barriers", oneWay, walk.Stats.Blocking)
	}
	t.Logf("foot: %d vertices, %d arcs, %d without reverse, %d blocking barriers; car: %d vertices", walk.Edges.N, walk.Edges.M(), oneWay, walk.Stats.Blocking, car.Edges.N)
}
