package input

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// generatorParams are the defaults of each generator; a spec overrides
// them by name.
var generatorParams = map[string]map[string]string{
	"grid":          {"side": "32", "lo": "1", "hi": "1000", "seed": "1"},
	"random-degree": {"n": "1000000", "k": "7", "lo": "1", "hi": "1000", "seed": "1"},
	"erdos-renyi":   {"n": "2048", "p": "0.05", "lo": "1", "hi": "100", "seed": "1"},
	// road is synthetic: a jittered grid with arterials and highways and
	// travel-time weights (internal/generate.Road), not a real network.
	"road": {"side": "1024", "seed": "1", "local": "0.25"},
}

// quietDefaults are parameters added after specs without them were in use:
// at their default they stay out of the canonical spec, so older specs
// keep their names and checksums.
var quietDefaults = map[string]map[string]bool{"road": {"local": true}}

// Generate builds the graph a spec such as "grid:side=512,hi=1000" or
// "random-degree:n=1000000,k=7" describes. Generators are deterministic for
// a seed, so the spec itself stands in for the input checksum.
func Generate(spec string) (*LoadedGraph, error) {
	return generateWithin(spec, Footprint{})
}

// generateWithin is Generate for a stage of footprint fp: a graph
// whose run would not fit this machine's memory is refused with a
// *NotEnoughMemoryError before it is generated.
func generateWithin(spec string, fp Footprint) (*LoadedGraph, error) {
	start := time.Now()
	kind, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	defaults, ok := generatorParams[kind]
	if !ok {
		return nil, fmt.Errorf("generator %q: want grid, random-degree, erdos-renyi or road", kind)
	}
	params := maps.Clone(defaults)
	if args != "" {
		for _, kv := range strings.Split(args, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if _, known := defaults[k]; !ok || !known {
				return nil, fmt.Errorf("generator %s: %q is not one of its name=value parameters (%s)", kind, kv, paramNames(defaults))
			}
			params[k] = v
		}
	}
	p := paramReader{kind: kind, params: params}
	seed := uint64(p.int("seed"))
	var lo, hi int32
	if kind != "road" {
		lo, hi = int32(p.int("lo")), int32(p.int("hi"))
	}
	if p.err == nil {
		n, m := generatedSize(kind, &p)
		if err := CheckMemory(fp, "generated graph "+spec, n, m, true); err != nil {
			return nil, err
		}
	}
	var (
		e        *graph.EdgeList
		vertices *graph.Vertices
		err      error
	)
	switch kind {
	case "grid":
		side := p.int("side")
		if p.err == nil && (side < 1 || side > 46340) {
			p.err = fmt.Errorf("generator grid: side %d is outside 1..46340", side)
		}
		if p.err == nil {
			e, err = generate.Grid(int32(side), lo, hi, seed)
			vertices = gridCoordinates(int32(side))
		}
	case "random-degree":
		n := p.int("n")
		if p.err == nil {
			e, err = generate.RandomDegree(int32(n), p.int("k"), lo, hi, seed)
		}
	case "road":
		side := p.int("side")
		if p.err == nil && (side < 1 || side > 46340) {
			p.err = fmt.Errorf("generator road: side %d is outside 1..46340", side)
		}
		local := p.float("local")
		if p.err == nil && (local < 0 || local > 1) {
			p.err = fmt.Errorf("generator road: local %v is outside 0..1", local)
		}
		if p.err == nil {
			e, vertices, err = generate.RoadOf(generate.RoadSpec{Side: int32(side), Seed: seed, Local: local})
		}
	case "erdos-renyi":
		n, prob := p.int("n"), p.float("p")
		if p.err == nil {
			e, err = generate.ErdosRenyi(int32(n), prob, lo, hi, seed)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		return nil, err
	}
	canonical := canonicalSpec(kind, params)
	sum := sha256.Sum256([]byte(canonical))
	return &LoadedGraph{
		Edges: e, Vertices: vertices, File: canonical, Name: canonical, SHA256: hex.EncodeToString(sum[:]),
		Format: string(formats.KindGenerated), Directed: true, Weighting: "generated", Elapsed: time.Since(start),
	}, nil
}

// generatedSize returns the vertices and (about) the arcs of the graph
// kind and p describe, before generating it: exact for grid and
// random-degree, the expected count for erdos-renyi and a lower bound for
// road (a connected street grid keeps at least a tree, an arc each way).
// Parameters out of range give 0, 0, leaving the generator to refuse them.
func generatedSize(kind string, p *paramReader) (n, m int64) {
	switch kind {
	case "grid", "road":
		side := int64(p.int("side"))
		if side < 1 || side > 46340 {
			return 0, 0
		}
		n = side * side
		if kind == "grid" {
			return n, 4 * side * (side - 1)
		}
		return n, 2 * (n - 1)
	case "random-degree":
		n, k := int64(p.int("n")), int64(p.int("k"))
		if n < 1 || k < 1 {
			return max(n, 0), 0
		}
		return n, int64(min(float64(n)*float64(k), 1<<62))
	case "erdos-renyi":
		n, prob := int64(p.int("n")), p.float("p")
		if n < 1 || prob <= 0 || prob > 1 {
			return max(n, 0), 0
		}
		return n, int64(min(float64(n)*float64(n-1)*prob, 1<<62))
	}
	return 0, 0
}

// gridCoordinates places vertex r*side + c of a generated grid at x = c,
// y = r; its original id is its dense id.
func gridCoordinates(side int32) *graph.Vertices {
	n := int(side) * int(side)
	vs := &graph.Vertices{X: make([]int32, n), Y: make([]int32, n)}
	for v := range n {
		vs.X[v], vs.Y[v] = int32(v%int(side)), int32(v/int(side))
	}
	return vs
}

func paramNames(m map[string]string) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// canonicalSpec renders kind and every parameter in name order.
func canonicalSpec(kind string, params map[string]string) string {
	parts := make([]string, 0, len(params))
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if quietDefaults[kind][k] && params[k] == generatorParams[kind][k] {
			continue
		}
		parts = append(parts, k+"="+params[k])
	}
	return kind + ":" + strings.Join(parts, ",")
}

// paramReader parses generator parameters, keeping the first error.
type paramReader struct {
	kind   string
	params map[string]string
	err    error
}

func (p *paramReader) int(name string) int {
	v, err := strconv.Atoi(p.params[name])
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("generator %s: %s=%q is not an integer", p.kind, name, p.params[name])
	}
	return v
}

func (p *paramReader) float(name string) float64 {
	v, err := strconv.ParseFloat(p.params[name], 64)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("generator %s: %s=%q is not a number", p.kind, name, p.params[name])
	}
	return v
}
