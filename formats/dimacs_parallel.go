package formats

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// dimacsPart is one chunk of arc lines on its way through scanParallel:
// cut by the feeder, parsed by a worker, joined by the collector.
type dimacsPart struct {
	text []byte
	// arcs receives the part's arcs. When window is set it is the slice
	// [start, start+lines of text) of the result arrays as the feeder found
	// them, so that in a file of arc lines only the arcs land in place and
	// the collector copies nothing; otherwise arrays of the worker's own.
	arcs   arcArrays
	window bool
	start  int
	lines  int64 // lines in text, once parsed
	err    error // a read error (from the feeder) or a parse error
	done   chan struct{}
}

// scanParallel parses the text of c like scanLines(c, ..., d.scanChunk),
// but once the p line is read, chunks go to workers goroutines and are
// joined in file order: the arcs, the line numbers and the first error
// (the one earliest in the file) are those of the sequential scan. Up to
// 2 x workers chunks are in flight, which bounds memory.
func (d *dimacsReader) scanParallel(c *lineChunks, workers int) error {
	for d.pLine == 0 {
		b, err := c.next()
		if err != nil {
			return d.chunkErr(err)
		}
		if err := d.scanChunk(b); err != nil {
			return err
		}
	}

	free := make(chan []byte, 4*workers)
	spareArcs := make(chan arcArrays, 4*workers)
	c.spare = func(size int) []byte {
		select {
		case b := <-free:
			if cap(b) >= size {
				return b[:size]
			}
		default:
		}
		return make([]byte, size)
	}
	ordered := make(chan *dimacsPart, 2*workers)
	jobs := make(chan *dimacsPart, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func(result arcArrays) {
		defer wg.Done()
		feedParts(c, result, ordered, jobs, stop)
	}(d.arcs)
	for range workers {
		go func() {
			defer wg.Done()
			d.parseParts(jobs, spareArcs)
		}()
	}
	err := d.joinParts(ordered, free, spareArcs)
	close(stop)
	for range ordered {
		// Drain, so the feeder can see stop and return.
	}
	wg.Wait()
	return err
}

// feedParts cuts c into parts and sends each, in file order, to ordered
// (for joinParts) and to jobs (for a worker). Each part whose lines, were
// they all arcs, fit in result after the arcs before it gets that window
// of result. A read error ends the input: it travels as a part of its own,
// already done.
func feedParts(c *lineChunks, result arcArrays, ordered, jobs chan<- *dimacsPart, stop <-chan struct{}) {
	defer close(ordered)
	defer close(jobs)
	next := result.k
	for {
		select {
		case <-stop: // an error ended the read: read no further
			return
		default:
		}
		b, err := c.next()
		if errors.Is(err, io.EOF) {
			return
		}
		p := &dimacsPart{text: b, err: err, done: make(chan struct{})}
		if err != nil {
			close(p.done)
		} else if lines := bytes.Count(b, []byte{'\n'}); next+lines <= len(result.src) {
			p.arcs = result.window(next, lines)
			p.window, p.start = true, next
			next += lines
		} else {
			next = len(result.src) // no later part fits either
		}
		select {
		case ordered <- p:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
		jobs <- p
	}
}

// parseParts parses parts with a copy of d's state after the p line, so
// every check (ids against N, a second p line) is the sequential one. Line
// numbers in its errors count from the part's first line.
func (d *dimacsReader) parseParts(jobs <-chan *dimacsPart, spareArcs <-chan arcArrays) {
	for p := range jobs {
		w := &dimacsReader{name: d.name, pLine: d.pLine, n: d.n, m: d.m, arcs: p.arcs}
		if !p.window {
			select {
			case w.arcs = <-spareArcs:
			default:
			}
			// A part of len(text) bytes holds at most len(text)/8 arc
			// lines, so the fast path never finds the arrays full.
			w.arcs.reset(len(p.text)/8 + 1)
		}
		p.err = w.scanChunk(p.text)
		p.arcs, p.lines = w.arcs, w.line
		close(p.done)
	}
}

// joinParts appends the parts' arcs to d in file order, counting lines,
// and returns the first error with its line number made absolute. Arcs
// already in place (a window that starts where the arcs so far end, in the
// current result arrays) are only counted; others are copied. Each part's
// text buffer goes back to free for the feeder, its own arc arrays to
// spareArcs for the workers.
func (d *dimacsReader) joinParts(ordered <-chan *dimacsPart, free chan<- []byte, spareArcs chan<- arcArrays) error {
	for p := range ordered {
		<-p.done
		if p.err != nil {
			var pe *ParseError
			if errors.As(p.err, &pe) && pe.Line > 0 {
				pe.Line += d.line
				return pe
			}
			return d.chunkErr(p.err)
		}
		if p.window && p.start == d.arcs.k && d.arcs.holds(&p.arcs, p.start) {
			d.arcs.k += p.arcs.k
		} else {
			d.arcs.appendArcs(&p.arcs)
		}
		d.line += p.lines
		select {
		case free <- p.text[:cap(p.text)]:
		default:
		}
		if !p.window {
			select {
			case spareArcs <- p.arcs:
			default:
			}
		}
	}
	return nil
}

// chunkErr turns an error of lineChunks.next into the reader's error: nil
// at the end of the input, else the error placed at the next line.
func (d *dimacsReader) chunkErr(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return lineErr(d.name, d.line+1, "%v", err)
}
