package points

// blockLen is the values per block of a growing column: large enough
// that starting a block is rare, small enough that the last one wastes
// little.
const blockLen = 1 << 16

// blocks is a column of unknown final length, as a CSV file gives it:
// values go into fixed blocks, never moved while the file is read, and
// are copied once into a slice of the exact length at the end. That is
// less copying than a growing slice (which copies its values several
// times over) and holds no spare capacity afterwards.
type blocks[T any] struct {
	full []([]T)
	cur  []T
	n    int
}

// add appends v.
func (b *blocks[T]) add(v T) {
	if len(b.cur) == cap(b.cur) {
		b.startBlock(blockLen)
	}
	b.cur = append(b.cur, v)
	b.n++
}

// addAll appends vs, in one block: a field's bytes stay together.
func (b *blocks[T]) addAll(vs []T) {
	if len(b.cur)+len(vs) > cap(b.cur) {
		b.startBlock(max(blockLen, len(vs)))
	}
	b.cur = append(b.cur, vs...)
	b.n += len(vs)
}

func (b *blocks[T]) startBlock(size int) {
	if len(b.cur) > 0 {
		b.full = append(b.full, b.cur)
	}
	b.cur = make([]T, 0, size)
}

// len is the number of values added.
func (b *blocks[T]) len() int { return b.n }

// flat returns the values in one slice of their exact length and empties
// b.
func (b *blocks[T]) flat() []T {
	out := make([]T, 0, b.n)
	for _, blk := range b.full {
		out = append(out, blk...)
	}
	out = append(out, b.cur...)
	*b = blocks[T]{}
	return out
}
