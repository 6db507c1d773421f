package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pathflow/pathflow/pipeline/output"
)

// An ingest output is used only as its manifest lists it: every table,
// hierarchy table and reload file that compute (or an ingest of the
// folder) reads is checked against the SHA-256 or the reload file's own
// checksum that the ingest recorded, so a damaged or replaced file is an
// input error (exit 3) naming it, never a wrong answer. A flipped byte
// can leave a Parquet page decodable, with other numbers in it: the
// decoders' own checks cannot be relied on for this.

// Listing is the manifest of an ingest output folder, as the
// loaders read it to verify the files they use.
type Listing struct {
	dir      string
	manifest *output.IngestManifest
}

// ReadIngestListing reads the manifest of the ingest output in dir. A
// folder without one (written by something else, or by an ingest older
// than manifests) is refused: nothing would tell its files from damaged
// ones.
func ReadIngestListing(dir string) (*Listing, error) {
	path := filepath.Join(dir, output.ManifestName)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no %s: the tables of an ingest output are read only with the manifest that lists their checksums, so that a damaged file is never used (ingest the graph again)", dir, output.ManifestName)
	case err != nil:
		return nil, err
	}
	var m output.IngestManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w (ingest the graph again)", path, err)
	}
	if len(m.Files) == 0 {
		return nil, fmt.Errorf("%s: lists no files: not the manifest of an ingest output (ingest the graph again)", path)
	}
	return &Listing{dir: dir, manifest: &m}, nil
}

// Entry returns the manifest's entry for the file at path, in the folder,
// or nil when it lists none.
func (l *Listing) Entry(path string) *output.ManifestFile {
	rel, err := filepath.Rel(l.dir, path)
	if err != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	for i := range l.manifest.Files {
		if l.manifest.Files[i].Path == rel {
			return &l.manifest.Files[i]
		}
	}
	return nil
}

// RecordedShortcuts returns the number of shortcuts the manifest records
// for the folder's stored hierarchy, whose files it lists with their
// checksums, or 0 when it records none (no hierarchy, or none added).
func (l *Listing) RecordedShortcuts() int {
	if h := l.manifest.Hierarchy; h != nil && h.Stored {
		return h.Shortcuts
	}
	return 0
}

// ListedOrMissing checks, without reading it, that the file at path is
// listed and present: the errors checkFile gives, for a file the caller
// is about to decide on by its presence.
func (l *Listing) ListedOrMissing(path string) error {
	listed := l.Entry(path)
	if listed == nil {
		return l.unlisted(path)
	}
	if _, err := os.Stat(path); err != nil {
		return l.missing(path, err)
	}
	return nil
}

func (l *Listing) unlisted(path string) error {
	return fmt.Errorf("%s: not listed in %s: not written by the ingest that wrote the folder (ingest the graph again)", path, output.ManifestName)
}

func (l *Listing) missing(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: listed in %s but missing: the ingest output is incomplete (ingest the graph again)", path, output.ManifestName)
	}
	return fmt.Errorf("%s: listed in %s but not readable: %w", path, output.ManifestName, err)
}

// Changed is the error for a file whose bytes are not those listed.
func Changed(path, what, got, listed string) error {
	return fmt.Errorf("%s: corrupt, or changed since ingest: its %s is %s, %s lists %s (ingest the graph again)", path, what, got, output.ManifestName, listed)
}

// CheckMapped compares a mapped file at path (ReloadName,
// output.HierarchyName), opened and found sound by its own CRCs, with its
// entry in the manifest: its size, then its checksum of itself, which the
// manifest records beside the SHA-256 so that the comparison costs
// nothing beside the open. Where an older ingest recorded no such
// checksum, the file is hashed instead (Check), one more pass over it.
func (l *Listing) CheckMapped(path string, bytes int64, checksum string) error {
	listed := l.Entry(path)
	switch {
	case listed == nil:
		return l.unlisted(path)
	case bytes != listed.Bytes:
		return &mappedMismatch{path: path, what: "size", got: fmt.Sprintf("%d bytes", bytes), listed: fmt.Sprintf("%d", listed.Bytes)}
	case listed.Checksum == "":
		return l.Check(path)
	case checksum != listed.Checksum:
		return &mappedMismatch{path: path, what: "checksum", got: checksum, listed: listed.Checksum}
	}
	return nil
}

// mappedMismatch is CheckMapped's error for a mapped file whose size or
// checksum is not the one listed; the reload file's loader words it as
// its own.
type mappedMismatch struct {
	path, what, got, listed string
}

func (e *mappedMismatch) Error() string { return Changed(e.path, e.what, e.got, e.listed).Error() }

// ifChangedSinceIngest returns, in place of err (a failure to read the
// file at path), the error of its check against the manifest beside it,
// when one lists it and the check fails: a table of an ingest output
// named directly whose damage makes its format unknown is reported as
// damaged.
func ifChangedSinceIngest(path string, err error) error {
	listing, listErr := ReadIngestListing(filepath.Dir(path))
	if listErr != nil || listing.Entry(path) == nil {
		return err
	}
	if checkErr := listing.Check(path); checkErr != nil {
		return checkErr
	}
	return err
}

// fileCheck is the SHA-256 check of one file, running on a goroutine of
// its own.
type fileCheck struct {
	done chan struct{}
	err  error
}

// checkFile starts checking the file at path against its listing: its
// size, then the SHA-256 of its bytes, read on a goroutine of its own so
// that the hash (one core, at about 0.8 GB/s with the CPU's SHA
// instructions as measured in docs/performance.md, "output.format:
// distmatrix") runs beside the decoder, which reads the same pages from
// the page cache.
func (l *Listing) checkFile(path string) *fileCheck {
	c := &fileCheck{done: make(chan struct{})}
	listed := l.Entry(path)
	if listed == nil {
		c.err = l.unlisted(path)
		close(c.done)
		return c
	}
	go func() {
		defer close(c.done)
		c.err = hashMatches(path, listed, l)
	}()
	return c
}

// hashMatches compares the file at path with its listing
// (output.CheckListed), in the words of an ingest output's checks.
func hashMatches(path string, listed *output.ManifestFile, l *Listing) error {
	err := output.CheckListed(path, *listed)
	var notOpened *output.NotOpenedError
	var size *output.SizeMismatchError
	var sum *output.SHA256MismatchError
	switch {
	case errors.As(err, &notOpened):
		return l.missing(path, notOpened.Err)
	case errors.As(err, &size):
		return Changed(path, "size", fmt.Sprintf("%d bytes", size.Bytes), fmt.Sprintf("%d", size.Listed))
	case errors.As(err, &sum):
		return Changed(path, "SHA-256", sum.SHA256, sum.Listed)
	}
	return err
}

// wait returns the check's result once it has one.
func (c *fileCheck) wait() error {
	<-c.done
	return c.err
}

// Check checks the file at path against its listing and waits for the
// answer: the check VerifiedRead runs beside a decoder, for a caller that
// reads nothing of the file meanwhile.
func (l *Listing) Check(path string) error { return l.checkFile(path).wait() }

// VerifiedRead runs read, which decodes the files at paths, while it
// checks them against the listing, a goroutine per file. A file that
// fails its check makes the error, before any of read's: a decoder's
// complaint about a damaged file says less than the check does, and its
// success on one is no answer. The cost beside read is that of hashing
// the largest file, on a core of its own.
func (l *Listing) VerifiedRead(paths []string, read func() error) error {
	checks := make([]*fileCheck, len(paths))
	for i, p := range paths {
		checks[i] = l.checkFile(p)
	}
	readErr := read()
	for _, c := range checks {
		if err := c.wait(); err != nil {
			return err
		}
	}
	return readErr
}
