package formats

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pathflow/pathflow/internal/graph"
)

// Kind names a file format: the value of the input.format key, the
// pathflow.input_format recorded in every output, and the key under which
// the registry (All, Lookup) describes the format.
type Kind string

// The formats of the registry, in its order.
const (
	KindDIMACS      Kind = "dimacs"      // DIMACS ".gr" graph
	KindCoordinates Kind = "coordinates" // DIMACS ".co" coordinates
	KindSNAP        Kind = "snap"        // SNAP edge list
	KindBinary      Kind = "binary"      // binary n/m/triple graph
	KindTable       Kind = "table"       // Arrow IPC or Parquet table (an ingest output)
	KindOSM         Kind = "osm"         // OpenStreetMap extract: PBF, or XML plain, gzip or bzip2
)

// Names of graphs that come from no file of the registry; they share the
// vocabulary because outputs record them where they record a Kind.
const (
	// KindAuto is the input.format value that asks for detection (Detect).
	KindAuto Kind = "auto"
	// KindGenerated is the format recorded for a graph made by a generator
	// (input.generate) rather than read from a file.
	KindGenerated Kind = "generated"
	// KindDistanceMatrix is the compute output format of a binary n x n
	// distance matrix (ReadDistanceMatrix reads it back); never an input.
	KindDistanceMatrix Kind = "distmatrix"
)

// Format describes one file format of the registry: its name, how a file
// of it is recognised and how it is read.
type Format struct {
	// Kind is the format's name.
	Kind Kind
	// Graph is true for the formats that hold a graph: the values of
	// input.format besides auto. Coordinates are read beside a graph.
	Graph bool
	// Extensions are the lower-case file name endings, dot included, that
	// suggest the format when a file's content leaves it open. A trailing
	// ".gz" is looked through for every format (see ByName): whether the
	// bytes are compressed is told from the bytes.
	Extensions []string
	// Gzip is true when the reader decompresses gzip input itself, told by
	// the magic bytes 1f 8b whatever the file's name.
	Gzip bool
	// Magic lists the byte strings a file of the format starts with, for
	// formats that have one.
	Magic []Magic
	// Read parses a file of the format from a stream. nil for tables: an
	// ingest output is read by path (random access, a folder of files)
	// and checked against its manifest, which is the input loader's work;
	// nil for OpenStreetMap too, which is read in two passes
	// (formats/osmroads).
	Read Reader

	// The content rules Detect asks of the format; nil where they do not
	// apply. content decides from the first bytes alone, compressed or
	// not; fitsHeader judges a binary header against the file's size,
	// dataLine the fields of the first data line of a text, headerComment
	// a comment line that decides by itself.
	content       func(head []byte) (rule string, ok bool)
	fitsHeader    func(head []byte, size int64) (rule string, ok bool)
	dataLine      func(fields [][]byte) (rule string, ok bool)
	headerComment func(line []byte) (rule string, ok bool)
	// comment starts the comment lines of a text format, 0 for none. A
	// text of comment lines only is taken, weakly, for the first format
	// in registry order with that comment byte.
	comment byte
}

// Magic is a byte string that starts every file of a format.
type Magic struct {
	// Name names the magic in detection rules ("Arrow IPC", "Parquet").
	Name string
	// Bytes is the string itself.
	Bytes string
}

// Reader parses one input of a format from r; name is used in error
// messages only. It returns the arcs (nil for coordinates) and the
// vertices where the format names or places them (nil for DIMACS graphs,
// whose metadata DIMACSVertices makes once the vertex count is accepted).
// Errors are those of the format's Read function (ReadDIMACS, ReadSNAP,
// ReadBinary, ReadCoordinates).
type Reader func(r io.Reader, name string, opts ReadOptions) (*graph.EdgeList, *graph.Vertices, error)

// ReadOptions are the settings of a Reader; each format uses those that
// concern it.
type ReadOptions struct {
	// SNAP says how an edge list becomes arcs (direction and weights).
	SNAP SNAPOptions
}

// registry is every format, in the order All lists them and in which
// Detect asks them: a rule of an earlier format wins a tie, which decides
// that comment lines only ('c') say DIMACS rather than coordinates.
var registry = []Format{
	{
		Kind: KindDIMACS, Graph: true, Extensions: []string{".gr"}, Gzip: true,
		Read: func(r io.Reader, name string, _ ReadOptions) (*graph.EdgeList, *graph.Vertices, error) {
			e, err := ReadDIMACS(r, name)
			return e, nil, err
		},
		dataLine: func(f [][]byte) (string, bool) {
			switch {
			case len(f) >= 2 && string(f[0]) == "p" && string(f[1]) == "sp":
				return "content: 'p sp' line", true
			case len(f) >= 1 && string(f[0]) == "a":
				return "content: 'a' arc line", true
			}
			return "", false
		},
		comment: 'c',
	},
	{
		Kind: KindCoordinates, Extensions: []string{".co"}, Gzip: true,
		Read: func(r io.Reader, name string, _ ReadOptions) (*graph.EdgeList, *graph.Vertices, error) {
			vs, err := ReadCoordinates(r, name)
			return nil, vs, err
		},
		dataLine: func(f [][]byte) (string, bool) {
			if len(f) >= 4 && string(f[0]) == "p" && string(f[1]) == "aux" && string(f[3]) == "co" {
				return "content: 'p aux sp co' line", true
			}
			return "", false
		},
		comment: 'c',
	},
	{
		Kind: KindSNAP, Graph: true, Extensions: []string{".txt", ".tsv", ".edges", ".el"}, Gzip: true,
		Read: func(r io.Reader, name string, opts ReadOptions) (*graph.EdgeList, *graph.Vertices, error) {
			return ReadSNAP(r, name, opts.SNAP)
		},
		dataLine: func(f [][]byte) (string, bool) {
			if (len(f) == 2 || len(f) == 3) && allIntegers(f) {
				return "content: 'U V' edge line", true
			}
			return "", false
		},
		headerComment: func(line []byte) (string, bool) {
			if line[0] == '#' && bytes.Contains(line, []byte("Nodes:")) {
				return "content: '# Nodes:' header", true
			}
			return "", false
		},
		comment: '#',
	},
	{
		Kind: KindBinary, Graph: true, Extensions: []string{".bin"},
		Read: func(r io.Reader, name string, _ ReadOptions) (*graph.EdgeList, *graph.Vertices, error) {
			e, err := ReadBinary(r, name)
			return e, nil, err
		},
		fitsHeader: binaryHeaderFits,
	},
	{
		// Read by formats/osmroads, in two passes over the file.
		Kind: KindOSM, Graph: true, Extensions: []string{".pbf", ".osm", ".osm.bz2"},
		content: osmContent,
	},
	{
		Kind: KindTable, Graph: true, Extensions: []string{".arrow", ".parquet", ".feather"},
		Magic: []Magic{{Name: "Arrow IPC", Bytes: "ARROW1"}, {Name: "Parquet", Bytes: "PAR1"}},
	},
}

// All returns every format of the registry, in registry order.
func All() []Format {
	out := make([]Format, len(registry))
	for i, f := range registry {
		out[i] = f.clone()
	}
	return out
}

// Lookup returns the format called kind, as input.format names it. Only
// the registry's kinds are found: not auto, generated or distmatrix.
func Lookup(kind string) (Format, bool) {
	for _, f := range registry {
		if string(f.Kind) == kind {
			return f.clone(), true
		}
	}
	return Format{}, false
}

// GraphNames returns the names of the graph formats in registry order
// ("dimacs", "snap", "binary", "table"), for the values input.format
// accepts and for messages that list them.
func GraphNames() []string {
	var names []string
	for _, f := range registry {
		if f.Graph {
			names = append(names, string(f.Kind))
		}
	}
	return names
}

// ByName returns the format a file name's extension suggests, looking
// through a trailing ".gz" and ignoring case, with the extension it went
// by ("" when the name has none). ok is false when no format claims it.
// An extension of two parts (".osm.bz2") is matched as a whole.
func ByName(name string) (f Format, ext string, ok bool) {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz")
	for _, f := range registry {
		for _, e := range f.Extensions {
			if strings.Count(e, ".") > 1 && strings.HasSuffix(base, e) {
				return f.clone(), e, true
			}
		}
	}
	ext = filepath.Ext(base)
	for _, f := range registry {
		if slices.Contains(f.Extensions, ext) {
			return f.clone(), ext, true
		}
	}
	return Format{}, ext, false
}

// MatchMagic returns the magic of f that head starts with.
func (f Format) MatchMagic(head []byte) (Magic, bool) {
	for _, m := range f.Magic {
		if bytes.HasPrefix(head, []byte(m.Bytes)) {
			return m, true
		}
	}
	return Magic{}, false
}

// String returns the format's name.
func (f Format) String() string { return string(f.Kind) }

// clone returns f with its own copies of the lists, so that a caller
// changing them leaves the registry alone.
func (f Format) clone() Format {
	f.Extensions = slices.Clone(f.Extensions)
	f.Magic = slices.Clone(f.Magic)
	return f
}
