package formats

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
)

// SNAPOptions says how ReadSNAP turns an edge list into arcs.
type SNAPOptions struct {
	// Directed keeps each line as one arc u -> v. When false, each line
	// u v also adds the reverse arc v -> u, right after it and with the
	// same weight; a self-loop u u adds a single arc.
	Directed bool
	// Weighting picks the arc weights; the zero value uses the file's
	// third column when present and 1 otherwise.
	Weighting Weighting
	// Lo, Hi and Seed parameterise WeightHash (see HashWeight); Lo <= Hi.
	Lo, Hi int32
	Seed   uint64
	// IgnoreHeaderCounts skips the check of the "# Nodes: N Edges: M"
	// header against the file, for files whose header is known to be off.
	IgnoreHeaderCounts bool
}

// ReadSNAP reads a SNAP edge list, plain or gzip-compressed, from r; name is
// used in error messages only.
//
// Lines starting with '#' are comments; one of them may be the header
// "# Nodes: N Edges: M". Other lines are "FromNodeId ToNodeId" or
// "FromNodeId ToNodeId Weight", fields separated by spaces or tabs, every
// line with the same number of fields. Ids are arbitrary integers in
// 0..2^63-1; the weight is an int32. When the header is present (and
// IgnoreHeaderCounts is false), the number of edge lines must be M and the
// number of distinct ids N. (SNAP's N counts ids in use, not the largest id
// plus one: p2p-Gnutella04 declares 10,876 nodes and has ids up to 10,878.)
//
// Ids are renumbered densely in ascending order of the original id: the
// smallest id becomes vertex 0. Vertices.OriginalID maps back. Arcs keep
// the file order (see SNAPOptions.Directed for the reverse arcs).
//
// Every problem is reported as a *ParseError naming the line. O(M log M)
// time at worst (O(M + largest id) when ids are dense enough for a lookup
// table); memory about 20 bytes per edge line while reading, then the
// result.
func ReadSNAP(r io.Reader, name string, opts SNAPOptions) (*graph.EdgeList, *graph.Vertices, error) {
	if opts.Weighting < WeightFromFile || opts.Weighting > WeightHash {
		return nil, nil, fmt.Errorf("formats: %s: unknown weighting %v", name, opts.Weighting)
	}
	if opts.Weighting == WeightHash && opts.Lo > opts.Hi {
		return nil, nil, fmt.Errorf("formats: %s: hash weighting needs lo <= hi, have %d > %d", name, opts.Lo, opts.Hi)
	}
	// The shortest edge line, "0 1\n", has 4 bytes.
	in, limit, err := openText(r, name, 4)
	if err != nil {
		return nil, nil, err
	}
	s := &snapReader{name: name, readWeights: opts.Weighting == WeightFromFile, limit: limit}
	err = scanLines(newLineChunks(in, chunkSize), name, &s.line, func(chunk []byte) error {
		return eachLine(chunk, &s.line, s.parseLine)
	})
	if err != nil {
		return nil, nil, err
	}
	return s.build(opts)
}

// snapReader is the state of ReadSNAP: the edge lines in file order, with
// their original ids.
type snapReader struct {
	name        string
	line        int64
	readWeights bool
	src, dst    []int64
	weight      []int32 // the weight column, when read
	fields      int     // fields per edge line, set by the first one
	fieldsLine  int64   // the line that set fields
	maxID       int64
	limit       int64 // preallocation bound
	// The "# Nodes: N Edges: M" header, when seen.
	headerLine       int64
	headerN, headerM int64
}

func (s *snapReader) parseLine(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	if line[0] == '#' {
		return s.commentLine(line)
	}
	var store [4][]byte
	f, fits := splitFields(line, store[:])
	if !fits || len(f) < 2 || len(f) > 3 {
		return lineErr(s.name, s.line, "edge line must be \"FromNodeId ToNodeId [Weight]\"")
	}
	if s.fields == 0 {
		s.fields, s.fieldsLine = len(f), s.line
		if s.headerLine != 0 && len(s.src) == 0 {
			c := int(min(s.headerM, s.limit))
			s.src, s.dst = make([]int64, 0, c), make([]int64, 0, c)
			if s.readWeights && len(f) == 3 {
				s.weight = make([]int32, 0, c)
			}
		}
	} else if len(f) != s.fields {
		return lineErr(s.name, s.line, "%d fields, but line %d has %d", len(f), s.fieldsLine, s.fields)
	}
	var ends [2]int64
	for k := range ends {
		id, st := parseInt(f[k])
		if st == intSyntax {
			return lineErr(s.name, s.line, "node id %s is not an integer", quote(f[k]))
		}
		if st == intRange || id < 0 {
			return lineErr(s.name, s.line, "node id %s outside 0..%d", quote(f[k]), int64(math.MaxInt64))
		}
		ends[k] = id
		s.maxID = max(s.maxID, id)
	}
	if s.readWeights && len(f) == 3 {
		w, st := parseInt32(f[2])
		if st == intSyntax {
			return lineErr(s.name, s.line, "weight %s is not an integer", quote(f[2]))
		}
		if st == intRange {
			return lineErr(s.name, s.line, "weight %s outside the int32 range", quote(f[2]))
		}
		s.weight = append(s.weight, w)
	}
	s.src = append(s.src, ends[0])
	s.dst = append(s.dst, ends[1])
	return nil
}

// commentLine looks for the "Nodes: N Edges: M" header in a comment.
func (s *snapReader) commentLine(line []byte) error {
	n, hasN, errN := headerCount(line, "Nodes:")
	m, hasM, errM := headerCount(line, "Edges:")
	if !hasN && !hasM {
		return nil
	}
	switch {
	case s.headerLine != 0:
		return lineErr(s.name, s.line, "second Nodes/Edges header (the first is line %d)", s.headerLine)
	case !hasN || !hasM:
		return lineErr(s.name, s.line, `header must be "# Nodes: N Edges: M"`)
	case errN != nil:
		return lineErr(s.name, s.line, "Nodes: %v", errN)
	case errM != nil:
		return lineErr(s.name, s.line, "Edges: %v", errM)
	}
	s.headerLine, s.headerN, s.headerM = s.line, n, m
	return nil
}

// headerCount finds key in line and parses the non-negative count after it.
func headerCount(line []byte, key string) (count int64, found bool, err error) {
	at := bytes.Index(line, []byte(key))
	if at < 0 {
		return 0, false, nil
	}
	rest := line[at+len(key):]
	i := 0
	for i < len(rest) && isBlank(rest[i]) {
		i++
	}
	j := i
	for j < len(rest) && !isBlank(rest[j]) {
		j++
	}
	v, st := parseInt(rest[i:j])
	if st != intOK || v < 0 {
		return 0, true, fmt.Errorf("count %s is not a non-negative integer", quote(rest[i:j]))
	}
	return v, true, nil
}

// build checks the header counts, renumbers the ids and makes the arcs.
func (s *snapReader) build(opts SNAPOptions) (*graph.EdgeList, *graph.Vertices, error) {
	if s.headerLine != 0 && !opts.IgnoreHeaderCounts && int64(len(s.src)) != s.headerM {
		return nil, nil, lineErr(s.name, s.headerLine, "the header declares %d edges, the file has %d edge lines", s.headerM, len(s.src))
	}
	ids, index := s.renumber()
	if s.headerLine != 0 && !opts.IgnoreHeaderCounts && int64(len(ids)) != s.headerN {
		return nil, nil, lineErr(s.name, s.headerLine, "the header declares %d nodes, the edges use %d distinct ids", s.headerN, len(ids))
	}
	if len(ids) > math.MaxInt32 {
		return nil, nil, &ParseError{File: s.name, Msg: fmt.Sprintf("%d distinct ids: more than 2^31-1 vertices", len(ids))}
	}
	arcs := len(s.src)
	if !opts.Directed {
		for i := range s.src {
			if s.src[i] != s.dst[i] {
				arcs++
			}
		}
	}
	e := graph.NewEdgeList(int32(len(ids)), arcs)
	for i := range s.src {
		u, v := s.src[i], s.dst[i]
		var w int32 = 1
		switch {
		case opts.Weighting == WeightHash:
			w = HashWeight(u, v, opts.Lo, opts.Hi, opts.Seed)
		case s.weight != nil:
			w = s.weight[i]
		}
		du, dv := index(u), index(v)
		e.Add(du, dv, w)
		if !opts.Directed && u != v {
			e.Add(dv, du, w)
		}
	}
	return e, &graph.Vertices{OriginalID: ids}, nil
}

// renumber returns the distinct ids in ascending order and the map from an
// original id to its position. Ids dense enough (largest id under twice
// the number of endpoints) use a lookup table, O(M + largest id);
// others a sort and binary search, O(M log M).
func (s *snapReader) renumber() (ids []int64, index func(int64) int32) {
	ends := 2 * int64(len(s.src))
	if len(s.src) == 0 {
		return []int64{}, nil
	}
	if s.maxID < 2*ends+1024 {
		table := make([]int32, s.maxID+1)
		for i := range s.src {
			table[s.src[i]] = 1
			table[s.dst[i]] = 1
		}
		for id, used := range table {
			if used != 0 {
				table[id] = int32(len(ids))
				ids = append(ids, int64(id))
			}
		}
		return ids, func(id int64) int32 { return table[id] }
	}
	ids = make([]int64, 0, ends)
	ids = append(append(ids, s.src...), s.dst...)
	slices.Sort(ids)
	ids = slices.Clip(slices.Compact(ids))
	return ids, func(id int64) int32 {
		at, _ := slices.BinarySearch(ids, id)
		return int32(at)
	}
}
