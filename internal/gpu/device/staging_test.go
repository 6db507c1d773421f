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
