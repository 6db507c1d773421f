package allpairs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// fwTestPlan plans an all-pairs run of e, failing the test on an error.
func fwTestPlan(t *testing.T, e *graph.EdgeList, variant string, parents bool, strategy ParentStrategy) allPairsPlan {
	t.Helper()
	p, err := planAllPairs(e, backend.Algorithm{Variant: variant}, parents, strategy)
	if err != nil {
		t.Fatalf("%s on %d vertices: %v", variant, e.N, err)
	}
	return p
}

// fwRegularGraph has arcs of weight w from each vertex u to the deg
// vertices after it (mod n).
func fwRegularGraph(n, deg, w int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, int(n)*int(deg))
	for u := range n {
		for j := range deg {
			e.Add(u, (u+1+j)%n, w)
		}
	}
	return e
}

// checkBounds checks that bounds split total into parts blocks: it starts
// at 0, ends at total and never decreases.
func checkBounds(t *testing.T, what string, bounds []int64, total int64, parts int) {
	t.Helper()
	if len(bounds) != parts+1 {
		t.Fatalf("%s: %d bounds, want %d", what, len(bounds), parts+1)
	}
	if bounds[0] != 0 || bounds[parts] != total {
		t.Fatalf("%s: bounds %v run from %d to %d, want 0 to %d", what, bounds, bounds[0], bounds[parts], total)
	}
	for d := range parts {
		if bounds[d+1] < bounds[d] {
			t.Fatalf("%s: bounds %v decrease at %d", what, bounds, d)
		}
	}
}

func TestSplitTiles(t *testing.T) {
	for tiles := int64(0); tiles <= 70; tiles++ {
		for parts := 1; parts <= 17; parts++ {
			what := fmt.Sprintf("spread.SplitEvenly(%d, %d)", tiles, parts)
			b := spread.SplitEvenly(tiles, parts)
			checkBounds(t, what, b, tiles, parts)
			lo, hi := tiles, int64(0)
			for d := range parts {
				size := b[d+1] - b[d]
				lo, hi = min(lo, size), max(hi, size)
				// Larger blocks first: sizes never increase.
				if d > 0 && size > b[d]-b[d-1] {
					t.Fatalf("%s = %v: block %d larger than block %d", what, b, d, d-1)
				}
				if int64(parts) > tiles && int64(d) >= tiles && size != 0 {
					t.Fatalf("%s = %v: part %d beyond the tile count has %d tiles", what, b, d, size)
				}
			}
			if hi-lo > 1 {
				t.Fatalf("%s = %v: block sizes from %d to %d", what, b, lo, hi)
			}
		}
	}
	// Large counts, as the row slabs of a big matrix see them.
	r := rand.New(rand.NewPCG(7, 11))
	for range 500 {
		tiles, parts := r.Int64N(1<<20), 1+r.IntN(64)
		b := spread.SplitEvenly(tiles, parts)
		checkBounds(t, fmt.Sprintf("spread.SplitEvenly(%d, %d)", tiles, parts), b, tiles, parts)
		if first, last := b[1]-b[0], b[parts]-b[parts-1]; first < last || first-last > 1 {
			t.Fatalf("spread.SplitEvenly(%d, %d): first block %d, last %d", tiles, parts, first, last)
		}
	}
	if b := spread.SplitEvenly(3, 5); b[4] != 3 || b[5] != 3 || b[3] != 3 || b[1] != 1 {
		t.Fatalf("spread.SplitEvenly(3, 5) = %v, want three blocks of one then two empty ones", b)
	}
}

func TestLayoutEmptyGraph(t *testing.T) {
	p := fwTestPlan(t, graph.NewEdgeList(0, 0), VariantFast, true, ParentsAuto)
	l, err := layoutAllPairs(p, 4, 0, 1)
	if err != nil || l.place != onOneDevice {
		t.Fatalf("no vertices on 4 devices with no memory: %s, %v; want one device and no error", l.place, err)
	}
}

// TestLayoutOneDevice: (a) one device whose budget holds the matrix keeps
// it whole, any variant.
func TestLayoutOneDevice(t *testing.T) {
	for _, variant := range Variants {
		for _, parents := range []bool{false, true} {
			p := fwTestPlan(t, graphtest.LineGraph(1000, 3), variant, parents, ParentsTrack)
			one := p.deviceBytes()
			for _, budget := range []int64{one, one + 1, 100 * one} {
				what := fmt.Sprintf("%s parents %t budget %d of %d", variant, parents, budget, one)
				l, err := layoutAllPairs(p, 1, budget, 1)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if l.place != onOneDevice || l.deviceBytes != one || l.hostBytes != 0 || l.super != 0 {
					t.Fatalf("%s: %s, device %d host %d super %d; want one device, %d bytes, no host memory", what, l.place, l.deviceBytes, l.hostBytes, l.super, one)
				}
				if l.method != p.method {
					t.Fatalf("%s: parent method changed from %d to %d on one device", what, p.method, l.method)
				}
				checkBounds(t, what, l.slabs, p.pitch/p.tile, 1)
				if l.describe() != p.describe() {
					t.Fatalf("%s: describe %q, want the plan's %q", what, l.describe(), p.describe())
				}
			}
		}
	}
}

// TestLayoutOtherVariantsStayOnOneDevice: (b) only fast splits or goes
// out of core; the others need the whole matrix on the primary device.
func TestLayoutOtherVariantsStayOnOneDevice(t *testing.T) {
	for _, variant := range []string{VariantBlocked, VariantNaive, VariantRow} {
		p := fwTestPlan(t, graphtest.LineGraph(700, 2), variant, true, ParentsAuto)
		one := p.deviceBytes()
		for _, devices := range []int{1, 2, 4} {
			what := fmt.Sprintf("%s on %d devices", variant, devices)
			l, err := layoutAllPairs(p, devices, one-1, 0)
			var oom *device.OutOfMemoryError
			if !errors.As(err, &oom) {
				t.Fatalf("%s, budget one byte short: error %v, want *device.OutOfMemoryError", what, err)
			}
			if oom.Need != one || oom.Free != one-1 || !strings.Contains(oom.What, variant) {
				t.Fatalf("%s: %+v, want need %d free %d naming %s", what, oom, one, one-1, variant)
			}
			if errors.Is(err, errTooLarge) {
				t.Fatalf("%s: an in-core shortfall wraps errTooLarge: %v", what, err)
			}
			l, err = layoutAllPairs(p, devices, one, 0)
			if err != nil || l.place != onOneDevice || l.deviceBytes != one {
				t.Fatalf("%s, budget %d: %s with %d bytes, %v; want one device", what, one, l.place, l.deviceBytes, err)
			}
		}
	}
}

// TestLayoutRowSlabs: (c) several devices whose slabs fit share the tile
// rows.
func TestLayoutRowSlabs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 300 {
		n := 1 + r.Int32N(5000)
		parents := r.IntN(2) == 0
		p := fwTestPlan(t, graphtest.LineGraph(n, 1+r.Int32N(50)), VariantFast, parents, ParentStrategy(r.IntN(3)))
		devices := 2 + r.IntN(7)
		tiles := p.pitch / p.tile
		// A budget that holds the whole matrix twice holds any slab.
		budget := 2*p.deviceBytes() + r.Int64N(1<<20)
		what := fmt.Sprintf("%d vertices, parents %t, %d devices, budget %d", n, parents, devices, budget)
		l, err := layoutAllPairs(p, devices, budget, 1)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if l.place != inRowSlabs {
			t.Fatalf("%s: %s, want row slabs", what, l.place)
		}
		checkBounds(t, what, l.slabs, tiles, devices)
		if l.deviceBytes > budget {
			t.Fatalf("%s: %d bytes per device over the budget", what, l.deviceBytes)
		}
		// The busiest device holds its rows (twice with parents), a
		// received pivot panel and the arcs.
		var most int64
		for d := range devices {
			most = max(most, l.slabs[d+1]-l.slabs[d])
		}
		matrices := int64(1)
		if parents {
			matrices = 2
		}
		if need := matrices*most*p.tile*p.pitch*4 + p.tile*p.pitch*4 + 12*p.m; l.deviceBytes < need {
			t.Fatalf("%s: %d bytes counted for %d tile rows, the buffers take %d", what, l.deviceBytes, most, need)
		}
		if l.super != 0 || l.hostBytes != 0 {
			t.Fatalf("%s: row slabs with super %d and host bytes %d", what, l.super, l.hostBytes)
		}
		if want := fmt.Sprintf("row slabs on %d devices", devices); !strings.Contains(l.describe(), want) {
			t.Fatalf("%s: describe %q lacks %q", what, l.describe(), want)
		}
		// One byte less than the busiest slab sends the run out of core.
		if l2, _ := layoutAllPairs(p, devices, l.deviceBytes-1, 0); l2.place == inRowSlabs {
			t.Fatalf("%s: row slabs with a budget one byte below the busiest slab", what)
		}
	}

	// Distances only on at least two tile rows: a slab plus a panel is
	// never larger than the whole matrix, so the one-device budget is
	// enough for row slabs.
	p := fwTestPlan(t, graphtest.LineGraph(1000, 1), VariantFast, false, ParentsAuto)
	l, err := layoutAllPairs(p, 2, p.deviceBytes(), 0)
	if err != nil || l.place != inRowSlabs || l.deviceBytes > p.deviceBytes() {
		t.Fatalf("1000 vertices on 2 devices with the one-device budget: %s, %d bytes, %v", l.place, l.deviceBytes, err)
	}
	if l.slabs[1]-l.slabs[0] != 4 || l.slabs[2]-l.slabs[1] != 4 {
		t.Fatalf("8 tile rows on 2 devices: slabs %v, want 4 and 4", l.slabs)
	}

	// More devices than tile rows: the extra devices own nothing.
	p = fwTestPlan(t, graphtest.LineGraph(300, 1), VariantFast, false, ParentsAuto)
	l, err = layoutAllPairs(p, 5, 1<<30, 0)
	if err != nil || l.place != inRowSlabs {
		t.Fatalf("3 tile rows on 5 devices: %s, %v", l.place, err)
	}
	checkBounds(t, "3 tile rows on 5 devices", l.slabs, 3, 5)
	if l.slabs[3] != 3 || l.slabs[5] != 3 {
		t.Fatalf("3 tile rows on 5 devices: slabs %v", l.slabs)
	}
}

// checkOutOfCore checks (d): the largest super-tile that fits.
func checkOutOfCore(t *testing.T, what string, p allPairsPlan, l allPairsLayout, budget int64) {
	t.Helper()
	if l.place != outOfCore {
		t.Fatalf("%s: %s, want out of core", what, l.place)
	}
	if l.super <= 0 || l.super%p.tile != 0 || l.super > p.pitch {
		t.Fatalf("%s: super-tile %d, want a positive multiple of %d up to %d", what, l.super, p.tile, p.pitch)
	}
	if l.outOfCoreBytes(l.super) > budget || l.deviceBytes != l.outOfCoreBytes(l.super) {
		t.Fatalf("%s: super-tile %d needs %d bytes, counted %d, budget %d", what, l.super, l.outOfCoreBytes(l.super), l.deviceBytes, budget)
	}
	if l.super < p.pitch && l.outOfCoreBytes(l.super+p.tile) <= budget {
		t.Fatalf("%s: super-tile %d, but %d fits too", what, l.super, l.super+p.tile)
	}
	if l.hostBytes != p.pitch*p.pitch*4 {
		t.Fatalf("%s: host bytes %d, want %d", what, l.hostBytes, p.pitch*p.pitch*4)
	}
	checkBounds(t, what, l.slabs, p.pitch/p.tile, 1)
	// The pivot super-row and super-column alone take 2 B pitch 4 bytes.
	if l.deviceBytes < 2*l.super*p.pitch*4+12*p.m {
		t.Fatalf("%s: %d device bytes for %d-vertex super-tiles: less than the pivot panels", what, l.deviceBytes, l.super)
	}
	if want := fmt.Sprintf("out of core (%d-vertex super-tiles)", l.super); !strings.Contains(l.describe(), want) {
		t.Fatalf("%s: describe %q lacks %q", what, l.describe(), want)
	}
}

// TestLayoutOutOfCore: (d) a matrix over the budget goes out of core.
func TestLayoutOutOfCore(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for range 300 {
		n := 200 + r.Int32N(6000)
		parents := r.IntN(2) == 0
		p := fwTestPlan(t, graphtest.LineGraph(n, 1+r.Int32N(50)), VariantFast, parents, ParentStrategy(r.IntN(3)))
		one := p.deviceBytes()
		// Anywhere from the pivot panels of one tile to just under the
		// whole matrix.
		lo := allPairsLayout{allPairsPlan: p.deriving()}.outOfCoreBytes(p.tile)
		if lo >= one {
			continue
		}
		budget := lo + r.Int64N(one-lo)
		what := fmt.Sprintf("%d vertices, parents %t, budget %d of %d", n, parents, budget, one)
		l, err := layoutAllPairs(p, 1, budget, 0)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkOutOfCore(t, what, p, l, budget)

		// Two devices whose slabs do not fit fall back to the same.
		l2, err := layoutAllPairs(p, 2, budget, 0)
		if err != nil {
			t.Fatalf("%s, 2 devices: %v", what, err)
		}
		if l2.place == inRowSlabs {
			if l2.deviceBytes > budget {
				t.Fatalf("%s, 2 devices: row slabs of %d bytes", what, l2.deviceBytes)
			}
			continue
		}
		checkOutOfCore(t, what+", 2 devices", p, l2, budget)
		if l2.super != l.super {
			t.Fatalf("%s: super-tile %d on 2 devices, %d on one", what, l2.super, l.super)
		}
	}

	// The super-tile grows with the budget.
	p := fwTestPlan(t, graphtest.LineGraph(5000, 1), VariantFast, false, ParentsAuto)
	var last int64
	for budget := p.deviceBytes() / 16; budget < p.deviceBytes(); budget += p.deviceBytes() / 16 {
		l, err := layoutAllPairs(p, 1, budget, 0)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if l.super < last {
			t.Fatalf("budget %d: super-tile %d, smaller than %d for a smaller budget", budget, l.super, last)
		}
		last = l.super
	}
}

// TestLayoutNothingFits: (e) a budget below even one-tile super-tiles.
func TestLayoutNothingFits(t *testing.T) {
	for _, parents := range []bool{false, true} {
		p := fwTestPlan(t, graphtest.LineGraph(3000, 4), VariantFast, parents, ParentsAuto)
		one := p.deviceBytes()
		// The pivot panels of 128-vertex super-tiles alone.
		panels := 2 * p.tile * p.pitch * 4
		for _, budget := range []int64{0, 1 << 10, panels - 1} {
			what := fmt.Sprintf("parents %t, budget %d", parents, budget)
			_, err := layoutAllPairs(p, 1, budget, 0)
			if !errors.Is(err, errTooLarge) {
				t.Fatalf("%s: error %v, want errTooLarge", what, err)
			}
			for _, want := range []string{device.FormatBytes(one), device.FormatBytes(budget), fmt.Sprintf("%d-vertex", p.tile), "3000 vertices"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %q does not mention %q", what, err, want)
				}
			}
			if _, err := layoutAllPairs(p, 3, budget, 0); !errors.Is(err, errTooLarge) {
				t.Fatalf("%s, 3 devices: error %v, want errTooLarge", what, err)
			}
		}
		// The boundary: exactly the bytes of one-tile super-tiles.
		l, _ := layoutAllPairs(p, 1, one-1, 0)
		least := l.outOfCoreBytes(p.tile)
		if least < panels {
			t.Fatalf("parents %t: one-tile super-tiles counted at %d bytes, under their %d bytes of panels", parents, least, panels)
		}
		if _, err := layoutAllPairs(p, 1, least-1, 0); !errors.Is(err, errTooLarge) {
			t.Fatalf("parents %t, budget %d: error %v, want errTooLarge", parents, least-1, err)
		}
		l, err := layoutAllPairs(p, 1, least, 0)
		if err != nil || l.place != outOfCore || l.super != p.tile {
			t.Fatalf("parents %t, budget %d: %s, super %d, %v; want %d-vertex super-tiles", parents, least, l.place, l.super, err, p.tile)
		}
	}
}

// TestLayoutHostMemory: (f) out of core, the matrix must fit host memory.
func TestLayoutHostMemory(t *testing.T) {
	p := fwTestPlan(t, graphtest.LineGraph(4000, 2), VariantFast, false, ParentsAuto)
	budget := p.deviceBytes() / 3
	matrix := p.pitch * p.pitch * 4
	for _, host := range []int64{1, 1 << 20, matrix - 1} {
		_, err := layoutAllPairs(p, 1, budget, host)
		if !errors.Is(err, errTooLarge) {
			t.Fatalf("host budget %d for a %d-byte matrix: error %v, want errTooLarge", host, matrix, err)
		}
		for _, want := range []string{device.FormatBytes(matrix), device.FormatBytes(host), device.FormatBytes(budget)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("host budget %d: error %q does not mention %q", host, err, want)
			}
		}
	}
	for _, host := range []int64{0, matrix, matrix + 1, 1 << 40} {
		l, err := layoutAllPairs(p, 1, budget, host)
		if err != nil || l.place != outOfCore {
			t.Fatalf("host budget %d for a %d-byte matrix: %s, %v; want out of core", host, matrix, l.place, err)
		}
	}
	// In core, host memory is not needed.
	for _, devices := range []int{1, 2} {
		l, err := layoutAllPairs(p, devices, p.deviceBytes(), 1)
		if err != nil || l.place == outOfCore || l.hostBytes != 0 {
			t.Fatalf("%d devices in core with 1 byte of host memory: %s, host %d, %v", devices, l.place, l.hostBytes, err)
		}
	}
}

// TestLayoutDerivesParents: (g) row slabs and out-of-core runs derive
// parents.
func TestLayoutDerivesParents(t *testing.T) {
	tracked := fwTestPlan(t, graphtest.LineGraph(1000, 5), VariantFast, true, ParentsTrack)
	packed := fwTestPlan(t, fwRegularGraph(1000, 40, 1), VariantFast, true, ParentsAuto)
	recovered := fwTestPlan(t, graphtest.LineGraph(1000, 5), VariantFast, true, ParentsRecover)
	searched := fwTestPlan(t, graphtest.LineGraph(1000, 0), VariantFast, true, ParentsAuto)
	none := fwTestPlan(t, graphtest.LineGraph(1000, 5), VariantFast, false, ParentsTrack)
	if tracked.method != parentsTracked || packed.method != parentsPacked || recovered.method != parentsFirstTight ||
		searched.method != parentsSearch || none.method != parentsNone {
		t.Fatalf("plans: methods %d %d %d %d %d", tracked.method, packed.method, recovered.method, searched.method, none.method)
	}
	// Tracked and packed parents with weights that are not all positive
	// do not come out of planAllPairs; build them directly.
	trackedZero, packedZero := tracked, packed
	trackedZero.positive, packedZero.positive = false, false

	for _, tc := range []struct {
		name string
		p    allPairsPlan
		want parentMethod
	}{
		{"tracked", tracked, parentsFirstTight},
		{"packed", packed, parentsFirstTight},
		{"tracked, zero weights", trackedZero, parentsSearch},
		{"packed, zero weights", packedZero, parentsSearch},
		{"first tight", recovered, parentsFirstTight},
		{"search", searched, parentsSearch},
		{"none", none, parentsNone},
	} {
		if got := tc.p.deriving().method; got != tc.want {
			t.Errorf("%s: deriving() gives method %d, want %d", tc.name, got, tc.want)
		}
		one := tc.p.deviceBytes()
		for _, c := range []struct {
			devices int
			budget  int64
			place   placement
		}{
			{1, one, onOneDevice},
			{2, 4 * one, inRowSlabs},
			{1, one / 2, outOfCore},
		} {
			what := fmt.Sprintf("%s on %d devices, budget %d of %d", tc.name, c.devices, c.budget, one)
			l, err := layoutAllPairs(tc.p, c.devices, c.budget, 0)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if l.place != c.place {
				t.Fatalf("%s: %s, want %s", what, l.place, c.place)
			}
			want := tc.want
			if c.place == onOneDevice {
				want = tc.p.method
			}
			if l.method != want {
				t.Errorf("%s: method %d, want %d", what, l.method, want)
			}
			if l.parents != tc.p.parents {
				t.Errorf("%s: parents %t, want %t", what, l.parents, tc.p.parents)
			}
			if c.place != onOneDevice && tc.p.parents && !strings.Contains(l.describe(), "derived") {
				t.Errorf("%s: describe %q does not say the parents are derived", what, l.describe())
			}
		}
	}
	// The deriving plan counts the reverse CSR it needs.
	if d := tracked.deriving(); d.graphBytes() < tracked.graphBytes()+8*tracked.m {
		t.Errorf("deriving plan counts %d graph bytes, the tracking one %d with %d arcs", d.graphBytes(), tracked.graphBytes(), tracked.m)
	}
}

// TestLayoutTwoDevicesWhenOneWouldDo looks at a small matrix on two
// devices whose budget holds it whole on one but not its row slabs.
func TestLayoutTwoDevicesWhenOneWouldDo(t *testing.T) {
	// One tile row: the busy slab is the whole matrix plus a panel.
	p := fwTestPlan(t, graphtest.LineGraph(100, 1), VariantFast, false, ParentsAuto)
	one := p.deviceBytes()
	l, err := layoutAllPairs(p, 2, one, 0)
	if err == nil && l.deviceBytes > one {
		t.Fatalf("budget %d: %s needing %d bytes", one, l.place, l.deviceBytes)
	}
	if err != nil || l.place != onOneDevice {
		t.Errorf("100 vertices on 2 devices with %d bytes each (the whole matrix needs %d): %s, error %v; "+
			"want the primary device in core", one, one, l.place, err)
	}
}

// TestLayoutGnutella31 checks (h), the worked example of
// docs/multi-gpu.md: Gnutella31 with a quarter of its matrix as budget.
func TestLayoutGnutella31(t *testing.T) {
	const n, m = 62586, 147892
	e := graph.NewEdgeList(n, m)
	for i := range int32(m) {
		u := i % n
		e.Add(u, (u+1+i/n)%n, 1+i%7)
	}
	p := fwTestPlan(t, e, VariantFast, false, ParentsAuto)
	if p.pitch%FastTile != 0 || p.pitch < n || p.pitch-n >= FastTile {
		t.Fatalf("pitch %d for %d vertices", p.pitch, n)
	}
	matrix := 4 * p.pitch * p.pitch
	budget := matrix / 4
	l, err := layoutAllPairs(p, 1, budget, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkOutOfCore(t, "Gnutella31", p, l, budget)
	t.Logf("Gnutella31: %s, %s of device memory for a %s matrix", l.describe(), device.FormatBytes(l.deviceBytes), device.FormatBytes(matrix))

	// The doc's count: pivot super-row and super-column (2 B n 4 bytes)
	// and four super-tiles (4 B^2 4 bytes), beside the arcs. Its largest
	// fitting B, a multiple of the tile, is a floor for the code's, which
	// keeps three super-tiles.
	graphBytes := 12*int64(m) + 8
	docBytes := func(b int64) int64 { return 2*b*p.pitch*4 + 4*b*b*4 + graphBytes }
	var docB int64
	for b := int64(FastTile); b <= p.pitch && docBytes(b) <= budget; b += FastTile {
		docB = b
	}
	if docBytes(4096) > budget {
		t.Fatalf("the doc's B = 4,096 needs %d bytes, over the %d budget", docBytes(4096), budget)
	}
	if docB < 4096 {
		t.Fatalf("the doc's count allows super-tiles of %d, under its 4,096", docB)
	}
	if l.super < 4096 || l.super < docB {
		t.Fatalf("super-tile %d, want at least 4,096 and the doc's %d", l.super, docB)
	}
	// Above the copies' break-even B >= 8 R / 55 GB/s (1,964).
	if r, bw := 13.5e12, 55e9; float64(l.super) < 8*r/bw {
		t.Fatalf("super-tile %d below the break-even %.0f", l.super, 8*r/bw)
	}
}

func TestSuperTilesCoverTheMatrix(t *testing.T) {
	check := func(what string, l allPairsLayout) {
		t.Helper()
		var next int64
		count := l.superTiles()
		for s := range count {
			first, size := l.superSpan(s)
			if first != next {
				t.Fatalf("%s: super-tile %d starts at %d, want %d", what, s, first, next)
			}
			if size <= 0 || size > l.super || (s < count-1 && size != l.super) {
				t.Fatalf("%s: super-tile %d of %d has edge %d", what, s, count, size)
			}
			if size%l.tile != 0 {
				t.Fatalf("%s: super-tile %d has edge %d, not whole tiles of %d", what, s, size, l.tile)
			}
			next = first + size
		}
		if next != l.pitch {
			t.Fatalf("%s: %d super-tiles cover %d of %d", what, count, next, l.pitch)
		}
	}
	r := rand.New(rand.NewPCG(19, 23))
	for range 2000 {
		tiles := 1 + r.Int64N(600)
		l := allPairsLayout{allPairsPlan: allPairsPlan{variant: VariantFast, tile: FastTile, pitch: tiles * FastTile}}
		l.n = l.pitch - r.Int64N(FastTile)
		l.super = (1 + r.Int64N(tiles)) * FastTile
		check(fmt.Sprintf("pitch %d, super %d", l.pitch, l.super), l)
	}
	// And as layoutAllPairs leaves them.
	for _, n := range []int32{129, 1000, 3333, 5000} {
		p := fwTestPlan(t, graphtest.LineGraph(n, 1), VariantFast, false, ParentsAuto)
		for _, div := range []int64{2, 5, 17} {
			l, err := layoutAllPairs(p, 1, p.deviceBytes()/div, 0)
			if errors.Is(err, errTooLarge) {
				continue
			}
			if err != nil {
				t.Fatalf("%d vertices: %v", n, err)
			}
			check(fmt.Sprintf("%d vertices, budget 1/%d", n, div), l)
		}
	}
}

// TestSuperTileForCapsAtThePitch: the largest super-tile is the padded
// matrix itself, however large the budget, and none fits below the
// smallest.
func TestSuperTileForCapsAtThePitch(t *testing.T) {
	for _, n := range []int32{1, 128, 129, 1000} {
		p := fwTestPlan(t, graphtest.LineGraph(n, 1), VariantFast, true, ParentsAuto)
		l := allPairsLayout{allPairsPlan: p.deriving()}
		whole := l.outOfCoreBytes(p.pitch)
		for _, budget := range []int64{whole, whole + 1, 1 << 50} {
			if got := l.superTileFor(budget); got != p.pitch {
				t.Errorf("%d vertices, budget %d: super-tile %d, want the pitch %d", n, budget, got, p.pitch)
			}
		}
		if p.pitch > p.tile {
			if got := l.superTileFor(whole - 1); got != p.pitch-p.tile {
				t.Errorf("%d vertices, budget %d: super-tile %d, want %d", n, whole-1, got, p.pitch-p.tile)
			}
		}
		if got := l.superTileFor(l.outOfCoreBytes(p.tile) - 1); got != 0 {
			t.Errorf("%d vertices: super-tile %d below the one-tile budget, want 0", n, got)
		}
		// Memory grows with the super-tile.
		for b := p.tile; b < p.pitch; b += p.tile {
			if l.outOfCoreBytes(b+p.tile) <= l.outOfCoreBytes(b) {
				t.Errorf("%d vertices: %d-vertex super-tiles need no more than %d-vertex ones", n, b+p.tile, b)
			}
		}
	}
}
