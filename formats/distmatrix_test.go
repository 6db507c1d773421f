package formats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// matrixBytes encodes the entries of a distance matrix as the file format
// does: little-endian int32, row-major. (The compute command's distmatrix
// output has its own writer, DistanceMatrixWriter.)
func matrixBytes(dist []int32) []byte {
	out := make([]byte, 0, 4*len(dist))
	for _, d := range dist {
		out = binary.LittleEndian.AppendUint32(out, uint32(d))
	}
	return out
}

func randomMatrix32(rng *rand.Rand, n int32) *paths.Matrix {
	m := &paths.Matrix{N: n, Dist32: make([]int32, int(n)*int(n))}
	for i := range m.Dist32 {
		switch rng.IntN(5) {
		case 0:
			m.Dist32[i] = graph.Inf32
		case 1:
			m.Dist32[i] = -graph.Inf32
		default:
			m.Dist32[i] = rng.Int32N(2*graph.Inf32) - graph.Inf32
		}
	}
	return m
}

func TestDistanceMatrixRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 9))
		for _, n := range []int32{0, 1, 2, 3 + rng.Int32N(200)} {
			m := randomMatrix32(rng, n)
			data := matrixBytes(m.Dist32)
			path := filepath.Join(dir, "m.bin")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			file, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			for name, read := range map[string]func() (*paths.Matrix, error){
				"given n":        func() (*paths.Matrix, error) { return ReadDistanceMatrix(bytes.NewReader(data), "m.bin", n) },
				"inferred":       func() (*paths.Matrix, error) { return ReadDistanceMatrix(bytes.NewReader(data), "m.bin", InferN) },
				"inferred, file": func() (*paths.Matrix, error) { return ReadDistanceMatrix(file, "m.bin", InferN) },
				"inferred, half": func() (*paths.Matrix, error) {
					return ReadDistanceMatrix(iotest.HalfReader(bytes.NewReader(data)), "m.bin", InferN)
				},
			} {
				got, err := read()
				if err != nil {
					t.Fatalf("seed %d, %s: %v", seed, name, err)
				}
				if got.N != n || !slices.Equal(got.Dist32, m.Dist32) || got.Dist64 != nil {
					t.Fatalf("seed %d, %s: matrix differs", seed, name)
				}
			}
		}
	}
}

func TestReadDistanceMatrixErrors(t *testing.T) {
	entries := func(vs ...int32) []byte {
		var out []byte
		for _, v := range vs {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		n         int32
		prefix    string
		fragments []string
	}{
		{"short", entries(1, 2, 3), 2, "m.bin: offset 12: ", []string{"input ends after 3 of the 4 entries of a 2 x 2 matrix"}},
		{"ragged", append(entries(1, 2, 3), 0), 2, "m.bin: offset 13: ", []string{"input ends after 3 of the 4 entries"}},
		{"extra", entries(1, 2, 3, 4, 5), 2, "m.bin: offset 16: ", []string{"data after the 4 entries"}},
		{"beyond inf", entries(1, graph.Inf32+1, 3, 4), 2, "m.bin: offset 4: ", []string{"entry (0, 1) is 1073741824"}},
		{"below -inf", entries(1, 2, -graph.Inf32-1, 4), 2, "m.bin: offset 8: ", []string{"entry (1, 0) is -1073741824"}},
		{"not square", entries(1, 2, 3), InferN, "m.bin: offset 12: ", []string{"3 entries: not a square matrix"}},
		{"not multiple of 4", append(entries(1), 0, 0), InferN, "m.bin: offset 4: ", []string{"input size 6 is not a multiple of 4"}},
		{"lying n", entries(0), 1 << 20, "m.bin: offset 4: ", []string{"input ends after 1 of the 1099511627776 entries"}},
	} {
		_, err := ReadDistanceMatrix(bytes.NewReader(tc.data), "m.bin", tc.n)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		wantBinaryError(t, err, "formats: "+tc.prefix, tc.fragments...)
	}
	if _, err := ReadDistanceMatrix(bytes.NewReader(nil), "m.bin", -2); err == nil {
		t.Error("n = -2 accepted")
	}
}

func FuzzReadDistanceMatrix(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0x3f, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0xc0})
	f.Add([]byte{1, 0, 0, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadDistanceMatrix(bytes.NewReader(data), "fuzz.bin", InferN)
		if err != nil {
			var be *BinaryError
			if !errors.As(err, &be) {
				t.Fatalf("error %v is a %T, not a *BinaryError", err, err)
			}
			return
		}
		if int64(len(m.Dist32)) != int64(m.N)*int64(m.N) {
			t.Fatalf("%d entries for n = %d", len(m.Dist32), m.N)
		}
		if !bytes.Equal(matrixBytes(m.Dist32), data) {
			t.Fatal("writing the matrix back does not give the input")
		}
	})
}
