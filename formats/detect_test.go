package formats

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestDetect checks each rule on misnamed and unnamed inputs: the content
// decides, the name only breaks ties.
func TestDetect(t *testing.T) {
	dimacs := []byte("c road\np sp 3 1\na 1 2 7\n")
	snap := []byte("# Directed graph\n0\t1\n1\t2\n")
	bin := binaryBytes(3, 2, [3]int32{0, 1, 5}, [3]int32{2, 0, 1})
	for _, tc := range []struct {
		name string
		data []byte
		want Kind
		gzip bool
		rule string
	}{
		{"graph.txt", dimacs, KindDIMACS, false, "content: 'p sp' line"},
		{"graph.txt", gzipBytes(t, dimacs), KindDIMACS, true, "content: 'p sp' line, gzip by magic bytes"},
		{"graph.gr.gz", gzipBytes(t, snap), KindSNAP, true, "content: 'U V' edge line, gzip by magic bytes"},
		{"graph.gr", snap, KindSNAP, false, "content: 'U V' edge line"},
		{"graph.bin", []byte("# Nodes: 2 Edges: 1\n"), KindSNAP, false, "content: '# Nodes:' header"},
		{"graph.gr", []byte("1 2 -3\n"), KindSNAP, false, "content: 'U V' edge line"},
		{"graph.txt", []byte("\n\n  a 1 2 3\n"), KindDIMACS, false, "content: 'a' arc line"},
		{"graph.gr", []byte("c x\np aux sp co 1\nv 1 0 0\n"), KindCoordinates, false, "content: 'p aux sp co' line"},
		{"graph.gr", bin, KindBinary, false, "content: binary header n=3 m=2 matches the size 32"},
		{"graph.gr", binaryBytes(0, 0), KindBinary, false, "content: binary header n=0 m=0 matches the size 8"},
		{"graph.txt", []byte("ARROW1\x00\x00rest"), KindTable, false, "content: Arrow IPC magic"},
		{"graph", []byte("PAR1rest"), KindTable, false, "content: Parquet magic"},
		// Ties: nothing decisive in the content.
		{"graph.bin", bin[:20], KindBinary, false, "name: .bin (content: first line"},
		{"graph.gr", nil, KindDIMACS, false, "name: .gr (content: no data line)"},
		{"graph.gr", []byte("# only a comment\n"), KindDIMACS, false, "name: .gr (content: comment lines only ('#'))"},
		{"graph.dat", []byte("c only a comment\n"), KindDIMACS, false, "content: comment lines only ('c')"},
		{"graph.dat", []byte("# only a comment\n"), KindSNAP, false, "content: comment lines only ('#')"},
		{"graph.dat", nil, "", false, "content: no data line"},
		{"graph.dat", bin[:20], "", false, "content: first line"},
		{"graph.dat", []byte("x y\n"), "", false, `content: first line "x y" fits no format`},
	} {
		got, err := Detect(iotest.HalfReader(bytes.NewReader(tc.data)), int64(len(tc.data)), tc.name)
		if err != nil {
			t.Errorf("%s %q: %v", tc.name, tc.data, err)
			continue
		}
		if got.Kind != tc.want || got.Gzip != tc.gzip || !strings.HasPrefix(got.Rule, tc.rule) {
			t.Errorf("%s %q: %+v, want %s gzip=%v rule %q", tc.name, tc.data, got, tc.want, tc.gzip, tc.rule)
		}
	}
}

// TestDetectLongComments checks that a data line after a comment block
// longer than what Detect reads leaves the content undecided, and that a
// line cut by the end of the head is not judged.
func TestDetectLongComments(t *testing.T) {
	comments := bytes.Repeat([]byte("c a long comment block of a road network file\n"), detectHead/40)
	text := append(comments, "p sp 3 1\na 1 2 7\n"...)
	got, err := Detect(bytes.NewReader(text), int64(len(text)), "road.gr")
	if err != nil || got.Kind != KindDIMACS || !strings.HasPrefix(got.Rule, "name: .gr") {
		t.Errorf("got %+v, %v; want dimacs by name", got, err)
	}
	cut := append(bytes.Repeat([]byte("#\n"), detectHead/2-1), "12 x"...)
	cut = append(cut, " 7\n"...)
	got, err = Detect(bytes.NewReader(cut), int64(len(cut)), "peers.dat")
	if err != nil || got.Kind != KindSNAP || got.Rule != "content: comment lines only ('#')" {
		t.Errorf("got %+v, %v; want snap by its comments", got, err)
	}
}

func TestDetectBrokenGzip(t *testing.T) {
	if _, err := Detect(bytes.NewReader([]byte{0x1f, 0x8b, 0}), 3, "x.gr"); err == nil || !strings.HasPrefix(err.Error(), "formats: gzip header") {
		t.Errorf("broken gzip header: %v", err)
	}
}

func FuzzDetect(f *testing.F) {
	f.Add([]byte("c x\np sp 1 0\n"), int64(-1), "a.gr")
	f.Add([]byte("# Nodes: 1 Edges: 0\n"), int64(20), "b.txt")
	f.Add(binaryBytes(2, 1, [3]int32{0, 1, 3}), int64(20), "c.bin")
	f.Add(gzipBytes(f, []byte("0 1\n")), int64(-1), "d")
	f.Fuzz(func(t *testing.T, data []byte, size int64, name string) {
		det, err := Detect(bytes.NewReader(data), size, name)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "formats: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
			return
		}
		if det.Rule == "" {
			t.Fatalf("%+v: no rule given", det)
		}
		if strings.HasPrefix(det.Rule, "content: binary") && (det.Gzip || int64(len(data)) < binaryHeaderSize || size < binaryHeaderSize) {
			t.Fatalf("%+v for %d bytes of size %d", det, len(data), size)
		}
	})
}
