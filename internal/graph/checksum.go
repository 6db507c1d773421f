package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"

	"github.com/pathflow/pathflow/internal/parallel"
)

// checksumBlockArcs is the number of arcs hashed as one block: large
// enough that the per-block overhead vanishes, small enough that a graph of
// a few million arcs still gives every core several blocks.
const checksumBlockArcs = 1 << 18

// ChecksumPrefix starts every Checksum, naming the rule that made it, so a
// checksum made another way never compares equal by accident.
const ChecksumPrefix = "csr-arcs-sha256:"

// Checksum identifies the graph itself, whatever file or layout it came
// from: the SHA-256 of its vertex and arc counts followed by the SHA-256
// of each block of checksumBlockArcs arcs (source, head, weight,
// little-endian int32s, in row order), hex-encoded after ChecksumPrefix.
// It is taken over the rows rather than an edge list's order so that a
// graph read from its tables and the same graph mapped from a reload file
// (grouped by source) agree. The blocks are hashed on workers goroutines;
// the result does not depend on their number. O(M) work.
func (g *CSR) Checksum(workers int) string {
	m := int(g.M())
	blocks := (m + checksumBlockArcs - 1) / checksumBlockArcs
	sums := make([][sha256.Size]byte, blocks)
	parallel.For(blocks, max(workers, 1), func(b int) {
		lo, hi := b*checksumBlockArcs, min((b+1)*checksumBlockArcs, m)
		// The row holding arc lo: the last row that starts at or before it.
		u := int32(sort.Search(int(g.N), func(r int) bool { return g.Offsets[r+1] > int64(lo) }))
		digest := sha256.New()
		buf := make([]byte, 0, 12*1024)
		for i := lo; i < hi; i++ {
			for int64(i) >= g.Offsets[u+1] {
				u++
			}
			buf = binary.LittleEndian.AppendUint32(buf, uint32(u))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(g.Targets[i]))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(g.Weights[i]))
			if len(buf) == cap(buf) {
				digest.Write(buf)
				buf = buf[:0]
			}
		}
		digest.Write(buf)
		digest.Sum(sums[b][:0])
	})
	whole := sha256.New()
	var head [16]byte
	binary.LittleEndian.PutUint64(head[:8], uint64(g.N))
	binary.LittleEndian.PutUint64(head[8:], uint64(m))
	whole.Write(head[:])
	for _, s := range sums {
		whole.Write(s[:])
	}
	return ChecksumPrefix + hex.EncodeToString(whole.Sum(nil))
}
