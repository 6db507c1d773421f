package csrfile

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/mapfile"
)

// Magic opens every reload file: "PFCSR", a zero byte, and the layout
// version "v1".
const Magic = "PFCSR\x00v1"

// headerBytes is the size of the fixed header.
const headerBytes = 64

// crcAt is where the header keeps its CRC.
const crcAt = 52

// BlockBytes is the size of the blocks the data's checksums cover
// (mapfile.BlockBytes).
const BlockBytes = mapfile.BlockBytes

// Flags of the header.
const (
	flagOriginal    uint32 = 1 << 0
	flagCoordinates uint32 = 1 << 1
	// flagGeographic says the coordinates are longitude and latitude in
	// units of 10^-7 degree (graph.Vertices.Geographic); it comes with
	// flagCoordinates.
	flagGeographic uint32 = 1 << 2
	// flagMetric says the arcs carry a metric beside their weights
	// (graph.CSR.Metric), named in the metadata (MetaMetric).
	flagMetric uint32 = 1 << 3

	knownFlags = flagOriginal | flagCoordinates | flagGeographic | flagMetric
)

// MetaMetric is the metadata key naming the metric of a file with one
// ("length"): the name compute.metrics asks for it by.
const MetaMetric = "pathflow.csr.metric"

// MetaMetricUnit is the metadata key of the metric's unit ("m"), unset
// where none is known.
const MetaMetricUnit = "pathflow.csr.metric_unit"

// header is the fixed part of a reload file.
type header struct {
	flags      uint32
	n, m       int64
	blockBytes int64
	fileBytes  int64
	metaBytes  uint32
	crc        uint32
}

// encode lays h out in 64 bytes, crc included.
func (h *header) encode() []byte {
	b := make([]byte, headerBytes)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[8:], h.flags)
	binary.LittleEndian.PutUint64(b[16:], uint64(h.n))
	binary.LittleEndian.PutUint64(b[24:], uint64(h.m))
	binary.LittleEndian.PutUint64(b[32:], uint64(h.blockBytes))
	binary.LittleEndian.PutUint64(b[40:], uint64(h.fileBytes))
	binary.LittleEndian.PutUint32(b[48:], h.metaBytes)
	binary.LittleEndian.PutUint32(b[crcAt:], h.crc)
	return b
}

// decodeHeader reads the fixed header from b (at least headerBytes long).
func decodeHeader(b []byte) (*header, error) {
	if string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not a pathflow reload file (bad magic)")
	}
	h := &header{
		flags:      binary.LittleEndian.Uint32(b[8:]),
		n:          int64(binary.LittleEndian.Uint64(b[16:])),
		m:          int64(binary.LittleEndian.Uint64(b[24:])),
		blockBytes: int64(binary.LittleEndian.Uint64(b[32:])),
		fileBytes:  int64(binary.LittleEndian.Uint64(b[40:])),
		metaBytes:  binary.LittleEndian.Uint32(b[48:]),
		crc:        binary.LittleEndian.Uint32(b[crcAt:]),
	}
	switch {
	case h.flags&^knownFlags != 0:
		return nil, fmt.Errorf("unknown header flags %#x", h.flags&^knownFlags)
	case h.flags&flagGeographic != 0 && h.flags&flagCoordinates == 0:
		return nil, fmt.Errorf("header flags %#x: geographic coordinates without coordinates", h.flags)
	case h.n < 0 || h.n > 1<<31-1 || h.m < 0 || h.m > 1<<40:
		return nil, fmt.Errorf("header counts %d vertices and %d arcs", h.n, h.m)
	case h.blockBytes <= 0 || h.blockBytes%mapfile.Alignment != 0:
		return nil, fmt.Errorf("header block size %d", h.blockBytes)
	}
	return h, nil
}

// headerCRC is the CRC-32C of the fixed header, its CRC field read as
// zero, followed by the metadata.
func headerCRC(fixed, meta []byte) uint32 {
	return mapfile.HeaderCRC(fixed[:headerBytes], crcAt, meta)
}

// fileChecksum is a reload file's checksum of itself
// (mapfile.FileChecksum): it stands for all the file but the zero padding
// after the metadata, which nothing reads.
func fileChecksum(fixed, table []byte) string {
	return mapfile.FileChecksum(fixed[:headerBytes], table)
}

// layout is where each part of a file with header h lies.
type layout struct {
	data                  int64 // start of offsets: the checked data
	offsets, targets      int64
	weights, sources      int64
	metric                int64 // 0 when absent
	original, x, y        int64 // 0 when absent
	dataEnd               int64 // end of the last array
	checksums, checkCount int64
	fileBytes             int64
}

// layoutOf places the parts of a file with header h.
func layoutOf(h *header) layout {
	var l layout
	l.data = mapfile.Align(headerBytes + int64(h.metaBytes))
	p := mapfile.NewPlacer(l.data)
	place := p.Place
	l.offsets = place(8 * (h.n + 1))
	l.targets = place(4 * h.m)
	l.weights = place(4 * h.m)
	l.sources = place(4 * h.m)
	if h.flags&flagMetric != 0 {
		l.metric = place(4 * h.m)
	}
	if h.flags&flagOriginal != 0 {
		l.original = place(8 * h.n)
	}
	if h.flags&flagCoordinates != 0 {
		l.x = place(4 * h.n)
		l.y = place(4 * h.n)
	}
	l.dataEnd = p.End()
	l.checkCount = mapfile.CheckCount(l.data, l.dataEnd, h.blockBytes)
	l.checksums = l.dataEnd
	l.fileBytes = l.checksums + 4*l.checkCount
	return l
}

// blocks is the checked data of a file with layout l and header h.
func (l layout) blocks(h *header) mapfile.Blocks {
	return mapfile.Blocks{Start: l.data, End: l.dataEnd, BlockBytes: h.blockBytes, Table: l.checksums}
}
