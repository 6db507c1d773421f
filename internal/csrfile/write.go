package csrfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/mapfile"
)

// ErrBigEndian is returned by Write and Open on a big-endian host, whose
// arrays cannot be the file's bytes: callers go without the reload file.
var ErrBigEndian = mapfile.ErrBigEndian

// Written describes a written reload file: its size, SHA-256 (for a run
// manifest) and checksum of itself, as Graph.Checksum gives it back when
// the file is opened.
type Written = mapfile.Written

// Write writes the reload file of the graph g, with the vertex table vs
// (nil: identity ids, no coordinates; Geographic kept) and meta as its metadata, to w.
// vs's arrays, when set, must have g.N entries. One sequential pass over
// the arrays: O(n + m), the SHA-256 of the bytes its largest cost.
func Write(w io.Writer, g *graph.CSR, vs *graph.Vertices, meta map[string]string) (Written, error) {
	if !mapfile.LittleEndian {
		return Written{}, ErrBigEndian
	}
	n := int64(g.N)
	if int64(len(g.Offsets)) != n+1 || len(g.Weights) != len(g.Targets) || g.Offsets[n] != int64(len(g.Targets)) {
		return Written{}, errors.New("csrfile: inconsistent CSR arrays")
	}
	h := &header{n: n, m: int64(len(g.Targets)), blockBytes: BlockBytes}
	if g.Metric != nil {
		if len(g.Metric) != len(g.Targets) || meta[MetaMetric] == "" {
			return Written{}, fmt.Errorf("csrfile: %d metric values for %d arcs, named %q in the metadata (%s)", len(g.Metric), len(g.Targets), meta[MetaMetric], MetaMetric)
		}
		h.flags |= flagMetric
	}
	if vs != nil && vs.OriginalID != nil {
		if int64(len(vs.OriginalID)) != n {
			return Written{}, fmt.Errorf("csrfile: %d original ids for %d vertices", len(vs.OriginalID), n)
		}
		h.flags |= flagOriginal
	}
	if vs.HasCoordinates() {
		if int64(len(vs.X)) != n || int64(len(vs.Y)) != n {
			return Written{}, fmt.Errorf("csrfile: %d x and %d y coordinates for %d vertices", len(vs.X), len(vs.Y), n)
		}
		h.flags |= flagCoordinates
	}
	if vs != nil && vs.Geographic {
		if err := vs.CheckGeographic(); err != nil {
			return Written{}, fmt.Errorf("csrfile: %w", err)
		}
		h.flags |= flagGeographic
	}
	metaJSON, err := json.Marshal(meta) // keys sorted: the same graph gives the same bytes
	if err != nil {
		return Written{}, fmt.Errorf("csrfile: metadata: %w", err)
	}
	h.metaBytes = uint32(len(metaJSON))
	l := layoutOf(h)
	h.fileBytes = l.fileBytes
	fixed := h.encode()
	h.crc = headerCRC(fixed, metaJSON)
	fixed = h.encode()

	cw := mapfile.NewWriter(w, l.data, h.blockBytes)
	cw.Write(fixed)
	cw.Write(metaJSON)
	parts := []struct {
		at    int64
		bytes []byte
	}{
		{l.offsets, mapfile.BytesOf(g.Offsets)},
		{l.targets, mapfile.BytesOf(g.Targets)},
		{l.weights, mapfile.BytesOf(g.Weights)},
	}
	for _, p := range parts {
		cw.PadTo(p.at)
		cw.Write(p.bytes)
	}
	cw.PadTo(l.sources)
	writeSources(cw, g)
	if h.flags&flagMetric != 0 {
		cw.PadTo(l.metric)
		cw.Write(mapfile.BytesOf(g.Metric))
	}
	if h.flags&flagOriginal != 0 {
		cw.PadTo(l.original)
		cw.Write(mapfile.BytesOf(vs.OriginalID))
	}
	if h.flags&flagCoordinates != 0 {
		cw.PadTo(l.x)
		cw.Write(mapfile.BytesOf(vs.X))
		cw.PadTo(l.y)
		cw.Write(mapfile.BytesOf(vs.Y))
	}
	cw.PadTo(l.dataEnd)
	table, bytes, sha, err := cw.Finish()
	if err != nil {
		return Written{}, fmt.Errorf("csrfile: %w", err)
	}
	if bytes != l.fileBytes || int64(len(table)) != 4*l.checkCount {
		return Written{}, fmt.Errorf("csrfile: wrote %d bytes and %d checksums, the layout says %d and %d", bytes, len(table)/4, l.fileBytes, l.checkCount)
	}
	return Written{Bytes: bytes, SHA256: sha, Checksum: fileChecksum(fixed, table)}, nil
}

// writeSources writes the tail of every arc, row by row, from g's offsets.
func writeSources(cw *mapfile.Writer, g *graph.CSR) {
	buf := make([]int32, 0, 1<<16)
	for u := range g.N {
		for range g.Offsets[u+1] - g.Offsets[u] {
			if len(buf) == cap(buf) {
				cw.Write(mapfile.BytesOf(buf))
				buf = buf[:0]
			}
			buf = append(buf, u)
		}
	}
	cw.Write(mapfile.BytesOf(buf))
}
