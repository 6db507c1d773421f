package osmroads

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// step is the length in metres of 0.001 degree of longitude on the
// equator, where the test nodes lie: R * pi / 180 / 1000 with the mean
// Earth radius R = 6371008.8 m, worked out by hand as 111.19508 m.
const step = 111.19508

// node is a test node: its id and longitude in thousandths of a degree on
// the equator, so that neighbours k apart are k steps apart.
type node struct {
	id    int64
	milli int
	tags  string
}

// extract writes an OpenStreetMap XML file of the nodes and ways (each way
// "id: ref ref ... | k=v k=v").
func extract(nodes []node, ways ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\" generator=\"hand\">\n")
	for _, n := range nodes {
		fmt.Fprintf(&b, " <node id=\"%d\" lat=\"0\" lon=\"%.3f\">", n.id, float64(n.milli)/1000)
		for _, kv := range strings.Fields(n.tags) {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&b, "<tag k=%q v=%q/>", k, v)
		}
		b.WriteString("</node>\n")
	}
	for _, w := range ways {
		head, tags, _ := strings.Cut(w, "|")
		id, refs, _ := strings.Cut(head, ":")
		fmt.Fprintf(&b, " <way id=%q>", strings.TrimSpace(id))
		for _, r := range strings.Fields(refs) {
			fmt.Fprintf(&b, "<nd ref=%q/>", r)
		}
		for _, kv := range strings.Fields(tags) {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&b, "<tag k=%q v=%q/>", k, strings.ReplaceAll(v, "_", " "))
		}
		b.WriteString("</way>\n")
	}
	b.WriteString("</osm>\n")
	return b.String()
}

// readExtract reads an XML extract held in memory.
func readExtract(t *testing.T, xml string, opts Options) *Network {
	t.Helper()
	net, err := Read(context.Background(), "test.osm", func(Pass) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(xml)), nil
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// arcsOf lists a network's arcs as "u>v metres ms way [via nodes]" over
// OpenStreetMap node ids, sorted, the intermediate nodes told from their
// coordinates.
func arcsOf(net *Network, nodes []node) []string {
	byX := map[int32]int64{}
	for _, n := range nodes {
		byX[fixed(float64(n.milli)/1000)] = n.id
	}
	var out []string
	for i := range net.Edges.M() {
		var via []int64
		for k := net.Geometry.Offsets[i]; k < net.Geometry.Offsets[i+1]; k++ {
			via = append(via, byX[net.Geometry.X[k]])
		}
		u, v := net.Vertices.OriginalID[net.Edges.Src[i]], net.Vertices.OriginalID[net.Edges.Dst[i]]
		out = append(out, fmt.Sprintf("%d>%d %dm %dms w%d via%v", u, v, net.LengthM[i], net.TimeMS[i], net.WayID[i], via))
	}
	slices.Sort(out)
	return out
}

// arc is the expected arcsOf line of an arc of steps steps at kmh.
func arc(u, v int64, steps int, kmh float64, way int64, via ...int64) string {
	metres := float64(steps) * step
	if via == nil {
		via = []int64{}
	}
	return fmt.Sprintf("%d>%d %dm %dms w%d via%v", u, v, int(math.Round(metres)), int(math.Round(metres/(kmh/3.6)*1000)), way, via)
}

// line is nodes 1..n one step apart.
func line(n int) []node {
	out := make([]node, n)
	for i := range out {
		out[i] = node{id: int64(i + 1), milli: i}
	}
	return out
}

func sorted(s ...string) []string {
	slices.Sort(s)
	return s
}

// TestProfileRulesOnHandMadeExtracts checks every rule of the car profile
// on small extracts whose arcs, lengths and times are worked out by hand.
func TestProfileRulesOnHandMadeExtracts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []node
		ways  []string
		opts  Options
		want  []string
	}{
		{"two-way chain merged into one arc each way", line(4), []string{"10: 1 2 3 4 | highway=residential maxspeed=36"}, Options{},
			sorted(arc(1, 4, 3, 36, 10, 2, 3), arc(4, 1, 3, 36, 10, 3, 2))},
		{"oneway=yes", line(3), []string{"10: 1 2 3 | highway=residential maxspeed=36 oneway=yes"}, Options{},
			sorted(arc(1, 3, 2, 36, 10, 2))},
		{"oneway=-1 runs against the way", line(3), []string{"10: 1 2 3 | highway=residential maxspeed=36 oneway=-1"}, Options{},
			sorted(arc(3, 1, 2, 36, 10, 2))},
		{"motorway implies oneway", line(2), []string{"10: 1 2 | highway=motorway maxspeed=90"}, Options{},
			sorted(arc(1, 2, 1, 90, 10))},
		{"motorway with oneway=no", line(2), []string{"10: 1 2 | highway=motorway maxspeed=90 oneway=no"}, Options{},
			sorted(arc(1, 2, 1, 90, 10), arc(2, 1, 1, 90, 10))},
		{"class speed without maxspeed", line(2), []string{"10: 1 2 | highway=residential"}, Options{},
			sorted(arc(1, 2, 1, 25, 10), arc(2, 1, 1, 25, 10))},
		{"maxspeed in mph", line(2), []string{"10: 1 2 | highway=primary maxspeed=20_mph oneway=yes"}, Options{},
			sorted(arc(1, 2, 1, 20*1.609344, 10))},
		{"maxspeed walk and none", line(3), []string{"10: 1 2 | highway=residential maxspeed=walk oneway=yes", "11: 2 3 | highway=motorway maxspeed=none"}, Options{},
			sorted(arc(1, 2, 1, 5, 10), arc(2, 3, 1, 130, 11))},
		{"maxspeed:forward and :backward", line(2), []string{"10: 1 2 | highway=primary maxspeed=50 maxspeed:backward=30"}, Options{},
			sorted(arc(1, 2, 1, 50, 10), arc(2, 1, 1, 30, 10))},
		{"access=private is closed", line(3), []string{"10: 1 2 | highway=residential access=private", "11: 2 3 | highway=residential maxspeed=36"}, Options{},
			sorted(arc(2, 3, 1, 36, 11), arc(3, 2, 1, 36, 11))},
		{"motor_vehicle=yes overrides access=no", line(2), []string{"10: 1 2 | highway=service access=no motor_vehicle=yes maxspeed=36"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(2, 1, 1, 36, 10))},
		{"construction, proposed, area and footways are not roads", line(5), []string{
			"10: 1 2 | highway=construction", "11: 2 3 | highway=proposed", "12: 3 4 | highway=residential area=yes", "13: 4 5 | highway=footway"}, Options{}, nil},
		{"a node shared by three ways", []node{{1, 0, ""}, {2, 1, ""}, {3, 2, ""}, {5, 4, ""}, {6, 5, ""}}, []string{
			"10: 1 2 3 | highway=residential maxspeed=36 oneway=yes", "11: 2 5 | highway=residential maxspeed=36 oneway=yes", "12: 6 2 | highway=residential maxspeed=36 oneway=yes"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(2, 3, 1, 36, 10), arc(2, 5, 3, 36, 11), arc(6, 2, 4, 36, 12))},
		{"a way crossing itself", []node{{1, 0, ""}, {2, 1, ""}, {3, 2, ""}, {4, 3, ""}, {5, 5, ""}}, []string{
			"10: 1 2 3 4 2 5 | highway=residential maxspeed=36 oneway=yes"}, Options{},
			// The loop 2 3 4 2 is split at 4, half-way round, so that
			// it stays a road between two vertices.
			sorted(arc(1, 2, 1, 36, 10), arc(2, 4, 2, 36, 10, 3), arc(4, 2, 2, 36, 10), arc(2, 5, 4, 36, 10))},
		{"roundabout is oneway and split half-way", []node{{1, 0, ""}, {2, 1, ""}, {3, 2, ""}, {4, 3, ""}, {5, 5, ""}}, []string{
			"10: 1 2 3 4 1 | highway=primary junction=roundabout maxspeed=36", "11: 1 5 | highway=primary maxspeed=36 oneway=yes"}, Options{},
			sorted(arc(1, 3, 2, 36, 10, 2), arc(3, 1, 4, 36, 10, 4), arc(1, 5, 5, 36, 11))},
		{"a bollard is reached, not passed", []node{{1, 0, ""}, {2, 1, "barrier=bollard"}, {3, 2, ""}}, []string{"10: 1 2 3 | highway=residential maxspeed=36"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(3, 2, 1, 36, 10))},
		{"a bollard cars may pass", []node{{1, 0, ""}, {2, 1, "barrier=bollard motor_vehicle=yes"}, {3, 2, ""}}, []string{"10: 1 2 3 | highway=residential maxspeed=36"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(2, 1, 1, 36, 10), arc(2, 3, 1, 36, 10), arc(3, 2, 1, 36, 10))},
		{"a gate is a vertex, passed", []node{{1, 0, ""}, {2, 1, "barrier=gate"}, {3, 2, ""}}, []string{"10: 1 2 3 | highway=residential maxspeed=36 oneway=yes"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(2, 3, 1, 36, 10))},
		{"a node the extract lacks cuts the road", []node{{1, 0, ""}, {2, 1, ""}, {3, 3, ""}, {4, 4, ""}}, []string{"10: 1 2 9 3 4 | highway=residential maxspeed=36 oneway=yes"}, Options{},
			sorted(arc(1, 2, 1, 36, 10), arc(3, 4, 1, 36, 10))},
		{"every node kept", line(3), []string{"10: 1 2 3 | highway=residential maxspeed=36 oneway=yes"}, Options{KeepAllNodes: true},
			sorted(arc(1, 2, 1, 36, 10), arc(2, 3, 1, 36, 10))},
		{"largest component only", []node{{1, 0, ""}, {2, 1, ""}, {3, 2, ""}, {4, 5, ""}, {5, 6, ""}, {6, 7, ""}}, []string{
			"10: 1 2 | highway=residential maxspeed=36", "11: 4 5 | highway=residential maxspeed=36", "12: 5 6 | highway=residential maxspeed=36", "13: 3 2 | highway=residential maxspeed=36 oneway=yes"},
			Options{LargestComponent: true},
			sorted(arc(4, 5, 1, 36, 11), arc(5, 4, 1, 36, 11), arc(5, 6, 1, 36, 12), arc(6, 5, 1, 36, 12))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := readExtract(t, extract(tc.nodes, tc.ways...), tc.opts)
			if got := arcsOf(net, tc.nodes); !slices.Equal(got, tc.want) {
				t.Errorf("arcs\n got %q\nwant %q", got, tc.want)
			}
			if !slices.Equal(net.Edges.Weight, net.TimeMS) {
				t.Errorf("weights %v are not the travel times %v", net.Edges.Weight, net.TimeMS)
			}
			checkVertices(t, net)
		})
	}
}

// checkVertices checks that the vertices are the arcs' ends, numbered in
// increasing node id, with their nodes' coordinates.
func checkVertices(t *testing.T, net *Network) {
	t.Helper()
	vs := net.Vertices
	if !vs.Geographic || len(vs.OriginalID) != int(net.Edges.N) || len(vs.X) != int(net.Edges.N) {
		t.Fatalf("vertices %+v for %d", vs, net.Edges.N)
	}
	if !slices.IsSorted(vs.OriginalID) {
		t.Errorf("vertex ids %v not increasing", vs.OriginalID)
	}
	used := make([]bool, net.Edges.N)
	for i := range net.Edges.M() {
		used[net.Edges.Src[i]], used[net.Edges.Dst[i]] = true, true
	}
	for v, u := range used {
		if !u {
			t.Errorf("vertex %d (node %d) has no arc", v, vs.OriginalID[v])
		}
	}
}

// TestLengthWeight checks that input.osm.weight: length puts the lengths
// in the weights and keeps the times.
func TestLengthWeight(t *testing.T) {
	net := readExtract(t, extract(line(3), "10: 1 2 3 | highway=residential maxspeed=36"), Options{Weight: Length})
	if !slices.Equal(net.Edges.Weight, net.LengthM) || slices.Equal(net.TimeMS, net.LengthM) {
		t.Errorf("weights %v, lengths %v, times %v", net.Edges.Weight, net.LengthM, net.TimeMS)
	}
	if _, err := Read(context.Background(), "x", nil, Options{Weight: "speed"}); err == nil {
		t.Error("an unknown weight was accepted")
	}
}

// TestComponentsAreCounted checks the component statistics whether or
// not the smaller ones are dropped (every node kept: components of three
// and two vertices).
func TestComponentsAreCounted(t *testing.T) {
	xml := extract(line(5), "10: 1 2 3 | highway=residential", "11: 4 5 | highway=residential")
	for _, largest := range []bool{false, true} {
		s := readExtract(t, xml, Options{LargestComponent: largest, KeepAllNodes: true}).Stats
		dropped := int64(0)
		if largest {
			dropped = 2
		}
		if s.Components != 2 || !slices.Equal(s.ComponentSizes, []int64{3, 2}) || s.DroppedVertices != dropped {
			t.Errorf("largest only %v: %+v", largest, s)
		}
	}
}
