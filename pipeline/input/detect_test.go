package input

import (
	"context"
	"encoding/binary"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// binaryGraph is the binary n/m/triple encoding of a graph, written here
// byte by byte.
func binaryGraph(n int32, triples ...[3]int32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(triples)))
	for _, tr := range triples {
		for _, x := range tr {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
	}
	return b
}

// TestLoadGraphDetectsByContent loads misnamed inputs: the bytes decide the
// format, the log says which rule did, and the name only breaks ties.
func TestLoadGraphDetectsByContent(t *testing.T) {
	dimacs := "c three arcs\np sp 3 3\na 1 2 5\na 2 3 1\na 3 1 2\n"
	for _, tc := range []struct {
		name   string
		data   []byte
		format string
		rule   string
	}{
		{"roads.txt", stagetest.GzipText(t, dimacs), string(formats.KindDIMACS), "format dimacs (content: 'p sp' line, gzip by magic bytes)"},
		{"roads.dat", []byte(dimacs), string(formats.KindDIMACS), "format dimacs (content: 'p sp' line)"},
		{"peers.gr", []byte("# peers\n0 1\n1 2\n2 0\n"), string(formats.KindSNAP), "format snap (content: 'U V' edge line)"},
		{"graph.txt", binaryGraph(3, [3]int32{0, 1, 5}, [3]int32{1, 2, 1}, [3]int32{2, 0, 2}), string(formats.KindBinary),
			"format binary (content: binary header n=3 m=3 matches the size 44)"},
		{"empty.gr", nil, string(formats.KindDIMACS), "format dimacs (name: .gr (content: no data line))"},
	} {
		path := stagetest.WriteFile(t, tc.name, string(tc.data))
		var logs stagetest.LogBuffer
		g, err := LoadGraph(context.Background(), Spec{Path: path, Weighting: "file", Directed: true}, logs.Logger(), io.Discard, true)
		if tc.name == "empty.gr" {
			// Detected as DIMACS, then refused by the reader for its missing p line.
			if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), `no "p sp N M" line`) {
				t.Errorf("%s: err = %v", tc.name, err)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		} else if g.Format != tc.format || g.Edges.N != 3 || g.Edges.M() != 3 || !slices.Equal(g.Edges.Dst, []int32{1, 2, 0}) {
			t.Errorf("%s: format %s, graph %+v", tc.name, g.Format, g.Edges)
		}
		if !strings.Contains(logs.String(), "msg=\""+tc.rule+"\"") {
			t.Errorf("%s: the log does not say %q:\n%s", tc.name, tc.rule, logs.String())
		}
	}
}

// TestLoadGraphDetectionErrors checks the inputs detection refuses: each
// error names the file and the key that fixes it.
func TestLoadGraphDetectionErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"hello.dat", "hello world\n", "set input.format"},
		{"roads.co", "p aux sp co 1\nv 1 0 0\n", "pass it as input.coordinates"},
		{"edges.parquet", string(stagetest.GzipText(t, "PAR1....")), "gzip-compressed table"},
	} {
		path := stagetest.WriteFile(t, tc.name, tc.text)
		_, err := LoadGraph(context.Background(), Spec{Path: path}, stagetest.QuietLog, io.Discard, true)
		if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want an input error naming the file and %q", tc.name, err, tc.want)
		}
	}
	_, err := LoadGraph(context.Background(), Spec{Path: filepath.Join(t.TempDir(), "missing.gr")}, stagetest.QuietLog, io.Discard, true)
	if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), "missing.gr") {
		t.Errorf("missing file: err = %v", err)
	}
}

// TestLoadGraphFormatKeyWins checks that input.format overrides detection
// and that the log says so.
func TestLoadGraphFormatKeyWins(t *testing.T) {
	path := stagetest.WriteFile(t, "peers.txt", "0 1\n1 2\n")
	var logs stagetest.LogBuffer
	_, err := LoadGraph(context.Background(), Spec{Path: path, Format: string(formats.KindDIMACS)}, logs.Logger(), io.Discard, true)
	if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), "peers.txt:1") {
		t.Errorf("err = %v, want the DIMACS reader's error on line 1", err)
	}
	if !strings.Contains(logs.String(), "format dimacs (set by input.format)") {
		t.Errorf("log:\n%s", logs.String())
	}
}
