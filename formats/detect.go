package formats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// Detection is what Detect concluded about an input.
type Detection struct {
	// Kind is the format; "" when nothing decided.
	Kind Kind
	// Gzip is true when the bytes are gzip-compressed (by their magic).
	Gzip bool
	// Rule says which rule decided, for logs: "content: 'p sp' line",
	// "name: .gr (content: no data line)".
	Rule string
}

// detectHead is how much (decompressed) text Detect looks at: many lines of
// any graph format, however long its comment block.
const detectHead = 64 << 10

// Detect tells the format of an input from its content first and its name
// only to break ties. r is read from the start (up to 64 KiB of text),
// size is the input's size in bytes (-1 when unknown) and name its file
// name. Each rule is asked of the formats of the registry in its order
// (registry.go holds each format's part). The rules, in order:
//
//  1. gzip by its magic bytes 1f 8b: the rest looks at the decompressed text;
//  2. Arrow IPC ("ARROW1") and Parquet ("PAR1") by their magic, and
//     OpenStreetMap: PBF by its first block header ("OSMHeader"), XML by
//     its <osm> element;
//  3. binary n/m/triple when the header's n and m are non-negative and
//     8 + 12m is exactly size (never for gzip, whose size says nothing);
//  4. text by its first line that is not blank: "p sp" (DIMACS), "p aux sp
//     co" (coordinates), an "a" arc line (DIMACS), "U V [W]" integers or a
//     "# Nodes:" header (SNAP);
//  5. the name's extension (ByName), when the content left it open: .gr,
//     .co, .txt, .tsv, .edges, .el, .bin, .pbf, .osm, .osm.bz2 (bzip2,
//     whose first block may be longer than what is read here), .arrow,
//     .parquet, .feather;
//  6. comment lines only: 'c' says DIMACS, '#' says SNAP.
//
// A Detection with Kind "" and a nil error means no rule decided. Errors
// are those of reading r.
func Detect(r io.Reader, size int64, name string) (Detection, error) {
	head, zipped, err := readHead(r)
	if err != nil {
		return Detection{}, err
	}
	det := sniff(head, size, zipped)
	if det.Kind == "" || det.weak {
		if f, ext, ok := ByName(name); ok {
			det.Kind, det.Rule = f.Kind, fmt.Sprintf("name: %s (%s)", ext, det.Rule)
		}
	}
	if zipped {
		det.Rule += ", gzip by magic bytes"
	}
	return Detection{Kind: det.Kind, Gzip: zipped, Rule: det.Rule}, nil
}

// readHead returns the first detectHead bytes of r's content, decompressed
// when r is gzip.
func readHead(r io.Reader) (head []byte, zipped bool, err error) {
	raw := make([]byte, detectHead)
	n, err := io.ReadFull(r, raw)
	if err != nil && !isShort(err) {
		return nil, false, fmt.Errorf("formats: reading the first bytes: %w", err)
	}
	raw = raw[:n]
	if !bytes.HasPrefix(raw, gzipMagic) {
		return raw, false, nil
	}
	zr, err := openMaybeGzip(io.MultiReader(bytes.NewReader(raw), r))
	if err != nil {
		return nil, true, fmt.Errorf("formats: %w", err)
	}
	head = make([]byte, detectHead)
	n, err = io.ReadFull(zr, head)
	if err != nil && !isShort(err) && !errors.Is(err, gzip.ErrChecksum) {
		return nil, true, fmt.Errorf("formats: gzip data: %w", err)
	}
	return head[:n], true, nil
}

// sniffed is a verdict of the content rules; weak verdicts (comment lines
// only, or nothing) give way to the name.
type sniffed struct {
	Kind Kind
	Rule string
	weak bool
}

// sniff applies the content rules 2 to 4 and 6 to head, asking the
// formats of the registry in order.
func sniff(head []byte, size int64, zipped bool) sniffed {
	for _, f := range registry {
		if m, ok := f.MatchMagic(head); ok {
			return sniffed{Kind: f.Kind, Rule: "content: " + m.Name + " magic"}
		}
		if f.content == nil {
			continue
		}
		if rule, ok := f.content(head); ok {
			return sniffed{Kind: f.Kind, Rule: rule}
		}
	}
	if !zipped {
		for _, f := range registry {
			if f.fitsHeader == nil {
				continue
			}
			if rule, ok := f.fitsHeader(head, size); ok {
				return sniffed{Kind: f.Kind, Rule: rule}
			}
		}
	}
	return sniffText(head)
}

// binaryHeaderFits reports whether head starts with a binary graph header
// whose arc count gives exactly size bytes, and whose first triple, if any,
// has endpoints in 0..n-1.
func binaryHeaderFits(head []byte, size int64) (string, bool) {
	if len(head) < binaryHeaderSize || size < binaryHeaderSize {
		return "", false
	}
	n := int32(binary.LittleEndian.Uint32(head))
	m := int32(binary.LittleEndian.Uint32(head[4:]))
	if n < 0 || m < 0 || binaryHeaderSize+int64(m)*tripleSize != size {
		return "", false
	}
	if m > 0 && len(head) >= binaryHeaderSize+8 {
		u := int32(binary.LittleEndian.Uint32(head[8:]))
		v := int32(binary.LittleEndian.Uint32(head[12:]))
		if u < 0 || u >= n || v < 0 || v >= n {
			return "", false
		}
	}
	return fmt.Sprintf("content: binary header n=%d m=%d matches the size %d", n, m, size), true
}

// sniffText decides by the first line that is neither blank nor a comment.
// Only whole lines count: the last line of head may be cut short.
func sniffText(head []byte) sniffed {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && i < len(head)-1 && len(head) == detectHead {
		head = head[:i+1]
	}
	comment := byte(0)
	for len(head) > 0 {
		end := bytes.IndexByte(head, '\n')
		if end < 0 {
			end = len(head)
		}
		line := trimLine(head[:end])
		head = head[min(end+1, len(head)):]
		if len(line) == 0 {
			continue
		}
		if det, ok := sniffHeaderComment(line); ok {
			return det
		}
		if isComment(line[0]) {
			if comment == 0 {
				comment = line[0]
			}
			continue
		}
		return sniffLine(line)
	}
	if comment == 0 {
		return sniffed{Rule: "content: no data line", weak: true}
	}
	return sniffed{Kind: commentOwner(comment), Rule: fmt.Sprintf("content: comment lines only ('%c')", comment), weak: true}
}

// sniffHeaderComment asks the formats whether line is a comment line that
// decides by itself, such as SNAP's "# Nodes:" header.
func sniffHeaderComment(line []byte) (sniffed, bool) {
	for _, f := range registry {
		if f.headerComment == nil {
			continue
		}
		if rule, ok := f.headerComment(line); ok {
			return sniffed{Kind: f.Kind, Rule: rule}, true
		}
	}
	return sniffed{}, false
}

// isComment reports whether a line starting with b is a comment in some
// text format of the registry.
func isComment(b byte) bool {
	return commentOwner(b) != ""
}

// commentOwner returns the first format in registry order whose comment
// lines start with b, "" for none.
func commentOwner(b byte) Kind {
	for _, f := range registry {
		if f.comment != 0 && f.comment == b {
			return f.Kind
		}
	}
	return ""
}

// sniffLine decides by the first data line of a text.
func sniffLine(line []byte) sniffed {
	// Only the first fields matter: a longer line is judged by them.
	var store [6][]byte
	f, _ := splitFields(line, store[:])
	for _, format := range registry {
		if format.dataLine == nil {
			continue
		}
		if rule, ok := format.dataLine(f); ok {
			return sniffed{Kind: format.Kind, Rule: rule}
		}
	}
	return sniffed{Rule: fmt.Sprintf("content: first line %s fits no format", quote(line)), weak: true}
}

func allIntegers(f [][]byte) bool {
	for _, tok := range f {
		if _, st := parseInt(tok); st == intSyntax {
			return false
		}
	}
	return true
}
