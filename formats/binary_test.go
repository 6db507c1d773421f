package formats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// binaryBytes encodes a header and triples by hand, independently of
// WriteBinary.
func binaryBytes(n, m int32, triples ...[3]int32) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(m))
	for _, tr := range triples {
		for _, x := range tr {
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		}
	}
	return out
}

func TestBinaryRoundTrip(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 8))
		for range 5 {
			n := 1 + rng.Int32N(100_000)
			e := graphtest.RandomGraph(rng, n, rng.IntN(3*binaryBlock), math.MinInt32, math.MaxInt32, 0)
			var b bytes.Buffer
			if err := WriteBinary(&b, e); err != nil {
				t.Fatal(err)
			}
			if b.Len() != 8+12*e.M() {
				t.Fatalf("wrote %d bytes for %d arcs", b.Len(), e.M())
			}
			data := b.Bytes()
			// The first arc, encoded here, must match the file.
			if e.M() > 0 && !bytes.Equal(data[:20], binaryBytes(n, int32(e.M()), [3]int32{e.Src[0], e.Dst[0], e.Weight[0]})) {
				t.Fatalf("seed %d: header or first triple encoded wrongly", seed)
			}
			got, err := ReadBinary(iotest.HalfReader(bytes.NewReader(data)), "g.bin")
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if diff := equalEdgeLists(got, e); diff != "" {
				t.Fatalf("seed %d: %s", seed, diff)
			}
		}
	}
}

func TestReadBinaryErrors(t *testing.T) {
	valid := binaryBytes(3, 2, [3]int32{0, 1, 5}, [3]int32{2, 0, -1})
	for _, tc := range []struct {
		name      string
		data      []byte
		prefix    string
		fragments []string
	}{
		{"empty", nil, "g.bin: offset 0: ", []string{"header needs 8 bytes, the input has 0"}},
		{"short header", valid[:5], "g.bin: offset 5: ", []string{"header needs 8 bytes, the input has 5"}},
		{"negative n", binaryBytes(-1, 0), "g.bin: offset 0: ", []string{"negative vertex count -1"}},
		{"negative m", binaryBytes(1, -2), "g.bin: offset 4: ", []string{"negative arc count -2"}},
		{"no triples", valid[:8], "g.bin: offset 8: ", []string{"input ends after 0 of the 2 triples"}},
		{"half a triple", valid[:26], "g.bin: offset 26: ", []string{"input ends after 1 of the 2 triples"}},
		{"extra byte", append(bytes.Clone(valid), 0), "g.bin: offset 32: ", []string{"data after the 2 triples"}},
		{"source out of range", binaryBytes(3, 2, [3]int32{0, 1, 5}, [3]int32{3, 0, 1}), "g.bin: offset 20: ", []string{"triple 1: source 3 outside 0..2"}},
		{"target negative", binaryBytes(3, 1, [3]int32{0, -1, 5}), "g.bin: offset 12: ", []string{"triple 0: target -1 outside 0..2"}},
		{"lying m", binaryBytes(3, math.MaxInt32, [3]int32{0, 1, 5}), "g.bin: offset 20: ", []string{"input ends after 1 of the 2147483647 triples"}},
	} {
		_, err := ReadBinary(bytes.NewReader(tc.data), "g.bin")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		wantBinaryError(t, err, "formats: "+tc.prefix, tc.fragments...)
	}
	if _, err := ReadBinary(bytes.NewReader(valid), "g.bin"); err != nil {
		t.Errorf("valid input: %v", err)
	}
}

func TestWriteBinaryRefusesInvalid(t *testing.T) {
	bad := &graph.EdgeList{N: 2, Src: []int32{0}, Dst: []int32{2}, Weight: []int32{1}}
	if err := WriteBinary(&bytes.Buffer{}, bad); err == nil {
		t.Error("an arc outside 0..N-1 was written")
	}
}

func FuzzReadBinary(f *testing.F) {
	f.Add(binaryBytes(3, 2, [3]int32{0, 1, 5}, [3]int32{2, 0, -1}))
	f.Add(binaryBytes(0, 0))
	f.Add(binaryBytes(1, 1, [3]int32{0, 0, math.MinInt32}))
	f.Add([]byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadBinary(bytes.NewReader(data), "fuzz.bin")
		if err != nil {
			var be *BinaryError
			if !errors.As(err, &be) {
				t.Fatalf("error %v is a %T, not a *BinaryError", err, err)
			}
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		// The format has one encoding per graph: writing gives the input.
		var b bytes.Buffer
		if err := WriteBinary(&b, e); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Fatal("writing the graph back does not give the input")
		}
	})
}
