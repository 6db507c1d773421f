package csrfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/mapfile"
)

// Graph is an opened reload file. Its arrays are the file's bytes, mapped
// copy-on-write where the system can (unix), so opening costs neither
// decoding nor first-touch zeroing of fresh memory; a write to them
// changes this process's copy only. They stay mapped for the life of the
// process: nothing tells when the last slice of them is dropped.
type Graph struct {
	// CSR is the graph as the file holds it, the same arrays BuildCSR
	// gives for the ingested edge list.
	CSR *graph.CSR
	// Edges lists the same arcs grouped by source (Src is the file's
	// sources, Dst and Weight share the CSR's arrays): the ingested edge
	// list stably sorted by source, which gives the same CSR.
	Edges *graph.EdgeList
	// Vertices is nil when the ids are the identity and there are no
	// coordinates, as the tables reader gives them.
	Vertices *graph.Vertices
	// Meta is the metadata the file was written with.
	Meta map[string]string
	// Metric names the metric the arcs carry (CSR.Metric and Edges.Metric
	// are its values), "" for none.
	Metric string
	// Bytes is the file's size.
	Bytes int64
	// Checksum stands for the whole file: the CRC-32C of its header and
	// of its table of block checksums ("crc32c:" and 8 hex digits), which
	// Open has checked every byte it reads against. A caller that
	// recorded Written.Checksum compares the two to tell that the file is
	// the one written, without a pass over it of its own.
	Checksum string
}

// Open maps the reload file at path and checks it: its magic and header
// checksum, its size against the header (a truncated or extended file is
// refused), and the CRC-32C of every block of its arrays on up to workers
// goroutines. Every error names path. O(n + m) checksum work, at memory
// speed when the file is in the page cache; Checksum comes with it.
func Open(path string, workers int) (*Graph, error) {
	if !mapfile.LittleEndian {
		return nil, ErrBigEndian
	}
	g, err := open(path, workers)
	if err != nil {
		return nil, fmt.Errorf("csrfile: %s: %w", path, err)
	}
	return g, nil
}

func open(path string, workers int) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
	meta := make([]byte, h.metaBytes)
	if _, err := io.ReadFull(f, meta); err != nil {
		return nil, err
	}
	if got := headerCRC(fixed, meta); got != h.crc {
		return nil, fmt.Errorf("header checksum %08x, the header says %08x: the file is corrupt", got, h.crc)
	}
	g := &Graph{Bytes: size}
	if err := json.Unmarshal(meta, &g.Meta); err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	if err := l.blocks(h).VerifyFile(f, workers); err != nil {
		return nil, err
	}
	b, err := mapfile.Map(f, size)
	if err != nil {
		return nil, err
	}
	g.Checksum = fileChecksum(fixed, b[l.checksums:l.fileBytes])
	n, m := h.n, h.m
	g.CSR = &graph.CSR{
		N:       int32(n),
		Offsets: mapfile.ArrayAt[int64](b, l.offsets, n+1),
		Targets: mapfile.ArrayAt[int32](b, l.targets, m),
		Weights: mapfile.ArrayAt[int32](b, l.weights, m),
	}
	if g.CSR.Offsets[0] != 0 || g.CSR.Offsets[n] != m {
		return nil, fmt.Errorf("offsets span [%d, %d] for %d arcs", g.CSR.Offsets[0], g.CSR.Offsets[n], m)
	}
	g.Edges = &graph.EdgeList{N: int32(n), Src: mapfile.ArrayAt[int32](b, l.sources, m), Dst: g.CSR.Targets, Weight: g.CSR.Weights}
	if h.flags&flagMetric != 0 {
		g.CSR.Metric = mapfile.ArrayAt[int32](b, l.metric, m)
		g.Edges.Metric = g.CSR.Metric
		g.Metric = g.Meta[MetaMetric]
	}
	if h.flags&(flagOriginal|flagCoordinates) != 0 {
		g.Vertices = &graph.Vertices{}
		if h.flags&flagOriginal != 0 {
			g.Vertices.OriginalID = mapfile.ArrayAt[int64](b, l.original, n)
		}
		if h.flags&flagCoordinates != 0 {
			g.Vertices.X, g.Vertices.Y = mapfile.ArrayAt[int32](b, l.x, n), mapfile.ArrayAt[int32](b, l.y, n)
			g.Vertices.Geographic = h.flags&flagGeographic != 0
		}
	}
	return g, nil
}
