package device

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestShapeStaging(t *testing.T) {
	for _, c := range []struct {
		n                   int64
		total               int
		bytes               int64
		pool, maxRows       int
		wantRows, wantCount int
		wantPool            int
	}{
		{n: 36682, total: 36682, bytes: 64 << 20, pool: 4, wantRows: 457, wantCount: 81, wantPool: 4},
		{n: 36682, total: 100, bytes: 64 << 20, pool: 4, wantRows: 100, wantCount: 1, wantPool: 1},
		{n: 24_010_000, total: 3, bytes: 64 << 20, pool: 4, wantRows: 1, wantCount: 3, wantPool: 3},
		{n: 1000, total: 1000, bytes: 64 << 20, pool: 4, maxRows: 96, wantRows: 96, wantCount: 11, wantPool: 4},
		{n: 1000, total: 10, bytes: 4000, pool: 1, wantRows: 1, wantCount: 10, wantPool: 2},
		{n: 1000, total: 0, bytes: 4000, pool: 4},
	} {
		s := ShapeStaging(c.n, c.total, c.bytes, c.pool, c.maxRows)
		if s.rows != c.wantRows || s.blocks != c.wantCount || s.pool != c.wantPool {
			t.Errorf("%+v: %+v", c, s)
		}
		covered := 0
		for k := range s.blocks {
			first, count := s.span(k, c.total)
			if first != covered || count < 1 || count > s.rows {
				t.Fatalf("%+v: block %d spans %d+%d after %d rows", c, k, first, count, covered)
			}
			covered += count
		}
		if covered != c.total {
			t.Errorf("%+v: blocks cover %d of %d rows", c, covered, c.total)
		}
	}
}

func TestRowRuns(t *testing.T) {
	got := RowRuns(nil, []int32{4, 5, 6, 2, 3, 9, 8, 9, 10})
	want := []RowRun{{0, 3, 4}, {3, 2, 2}, {5, 1, 9}, {6, 3, 8}}
	if !slices.Equal(got, want) {
		t.Fatalf("runs %v, want %v", got, want)
	}
	if got := RowRuns(got, nil); len(got) != 0 {
		t.Fatalf("runs of nothing: %v", got)
	}
	// Random orders: the runs rebuild the sources.
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 1))
	sources := make([]int32, 200)
	for i := range sources {
		sources[i] = int32(r.IntN(20))
		if r.IntN(3) > 0 && i > 0 {
			sources[i] = sources[i-1] + 1
		}
	}
	var rebuilt []int32
	for _, run := range RowRuns(nil, sources) {
		if run.At != len(rebuilt) {
			t.Fatalf("seed %d: run %+v starts at %d", seed, run, len(rebuilt))
		}
		for i := range run.Count {
			rebuilt = append(rebuilt, run.First+int32(i))
		}
	}
	if !slices.Equal(rebuilt, sources) {
		t.Fatalf("seed %d: runs rebuild %v, want %v", seed, rebuilt, sources)
	}
}

func TestStreamStatsRates(t *testing.T) {
	s := StreamStats{Rows: 10, Blocks: 2, Bytes: 55e9, Wall: 2 * time.Second, Copy: time.Second}
	if s.Rate() != 27.5 || s.CopyRate() != 55 {
		t.Fatalf("rates %v, %v", s.Rate(), s.CopyRate())
	}
	if (StreamStats{}).Rate() != 0 || s.String() == "" {
		t.Fatal("zero stats or String")
	}
}

// TestRowFeed: takers asking at once for blocks of different sizes get
// every row exactly once, each its blocks in increasing order, and a fed
// shape walks the feed until it runs dry.
func TestRowFeed(t *testing.T) {
	const total = 10_007
	feed := NewRowFeed(total, 4)
	sizes := []int{1, 7, 64, 300}
	got := make([][][2]int, len(sizes))
	done := make(chan int)
	for i, size := range sizes {
		go func() {
			for {
				first, n := feed.Take(size)
				if n == 0 {
					done <- i
					return
				}
				if n > size {
					t.Errorf("asked %d rows, got %d", size, n)
				}
				got[i] = append(got[i], [2]int{first, n})
			}
		}()
	}
	for range sizes {
		<-done
	}
	seen := make([]int, total)
	for i, blocks := range got {
		for j, b := range blocks {
			if j > 0 && b[0] <= blocks[j-1][0] {
				t.Errorf("taker %d: block at %d after one at %d", i, b[0], blocks[j-1][0])
			}
			for r := b[0]; r < b[0]+b[1]; r++ {
				seen[r]++
			}
		}
	}
	for r, c := range seen {
		if c != 1 {
			t.Fatalf("row %d taken %d times", r, c)
		}
	}
	if first, n := feed.Take(5); n != 0 {
		t.Errorf("a dry feed gave %d rows at %d", n, first)
	}

	// Four blocks of 3 rows, pooled in 4; fed to two devices, each pools
	// its share, 2 blocks.
	shape := ShapeStaging(1000, 10, 64<<20, 4, 3).Fed(NewRowFeed(10, 2))
	if shape.pool != 2 {
		t.Errorf("a fed shape pools %d blocks, want 2", shape.pool)
	}
	covered := 0
	for k := 0; ; k++ {
		first, count := shape.next(k, 10)
		if count == 0 {
			break
		}
		if first != covered || count > 3 {
			t.Fatalf("fed block %d spans %d+%d after %d rows", k, first, count, covered)
		}
		covered += count
	}
	if covered != 10 {
		t.Errorf("the fed shape covered %d of 10 rows", covered)
	}
}
