package backend

import "github.com/pathflow/pathflow/internal/results"

// NarrowBlock copies the cells of r's targets out of full, a block of full
// rows (n wide) of r's sources, into a new block shaped as a backend
// answering r hands over: rows len(Targets) wide, or ragged for
// SourceTargets. full stays the caller's to release. A request without
// targets gets full itself back. O(cells of the new block).
func (r *Request) NarrowBlock(full *results.Rows) *results.Rows {
	if !r.Narrowed() {
		return full
	}
	rows := full.Len()
	out := &results.Rows{First: full.First, Sources: full.Sources}
	cells := 0
	if r.SourceTargets != nil {
		out.Offsets = make([]int, rows+1)
		for i := range rows {
			cells += len(r.SourceTargets[full.First+i])
			out.Offsets[i+1] = cells
		}
	} else {
		out.Width = len(r.Targets)
		cells = rows * out.Width
	}
	if full.Dist32 != nil {
		out.Dist32 = make([]int32, cells)
	} else {
		out.Dist64 = make([]int64, cells)
	}
	if full.Parent != nil {
		out.Parent = make([]int32, cells)
	}
	for i := range rows {
		targets := r.Targets
		if r.SourceTargets != nil {
			targets = r.SourceTargets[full.First+i]
		}
		at, _ := out.Span(i)
		base := i * full.Width
		for j, v := range targets {
			k := base + int(v)
			if full.Dist32 != nil {
				out.Dist32[at+j] = full.Dist32[k]
			} else {
				out.Dist64[at+j] = full.Dist64[k]
			}
			if full.Parent != nil {
				out.Parent[at+j] = full.Parent[k]
			}
		}
	}
	return out
}

// NarrowSink adapts a producer of full rows (n values each, vertex v in
// column v) to a request with Targets or SourceTargets: each full block is
// narrowed by NarrowBlock into a block that sink takes over, and released
// once copied. A request with neither gets sink itself. For backends and
// variants that cannot leave the unasked columns on the device.
func NarrowSink(req *Request, sink results.Sink) results.Sink {
	if !req.Narrowed() {
		return sink
	}
	return func(full *results.Rows) error {
		out := req.NarrowBlock(full)
		full.Release()
		return sink(out)
	}
}
