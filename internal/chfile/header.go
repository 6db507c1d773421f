package chfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/mapfile"
)

// Magic opens every hierarchy file: "PFCHF", a zero byte, and the layout
// version "v1".
const Magic = "PFCHF\x00v1"

// headerBytes is the size of the fixed header; crcAt is where it keeps its
// CRC.
const (
	headerBytes = 64
	crcAt       = 56
)

// Metadata keys the file adds to the caller's; the hierarchy tables
// (package tables) use the same names.
const (
	// MetaGraphChecksum holds hierarchy.Hierarchy.GraphChecksum, the
	// checksum of the graph the hierarchy was built from.
	MetaGraphChecksum = "pathflow.hierarchy.graph_checksum"
	// MetaRounds holds hierarchy.Hierarchy.Rounds.
	MetaRounds = "pathflow.hierarchy.rounds"
	// MetaMetric holds hierarchy.Hierarchy.Metric, the name of the metric
	// its arcs carry, in a file with metric arrays (flagMetric).
	MetaMetric = "pathflow.hierarchy.metric"
)

// flagMetric marks a file whose arcs carry a metric: each side's arrays
// end with an int32 metric per arc.
const flagMetric uint32 = 1

// header is the fixed part of a hierarchy file.
type header struct {
	flags      uint32
	metaBytes  uint32
	n          int64
	up, down   int64 // arcs each way
	blockBytes int64
	fileBytes  int64
	crc        uint32
}

// encode lays h out in 64 bytes, crc included.
func (h *header) encode() []byte {
	b := make([]byte, headerBytes)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[8:], h.flags)
	binary.LittleEndian.PutUint32(b[12:], h.metaBytes)
	binary.LittleEndian.PutUint64(b[16:], uint64(h.n))
	binary.LittleEndian.PutUint64(b[24:], uint64(h.up))
	binary.LittleEndian.PutUint64(b[32:], uint64(h.down))
	binary.LittleEndian.PutUint64(b[40:], uint64(h.blockBytes))
	binary.LittleEndian.PutUint64(b[48:], uint64(h.fileBytes))
	binary.LittleEndian.PutUint32(b[crcAt:], h.crc)
	return b
}

// maxArcs bounds the arc counts a header may give: far above any graph
// that fits a host, far below what would overflow the layout's arithmetic.
const maxArcs = 1 << 40

// maxMetaBytes bounds the metadata a header may announce, so that a
// damaged length is refused before anything is allocated for it.
const maxMetaBytes = 1 << 24

// decodeHeader reads the fixed header from b (at least headerBytes long)
// and checks its counts' bounds, O(1).
func decodeHeader(b []byte) (*header, error) {
	if string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not a pathflow hierarchy file (bad magic)")
	}
	h := &header{
		flags:      binary.LittleEndian.Uint32(b[8:]),
		metaBytes:  binary.LittleEndian.Uint32(b[12:]),
		n:          int64(binary.LittleEndian.Uint64(b[16:])),
		up:         int64(binary.LittleEndian.Uint64(b[24:])),
		down:       int64(binary.LittleEndian.Uint64(b[32:])),
		blockBytes: int64(binary.LittleEndian.Uint64(b[40:])),
		fileBytes:  int64(binary.LittleEndian.Uint64(b[48:])),
		crc:        binary.LittleEndian.Uint32(b[crcAt:]),
	}
	switch {
	case h.flags&^flagMetric != 0:
		return nil, fmt.Errorf("unknown header flags %#x", h.flags)
	case h.metaBytes > maxMetaBytes:
		return nil, fmt.Errorf("header metadata length %d", h.metaBytes)
	case h.n < 0 || h.n > math.MaxInt32 || h.up < 0 || h.up > maxArcs || h.down < 0 || h.down > maxArcs:
		return nil, fmt.Errorf("header counts %d vertices, %d Up and %d Down arcs", h.n, h.up, h.down)
	case h.blockBytes <= 0 || h.blockBytes%mapfile.Alignment != 0:
		return nil, fmt.Errorf("header block size %d", h.blockBytes)
	}
	return h, nil
}

// side is where one direction's arrays lie.
type side struct {
	offsets, targets, weights, middles int64
	// metrics is where the arcs' metrics lie, in a file with flagMetric;
	// -1 otherwise.
	metrics int64
}

// layout is where each part of a file with header h lies.
type layout struct {
	data        int64 // start of rank: the checked data
	rank, order int64
	up, down    side
	blocks      mapfile.Blocks
	fileBytes   int64
}

// layoutOf places the parts of a file with header h.
func layoutOf(h *header) layout {
	var l layout
	l.data = mapfile.Align(headerBytes + int64(h.metaBytes))
	p := mapfile.NewPlacer(l.data)
	l.rank = p.Place(4 * h.n)
	l.order = p.Place(4 * h.n)
	for _, s := range []struct {
		at   *side
		arcs int64
	}{{&l.up, h.up}, {&l.down, h.down}} {
		s.at.offsets = p.Place(8 * (h.n + 1))
		s.at.targets = p.Place(4 * s.arcs)
		s.at.weights = p.Place(4 * s.arcs)
		s.at.middles = p.Place(4 * s.arcs)
		s.at.metrics = -1
		if h.flags&flagMetric != 0 {
			s.at.metrics = p.Place(4 * s.arcs)
		}
	}
	l.blocks = mapfile.Blocks{Start: l.data, End: p.End(), BlockBytes: h.blockBytes, Table: p.End()}
	l.fileBytes = l.blocks.TableEnd()
	return l
}
