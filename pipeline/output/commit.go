package output

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// outputLockWait bounds how long a commit waits for another run's commit
// into the same output folder; a commit is a swap and a removal, so a lock
// held that long belongs to a process that hangs or runs on another host.
const outputLockWait = 10 * time.Minute

// Owned is the temporary folder a run writes its output into, with
// what the run found at the final name when it started (Pending), so
// that its commit can tell whether another run committed there meanwhile.
type Owned struct {
	*atomicfile.Dir
	// RunID names this run in its manifest (run_id), so that a run
	// refused at commit can say which one holds the output.
	RunID     string
	overwrite string
	seen      Identity
	// made are the folders made above the output for this run, deepest
	// first: removed again when nothing is committed.
	made []string
	// log receives the commit lock's warnings (a stale lock broken).
	log *slog.Logger
}

// Pending is what a run found at its output folder when it started,
// taken before any work: a refused folder costs no computing, and the
// commit compares it with what is there then.
type Pending struct {
	final     string
	overwrite string
	seen      Identity
}

// Begin checks that the folder final may be replaced (ownerCheck)
// and records which committed output is there.
func Begin(final, overwrite string) (*Pending, error) {
	final = filepath.Clean(final)
	if err := OwnerCheck(final, overwrite); err != nil {
		return nil, err
	}
	seen, err := ReadIdentity(final)
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	return &Pending{final: final, overwrite: overwrite, seen: seen}, nil
}

// Open makes the output's parent folders when needed, removes what killed
// earlier attempts left beside it and opens the temporary folder beside
// it.
func (s *Pending) Open(log *slog.Logger) (*Owned, error) {
	made, err := mkdirParents(filepath.Dir(s.final))
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	o := &Owned{RunID: newRunID(), overwrite: s.overwrite, seen: s.seen, made: made, log: log}
	removed, err := atomicfile.RemoveStale(s.final)
	for _, path := range removed {
		log.Warn("removed the temporary of an attempt whose process is gone", "path", path)
	}
	if err == nil {
		o.Dir, err = atomicfile.CreateDir(s.final)
	}
	if err != nil {
		o.removeMade()
		return nil, &stageerr.OutputError{Err: err}
	}
	return o, nil
}

// Abort removes the temporary folder and the parent folders made for it,
// if they are still empty. It is a no-op after a successful commit.
func (o *Owned) Abort() error {
	err := o.Dir.Abort()
	o.removeMade()
	return err
}

// removeMade removes the folders made above the output, deepest first,
// while they are empty: after a commit the first holds the output and
// none is removed.
func (o *Owned) removeMade() {
	for _, dir := range o.made {
		if os.Remove(dir) != nil {
			return
		}
	}
	o.made = nil
}

// Commit writes the manifest into the temporary folder with write, then,
// under the output's lock (runs into one folder commit one at a time),
// checks that the output at the final name is still the one this run
// found when it started and still pathflow's, and replaces it. Another
// run's commit in between gives a *SupersededError: this run's result is
// dropped and the newer output stays. The wait for the lock ends with ctx
// (a signal), which the error then wraps.
func (o *Owned) Commit(ctx context.Context, write func(dir string) error) error {
	if err := write(o.Path()); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	final := o.Name()
	release, err := atomicfile.Lock(ctx, outputLockPath(final), outputLockWait, o.log)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	defer release()
	now, err := ReadIdentity(final)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if now != o.seen {
		o.Dir.Abort()
		return &stageerr.SupersededError{Dir: final, RunID: o.RunID, Now: now.RunID}
	}
	if err := OwnerCheck(final, o.overwrite); err != nil {
		return err
	}
	if err := o.Dir.Commit(); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	o.made = nil
	return nil
}

// outputLockPath is the lock file of commits into final: hidden, beside
// it, so it is never inside an output that a commit swaps away.
func outputLockPath(final string) string {
	return filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".lock")
}

// Identity tells committed outputs apart: the checksum of the
// manifest (which holds the run's id and timings), zero when there is no
// manifest.
type Identity struct {
	sum   string
	RunID string // the run id the manifest records, "" for none
}

// ReadIdentity reads the identity of the output committed at dir.
func ReadIdentity(dir string) (Identity, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return Identity{}, nil
	}
	if err != nil {
		return Identity{}, err
	}
	var m struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal(b, &m) // a foreign manifest has no run id; its checksum still identifies it
	sum := sha256.Sum256(b)
	return Identity{sum: hex.EncodeToString(sum[:]), RunID: m.RunID}, nil
}

// newRunID returns a random id for a run's manifest.
func newRunID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// mkdirParents makes dir and its missing parents and returns the folders it
// made, deepest first.
func mkdirParents(dir string) ([]string, error) {
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, p)
		if p == filepath.Dir(p) {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("making the output's folder: %w", err)
	}
	return missing, nil
}

// BeginShared records what is committed at final, a folder inside a
// folder that other tasks share (seen, as ReadIdentity read it), for
// OpenShared: the shared folder's own checks are the caller's.
func BeginShared(final, overwrite string, seen Identity) *Pending {
	return &Pending{final: final, overwrite: overwrite, seen: seen}
}

// Final is the folder the output is committed as.
func (s *Pending) Final() string { return s.final }

// OpenShared opens the temporary folder of an output inside a folder that
// other tasks share (a shard inside its dataset), removing first what
// killed earlier attempts left there. The shared folder is never removed,
// even when this attempt fails.
func (s *Pending) OpenShared(log *slog.Logger) (*Owned, error) {
	if err := os.MkdirAll(filepath.Dir(s.final), 0o755); err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	removed, err := atomicfile.RemoveStale(s.final)
	for _, path := range removed {
		log.Warn("removed the temporary of an attempt whose process is gone", "path", path)
	}
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	out, err := atomicfile.CreateDir(s.final)
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	return &Owned{Dir: out, RunID: newRunID(), overwrite: s.overwrite, seen: s.seen, log: log}, nil
}

// Seen is the output that was committed at the final name when the run
// began: a commit that finds another there was superseded.
func (o *Owned) Seen() Identity { return o.seen }
