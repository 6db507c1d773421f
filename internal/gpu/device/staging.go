package device

import (
	"fmt"
	"sync/atomic"
	"time"
)

// Host-side shapes of the result staging (staging_cuda.go): no CUDA, so
// they are tested in every build.

// StagingShape is how the rows of a run are cut into blocks: rows per block
// (the last may hold fewer), how many blocks in all, and how many pinned
// blocks the pool holds. A shape fed by a RowFeed (Fed) takes each block's
// rows from the feed instead, until it runs dry.
type StagingShape struct {
	rows, blocks, pool int
	feed               *RowFeed
}

// RowFeed hands the rows of one request to the devices that serve it
// together, a block at a time, to whichever asks first, in request order.
// Cutting the request into one contiguous share per device instead makes
// the consumer wait: it takes rows in request order and releases a pinned
// block only once its rows are written, so a device serving the later
// share fills its pool and stands idle until the first share is written
// (4,096 sources on two H200s: one device busy 18.7 s for 10.0 s of
// kernels). Fed from one feed, the devices' blocks arrive interleaved and
// nearly in order, and a faster device simply takes more of them. Safe
// for concurrent use.
type RowFeed struct {
	next  atomic.Int64
	total int64
	// takers is the number of devices the feed serves.
	takers int
}

// NewRowFeed returns a feed of the rows 0..total-1 for takers devices.
func NewRowFeed(total, takers int) *RowFeed {
	return &RowFeed{total: int64(total), takers: max(takers, 1)}
}

// Takers is the number of devices the feed serves.
func (f *RowFeed) Takers() int { return f.takers }

// Take returns the next rows, up to count of them: the first one and how
// many; none (count 0) once every row was taken.
func (f *RowFeed) Take(count int) (first, n int) {
	at := f.next.Add(int64(count)) - int64(count)
	if at >= f.total {
		return 0, 0
	}
	return int(at), int(min(int64(count), f.total-at))
}

// Fed returns s taking its blocks' rows from feed, s.BlockRows() at a
// time, rather than walking its own blocks, with a pool of its share of
// the blocks (at least 2): the devices of a feed hold together about the
// pinned memory one device alone would. Pinned memory is allocated for
// the whole host at once: four NVIDIA H200s opening 400 MB of blocks each
// took 1.25 s each, against 0.33 s for one alone, and the table that
// needed them had six blocks in all.
func (s StagingShape) Fed(feed *RowFeed) StagingShape {
	s.feed = feed
	s.pool = min(s.pool, max(2, (s.blocks+feed.takers-1)/feed.takers))
	return s
}

// ShapeStaging cuts total rows of n int32 each into blocks of as many rows
// as fit in bytes (at least one, at most total, and at most maxRows when
// that is positive), pooled in up to poolBlocks pinned blocks (at least 2
// when there are several blocks: one is copied into while the one before
// is handed over).
func ShapeStaging(n int64, total int, bytes int64, poolBlocks, maxRows int) StagingShape {
	if total <= 0 {
		return StagingShape{}
	}
	rows := int(min(max(bytes/max(4*n, 1), 1), int64(total)))
	if maxRows > 0 {
		rows = min(rows, maxRows)
	}
	blocks := (total + rows - 1) / rows
	return StagingShape{rows: rows, blocks: blocks, pool: min(max(poolBlocks, 2), blocks)}
}

// BlockRows is the rows of a block (the last may hold fewer).
func (s StagingShape) BlockRows() int { return s.rows }

// span returns the request indices of block k: first and count.
func (s StagingShape) span(k, total int) (first, count int) {
	first = k * s.rows
	return first, min(s.rows, total-first)
}

// next returns the request rows of a run's block k: its own block k of
// total rows, or the next rows of the feed; count 0 when there are none.
func (s StagingShape) next(k, total int) (first, count int) {
	if s.feed != nil {
		return s.feed.Take(s.rows)
	}
	if k >= s.blocks {
		return 0, 0
	}
	return s.span(k, total)
}

// RowRun is a run of a block's rows that are consecutive rows of a matrix:
// block rows at .. at+count-1 are matrix rows first .. first+count-1, so
// one 2D copy moves them all.
type RowRun struct {
	At, Count int
	First     int32
}

// RowRuns splits sources into maximal runs of consecutive vertices,
// appending to runs[:0].
func RowRuns(runs []RowRun, sources []int32) []RowRun {
	runs = runs[:0]
	for i, s := range sources {
		if k := len(runs) - 1; k >= 0 && runs[k].First+int32(runs[k].Count) == s {
			runs[k].Count++
			continue
		}
		runs = append(runs, RowRun{At: i, Count: 1, First: s})
	}
	return runs
}

// StagingOptions shape the pinned blocks results stream through.
type StagingOptions struct {
	// Blocks is the most pinned blocks one run holds, Bytes the distances
	// one block holds (and as much again of parents).
	Blocks int
	Bytes  int64
	// Fixed says the caller chose Blocks and Bytes, so that runs keep them
	// rather than widening blocks for wide rows.
	Fixed bool
}

// StreamStats describes how a run's rows reached the host.
type StreamStats struct {
	// Rows and Blocks handed to the sink; Bytes copied from the device
	// (distances and parents).
	Rows, Blocks int
	Bytes        int64
	// Wall is the time from the first block taken from the pool to the
	// last handed over; Copy the device time of the copy stream, from
	// before its first copy to after its last (CUDA events), which
	// includes any time it waited for kernels or for the host. Open is the
	// time taken to set up the staging before that (pinned memory the
	// stager had not cached yet is allocated then). Wait is the part of
	// Wall the producer spent waiting for a pinned block the consumer had
	// not released yet: the device's idle time behind the writers.
	Wall, Copy, Open, Wait time.Duration
}

// Add counts o's rows, blocks and bytes in s; the times are the longer
// of the two, for streams that ran at the same time.
func (s StreamStats) Add(o StreamStats) StreamStats {
	s.Rows += o.Rows
	s.Blocks += o.Blocks
	s.Bytes += o.Bytes
	s.Wall, s.Copy, s.Open = max(s.Wall, o.Wall), max(s.Copy, o.Copy), max(s.Open, o.Open)
	s.Wait = max(s.Wait, o.Wait)
	return s
}

// Then counts o, which ran after s: the times add up too.
func (s StreamStats) Then(o StreamStats) StreamStats {
	wall, copied, open, wait := s.Wall+o.Wall, s.Copy+o.Copy, s.Open+o.Open, s.Wait+o.Wait
	s = s.Add(o)
	s.Wall, s.Copy, s.Open, s.Wait = wall, copied, open, wait
	return s
}

// Rate is Bytes per second of Wall, in GB/s.
func (s StreamStats) Rate() float64 { return gbPerSecond(s.Bytes, s.Wall) }

// CopyRate is Bytes per second of Copy, in GB/s.
func (s StreamStats) CopyRate() float64 { return gbPerSecond(s.Bytes, s.Copy) }

// String summarises the stats on one line.
func (s StreamStats) String() string {
	return fmt.Sprintf("%d rows in %d blocks, %s in %.3f s: %.1f GB/s (copy stream %.3f s, %.1f GB/s)",
		s.Rows, s.Blocks, FormatBytes(s.Bytes), s.Wall.Seconds(), s.Rate(), s.Copy.Seconds(), s.CopyRate())
}

func gbPerSecond(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bytes) / d.Seconds() / 1e9
}
