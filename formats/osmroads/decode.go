package osmroads

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"
	"github.com/paulmach/osm/osmxml"

	"github.com/pathflow/pathflow/formats"
)

// encoding is how an extract's bytes hold its elements.
type encoding int

const (
	encodingPBF encoding = iota
	encodingXML
)

func (e encoding) String() string {
	if e == encodingPBF {
		return "PBF"
	}
	return "XML"
}

// decompress returns the extract's own bytes and their encoding: PBF by
// its first block header, XML otherwise, through gzip or bzip2 where the
// magic bytes say so (PBF compresses its blocks itself).
func decompress(r io.Reader) (io.Reader, encoding, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(4)
	var in io.Reader = br
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, 0, err
		}
		in = bufio.NewReaderSize(zr, 1<<16)
	case bytes.HasPrefix(head, []byte("BZh")):
		in = bufio.NewReaderSize(bzip2.NewReader(br), 1<<16)
	}
	if peek, _ := in.(*bufio.Reader).Peek(15); formats.IsOSMPBF(peek) {
		return in, encodingPBF, nil
	}
	return in, encodingXML, nil
}

// scanWays calls each, in file order, for every way that keep accepts.
// keep runs inside the PBF decoders, on up to workers goroutines at once:
// it must be safe for concurrent use. A way passed to each is each's to
// keep.
func scanWays(ctx context.Context, r io.Reader, workers int, keep func(*osm.Way) bool, each func(*osm.Way)) error {
	in, enc, err := decompress(r)
	if err != nil {
		return err
	}
	if enc == encodingXML {
		return scanXML(ctx, in, func(o osm.Object) {
			if w, ok := o.(*osm.Way); ok && keep(w) {
				each(w)
			}
		})
	}
	blocks := newBlockTracker(in)
	s := osmpbf.New(ctx, blocks, workers)
	defer s.Close()
	s.SkipNodes, s.SkipRelations = true, true
	s.FilterWay = keep
	for s.Scan() {
		if w, ok := s.Object().(*osm.Way); ok {
			each(w)
		}
	}
	return pbfError(s, blocks)
}

// scanNodes calls each for every node of the extract. For PBF, each runs
// inside the decoders, on up to workers goroutines at once, in no
// particular order: it must be safe for concurrent use and must not keep
// the node, whose memory is reused.
func scanNodes(ctx context.Context, r io.Reader, workers int, each func(*osm.Node)) error {
	in, enc, err := decompress(r)
	if err != nil {
		return err
	}
	if enc == encodingXML {
		return scanXML(ctx, in, func(o osm.Object) {
			if n, ok := o.(*osm.Node); ok {
				each(n)
			}
		})
	}
	blocks := newBlockTracker(in)
	s := osmpbf.New(ctx, blocks, workers)
	defer s.Close()
	s.SkipWays, s.SkipRelations = true, true
	s.FilterNode = func(n *osm.Node) bool {
		each(n)
		return false // handled: nothing to hand over in order
	}
	for s.Scan() {
	}
	return pbfError(s, blocks)
}

// pbfError returns the scanner's error naming the offset of the block that
// failed: the scanner's own for a block that did not decode, the framing's
// for a block the file cut short (the scanner gives no offset for a
// failed read).
func pbfError(s *osmpbf.Scanner, blocks *blockTracker) error {
	err := s.Err()
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	offset := s.FullyScannedBytes()
	if offset == 0 {
		offset = blocks.start
	}
	return &BlockError{Offset: offset, Err: err}
}

// BlockError is a PBF block that could not be read: truncated, corrupt or
// not OpenStreetMap data.
type BlockError struct {
	// Offset is the byte offset of the file at which the bad block
	// starts, as far as the blocks before it tell.
	Offset int64
	Err    error
}

func (e *BlockError) Error() string {
	return fmt.Sprintf("PBF block at byte offset %d: %v", e.Offset, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

// scanXML calls each for every element of an XML extract, in file order.
func scanXML(ctx context.Context, r io.Reader, each func(osm.Object)) error {
	s := osmxml.New(ctx, r)
	defer s.Close()
	for s.Scan() {
		each(s.Object())
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("XML: %w", err)
	}
	return nil
}
