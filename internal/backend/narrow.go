package backend

// NarrowSink adapts a producer of full rows (n values each, vertex v in
// column v) to a request with Targets or SourceTargets: each full block is
// copied into a block of the request's shape (narrowed, or ragged with
// Offsets) that sink takes over, and released once copied. A request with
// neither gets sink itself. For backends and variants that cannot leave
// the unasked columns on the device; O(cells kept) per block.
func NarrowSink(req *Request, sink Sink) Sink {
	if !req.Narrowed() {
		return sink
	}
	return func(full *Rows) error {
		out := narrowRows(req, full)
		full.Release()
		return sink(out)
	}
}

// narrowRows copies full's rows into a new block of req's shape.
func narrowRows(req *Request, full *Rows) *Rows {
	rows := full.Len()
	out := &Rows{First: full.First, Sources: full.Sources}
	cells := 0
	if req.SourceTargets != nil {
		out.Offsets = make([]int, rows+1)
		for i := range rows {
			cells += len(req.SourceTargets[full.First+i])
			out.Offsets[i+1] = cells
		}
	} else {
		out.Width = len(req.Targets)
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
		targets := req.Targets
		if req.SourceTargets != nil {
			targets = req.SourceTargets[full.First+i]
		}
		lo, _ := out.Span(i)
		base := i * full.Width
		for j, v := range targets {
			at := base + int(v)
			if out.Dist32 != nil {
				out.Dist32[lo+j] = full.Dist32[at]
			} else {
				out.Dist64[lo+j] = full.Dist64[at]
			}
			if out.Parent != nil {
				out.Parent[lo+j] = full.Parent[at]
			}
		}
	}
	return out
}
