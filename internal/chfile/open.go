package chfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/mapfile"
)

// Info is what a hierarchy file's header and metadata say, read without
// its arrays.
type Info struct {
	// N is the number of vertices.
	N int32
	// GraphChecksum is the checksum of the graph the hierarchy was built
	// from; Rounds its rounds of contraction.
	GraphChecksum string
	Rounds        int
	// Meta is all of the file's metadata, GraphChecksum and Rounds
	// included.
	Meta map[string]string
	// Bytes is the file's size.
	Bytes int64
}

// File is an opened hierarchy file.
type File struct {
	Info
	// Hierarchy's arrays are the file's bytes, mapped copy-on-write where
	// the system can (unix): opening costs neither decoding nor
	// first-touch zeroing of fresh memory, and a write to them changes
	// this process's copy only. They stay mapped for the life of the
	// process: nothing tells when the last slice of them is dropped.
	Hierarchy *hierarchy.Hierarchy
	// Checksum stands for the whole file (mapfile.FileChecksum), which
	// Open has checked every byte of: a caller that recorded
	// Written.Checksum compares the two to tell that the file is the one
	// written.
	Checksum string
}

// ReadInfo reads the header and metadata of the hierarchy file at path and
// checks them against the header's CRC and the file's size: what a caller
// needs to decide whether to open the file (its graph checksum), at the
// cost of reading its first page or so. Every error names path.
func ReadInfo(path string) (*Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hd, err := readHead(f)
	if err != nil {
		return nil, fmt.Errorf("chfile: %s: %w", path, err)
	}
	return &hd.info, nil
}

// Open maps the hierarchy file at path and checks it (see the package
// documentation): its header, its size, the CRC-32C of every block of its
// arrays on up to workers goroutines, and that its offsets span its arcs.
// The Hierarchy it gives has the file's arrays as they lie. Every error
// names path. O(file) checksum work, at memory speed when the file is in
// the page cache.
func Open(path string, workers int) (*File, error) {
	if !mapfile.LittleEndian {
		return nil, ErrBigEndian
	}
	file, err := open(path, workers)
	if err != nil {
		return nil, fmt.Errorf("chfile: %s: %w", path, err)
	}
	return file, nil
}

func open(path string, workers int) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hd, err := readHead(f)
	if err != nil {
		return nil, err
	}
	l := hd.layout
	if err := l.blocks.VerifyFile(f, workers); err != nil {
		return nil, err
	}
	b, err := mapfile.Map(f, hd.info.Bytes)
	if err != nil {
		return nil, err
	}
	n, up, down := hd.h.n, hd.h.up, hd.h.down
	h := &hierarchy.Hierarchy{
		N:             int32(n),
		Rank:          mapfile.ArrayAt[int32](b, l.rank, n),
		Order:         mapfile.ArrayAt[int32](b, l.order, n),
		GraphChecksum: hd.info.GraphChecksum,
		Rounds:        hd.info.Rounds,
	}
	h.Up, h.UpMiddle, h.UpMetric = sideAt(b, l.up, n, up)
	h.Down, h.DownMiddle, h.DownMetric = sideAt(b, l.down, n, down)
	if h.HasMetric() {
		h.Metric = hd.info.Meta[MetaMetric]
	}
	// The O(1) checks that keep the first row's and the last row's arcs
	// within their arrays; the CRCs vouch for the rest.
	for _, c := range []*graph.CSR{&h.Up, &h.Down} {
		if c.Offsets[0] != 0 || c.Offsets[n] != int64(len(c.Targets)) {
			return nil, fmt.Errorf("offsets span [%d, %d] for %d arcs", c.Offsets[0], c.Offsets[n], len(c.Targets))
		}
	}
	return &File{Info: hd.info, Hierarchy: h, Checksum: mapfile.FileChecksum(hd.fixed, b[l.blocks.Table:l.fileBytes])}, nil
}

// sideAt views one direction's arrays in b: the arcs, their middles and,
// in a file with metrics, their metrics (else nil).
func sideAt(b []byte, s side, n, arcs int64) (graph.CSR, []int32, []int32) {
	c := graph.CSR{
		N:       int32(n),
		Offsets: mapfile.ArrayAt[int64](b, s.offsets, n+1),
		Targets: mapfile.ArrayAt[int32](b, s.targets, arcs),
		Weights: mapfile.ArrayAt[int32](b, s.weights, arcs),
	}
	var metric []int32
	if s.metrics >= 0 {
		metric = mapfile.ArrayAt[int32](b, s.metrics, arcs)
	}
	return c, mapfile.ArrayAt[int32](b, s.middles, arcs), metric
}

// head is a file's header, checked, and what follows from it.
type head struct {
	h      *header
	fixed  []byte
	layout layout
	info   Info
}

// readHead reads and checks the header of f, its metadata and the padding
// after it (which the header CRC covers), and the file's size.
func readHead(f *os.File) (*head, error) {
	fixed, size, err := mapfile.ReadFixed(f, headerBytes)
	if err != nil {
		return nil, err
	}
	h, err := decodeHeader(fixed)
	if err != nil {
		return nil, err
	}
	l := layoutOf(h)
	if err := mapfile.CheckSize(h.fileBytes, l.fileBytes, size); err != nil {
		return nil, err
	}
	prefix := make([]byte, l.data-headerBytes)
	if _, err := io.ReadFull(f, prefix); err != nil {
		return nil, err
	}
	if got := mapfile.HeaderCRC(fixed, crcAt, prefix); got != h.crc {
		return nil, fmt.Errorf("header checksum %08x, the header says %08x: the file is corrupt", got, h.crc)
	}
	hd := &head{h: h, fixed: fixed, layout: l, info: Info{N: int32(h.n), Bytes: size}}
	if err := json.Unmarshal(prefix[:h.metaBytes], &hd.info.Meta); err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	hd.info.GraphChecksum = hd.info.Meta[MetaGraphChecksum]
	if hd.info.Rounds, err = strconv.Atoi(hd.info.Meta[MetaRounds]); err != nil {
		return nil, fmt.Errorf("metadata %s: %w", MetaRounds, err)
	}
	return hd, nil
}
