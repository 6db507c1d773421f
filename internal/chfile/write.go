package chfile

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/mapfile"
)

// Written describes a written hierarchy file: its size, SHA-256 (for a
// run manifest) and checksum of itself, as File.Checksum gives it back
// when the file is opened.
type Written = mapfile.Written

// ErrBigEndian is returned by Write and Open on a big-endian host: callers
// go without the hierarchy file.
var ErrBigEndian = mapfile.ErrBigEndian

// Write writes the hierarchy file of h, with meta (which must not hold
// MetaGraphChecksum or MetaRounds: the file adds them from h) as its
// metadata, to w. One sequential pass over the arrays: O(n + arcs), the
// SHA-256 of the bytes its largest cost.
func Write(w io.Writer, h *hierarchy.Hierarchy, meta map[string]string) (Written, error) {
	if !mapfile.LittleEndian {
		return Written{}, ErrBigEndian
	}
	n := int64(h.N)
	if int64(len(h.Rank)) != n || int64(len(h.Order)) != n {
		return Written{}, fmt.Errorf("chfile: %d ranks and %d order entries for %d vertices", len(h.Rank), len(h.Order), n)
	}
	for _, s := range []struct {
		name string
		c    *graph.CSR
		mids []int32
	}{{"Up", &h.Up, h.UpMiddle}, {"Down", &h.Down, h.DownMiddle}} {
		if int64(len(s.c.Offsets)) != n+1 || len(s.c.Targets) != len(s.c.Weights) || len(s.mids) != len(s.c.Targets) || s.c.Offsets[n] != int64(len(s.c.Targets)) {
			return Written{}, fmt.Errorf("chfile: inconsistent %s arrays", s.name)
		}
	}
	all := make(map[string]string, len(meta)+2)
	for k, v := range meta {
		all[k] = v
	}
	for _, k := range []string{MetaGraphChecksum, MetaRounds, MetaMetric} {
		if _, ok := meta[k]; ok {
			return Written{}, fmt.Errorf("chfile: metadata key %s is the file's own", k)
		}
	}
	all[MetaGraphChecksum] = h.GraphChecksum
	all[MetaRounds] = strconv.Itoa(h.Rounds)
	var flags uint32
	if h.HasMetric() {
		if len(h.UpMetric) != len(h.Up.Targets) || len(h.DownMetric) != len(h.Down.Targets) || h.Metric == "" {
			return Written{}, fmt.Errorf("chfile: inconsistent metric arrays, or a metric without a name")
		}
		flags = flagMetric
		all[MetaMetric] = h.Metric
	}
	metaJSON, err := json.Marshal(all) // keys sorted: the same hierarchy gives the same bytes
	if err != nil {
		return Written{}, fmt.Errorf("chfile: metadata: %w", err)
	}
	hd := &header{flags: flags, metaBytes: uint32(len(metaJSON)), n: n, up: int64(len(h.Up.Targets)), down: int64(len(h.Down.Targets)),
		blockBytes: mapfile.BlockBytes}
	if int64(hd.metaBytes) > maxMetaBytes {
		return Written{}, fmt.Errorf("chfile: %d bytes of metadata", len(metaJSON))
	}
	l := layoutOf(hd)
	hd.fileBytes = l.fileBytes
	prefix := make([]byte, l.data-headerBytes) // the metadata and its padding
	copy(prefix, metaJSON)
	hd.crc = mapfile.HeaderCRC(hd.encode(), crcAt, prefix)
	fixed := hd.encode()

	cw := mapfile.NewWriter(w, l.data, hd.blockBytes)
	cw.Write(fixed)
	cw.Write(prefix)
	parts := []struct {
		at    int64
		bytes []byte
	}{
		{l.rank, mapfile.BytesOf(h.Rank)},
		{l.order, mapfile.BytesOf(h.Order)},
		{l.up.offsets, mapfile.BytesOf(h.Up.Offsets)},
		{l.up.targets, mapfile.BytesOf(h.Up.Targets)},
		{l.up.weights, mapfile.BytesOf(h.Up.Weights)},
		{l.up.middles, mapfile.BytesOf(h.UpMiddle)},
		{l.down.offsets, mapfile.BytesOf(h.Down.Offsets)},
		{l.down.targets, mapfile.BytesOf(h.Down.Targets)},
		{l.down.weights, mapfile.BytesOf(h.Down.Weights)},
		{l.down.middles, mapfile.BytesOf(h.DownMiddle)},
	}
	if h.HasMetric() {
		parts = append(parts[:6], append([]struct {
			at    int64
			bytes []byte
		}{{l.up.metrics, mapfile.BytesOf(h.UpMetric)}}, parts[6:]...)...)
		parts = append(parts, struct {
			at    int64
			bytes []byte
		}{l.down.metrics, mapfile.BytesOf(h.DownMetric)})
	}
	for _, p := range parts {
		cw.PadTo(p.at)
		cw.Write(p.bytes)
	}
	cw.PadTo(l.blocks.End)
	table, bytes, sha, err := cw.Finish()
	if err != nil {
		return Written{}, fmt.Errorf("chfile: %w", err)
	}
	if bytes != l.fileBytes {
		return Written{}, fmt.Errorf("chfile: wrote %d bytes, the layout says %d", bytes, l.fileBytes)
	}
	return Written{Bytes: bytes, SHA256: sha, Checksum: mapfile.FileChecksum(fixed, table)}, nil
}
