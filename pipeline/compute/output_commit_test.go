package compute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestConcurrentCommitsOneWins: attempts that all started before any of
// them committed race to commit into one folder: exactly one commits, every
// other one reports stageerr.Superseded and leaves the winner's output whole;
// nothing is left beside it.
func TestConcurrentCommitsOneWins(t *testing.T) {
	const attempts = 6
	parent := t.TempDir()
	final := filepath.Join(parent, "out")
	for round := range 3 { // the first into a missing folder, then over an output
		outs := make([]*output.Owned, attempts)
		for i := range outs {
			start, err := output.Begin(final, output.OverwritePathflow)
			if err != nil {
				t.Fatal(err)
			}
			o, err := start.Open(stagetest.QuietLog)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Abort()
			if err := os.WriteFile(filepath.Join(o.Path(), "part"), []byte(o.RunID), 0o644); err != nil {
				t.Fatal(err)
			}
			outs[i] = o
		}
		errs := make([]error, attempts)
		var wg sync.WaitGroup
		for i, o := range outs {
			wg.Go(func() {
				m := &output.Manifest{Version: version.Version, RunID: o.RunID, Files: []output.ManifestFile{{Path: "part"}}}
				errs[i] = o.Commit(context.Background(), func(dir string) error { return output.WriteManifest(dir, m) })
			})
		}
		wg.Wait()
		var winners []string
		for i, err := range errs {
			switch code := stageerr.KindOf(err); code {
			case stageerr.None:
				winners = append(winners, outs[i].RunID)
			case stageerr.Superseded:
				var sup *stageerr.SupersededError
				if !errors.As(err, &sup) || sup.Dir != final || !strings.Contains(err.Error(), final) {
					t.Errorf("round %d: superseded error %v does not name %s", round, err, final)
				}
			default:
				t.Errorf("round %d: attempt %d: %v (kind %v), want kind %v or %v", round, i, err, code, stageerr.None, stageerr.Superseded)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("round %d: %d attempts committed, want 1", round, len(winners))
		}
		m, err := output.ReadManifest(final)
		if err != nil {
			t.Fatal(err)
		}
		part, _ := os.ReadFile(filepath.Join(final, "part"))
		if m.RunID != winners[0] || string(part) != winners[0] {
			t.Errorf("round %d: the output holds run %q (part from %q), the winner is %q", round, m.RunID, part, winners[0])
		}
		for i, err := range errs {
			var sup *stageerr.SupersededError
			if errors.As(err, &sup) && (sup.Now != winners[0] || sup.RunID != outs[i].RunID) {
				t.Errorf("round %d: %v names run %q as in place, want %q", round, err, sup.Now, winners[0])
			}
		}
		if got := stagetest.Names(t, parent); !slices.Equal(got, []string{"out"}) {
			t.Errorf("round %d: beside the output: %v, want nothing (temporaries and the lock removed)", round, got)
		}
	}
}

// supersedingBackend commits another run into the same output folder
// while its own run is under way, then computes as the CPU does.
type supersedingBackend struct {
	*fakeGPU
	other func() (*Result, error)
	won   *Result
	err   error
}

func (b *supersedingBackend) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	b.won, b.err = b.other()
	return b.fakeGPU.Run(ctx, req, sink)
}

// registerSuperseding registers, as the gpu backend, a fake GPU that sb
// wraps: each backend it opens is sb, around the fake GPU just opened.
func registerSuperseding(t *testing.T, sb *supersedingBackend) {
	inner := fakeGPUFactory(nil)
	f := inner
	f.Open = func(o backend.Options) (backend.Backend, error) {
		b, err := inner.Open(o)
		if err != nil {
			return nil, err
		}
		sb.fakeGPU = b.(*fakeGPU)
		return sb, nil
	}
	registerFake(t, f)
}

// TestComputeSupersededWhileRunning: a run whose output folder is
// committed by another run while it computes exits stageerr.Superseded and
// leaves the other run's output in place.
func TestComputeSupersededWhileRunning(t *testing.T) {
	const spec = "grid:side=6,seed=8"
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	runCompute(t, loadCompute(t, "", "-generate", spec, "-backend", "cpu", "-out", out)) // an older output
	sb := &supersedingBackend{other: func() (*Result, error) {
		return Run(context.Background(), loadCompute(t, "", "-generate", spec, "-backend", "cpu", "-sources", "3", "-out", out), stagetest.QuietLog, io.Discard)
	}}
	registerSuperseding(t, sb)
	_, err := Run(context.Background(), loadCompute(t, "", "-generate", spec, "-backend", "gpu", "-sources", "0", "-out", out), stagetest.QuietLog, io.Discard)
	if sb.err != nil {
		t.Fatalf("the other run: %v", sb.err)
	}
	if stageerr.KindOf(err) != stageerr.Superseded || !strings.Contains(err.Error(), sb.won.Manifest.RunID) {
		t.Fatalf("err = %v (kind %v), want kind %v naming run %s", err, stageerr.KindOf(err), stageerr.Superseded, sb.won.Manifest.RunID)
	}
	m, err := output.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.RunID != sb.won.Manifest.RunID || m.Backend != backend.CPU || m.Sources != 1 {
		t.Errorf("the output holds run %s (backend %s), want the other run %s", m.RunID, m.Backend, sb.won.Manifest.RunID)
	}
	if ok, why := upToDate(out, m.InputSHA256, m.ConfigSHA256, true); !ok {
		t.Errorf("the other run's output is not whole: %s", why)
	}
	if got := stagetest.Names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("beside the output: %v, want nothing", got)
	}
}

// TestConcurrentComputeRuns: several compute runs started together into
// one folder, round after round, each end committed or superseded (never
// an output error), and the folder always holds one whole output: that of
// a run that committed.
func TestConcurrentComputeRuns(t *testing.T) {
	const runs, rounds = 4, 5
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	superseded := 0
	defer func() { t.Logf("%d of %d runs were superseded", superseded, runs*rounds) }()
	for round := range rounds {
		results := make([]*Result, runs)
		errs := make([]error, runs)
		var wg sync.WaitGroup
		for i := range runs {
			cfg := loadCompute(t, "", "-generate", "grid:side=12,seed=3", "-backend", "cpu", "-sources", fmt.Sprint(i), "-workers", "1", "-out", out)
			wg.Go(func() { results[i], errs[i] = Run(context.Background(), cfg, stagetest.QuietLog, io.Discard) })
		}
		wg.Wait()
		committed := map[string]bool{}
		for i, err := range errs {
			switch stageerr.KindOf(err) {
			case stageerr.None:
				committed[results[i].Manifest.RunID] = true
			case stageerr.Superseded:
				superseded++
			default:
				t.Fatalf("round %d: run %d: %v (kind %v), want kind %v or %v", round, i, err, stageerr.KindOf(err), stageerr.None, stageerr.Superseded)
			}
		}
		m, err := output.ReadManifest(out)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if ok, _ := upToDate(out, m.InputSHA256, m.ConfigSHA256, true); !committed[m.RunID] || !ok {
			t.Errorf("round %d: the output holds run %s, not whole or not one that committed (%v)", round, m.RunID, committed)
		}
		if got := stagetest.Names(t, parent); !slices.Equal(got, []string{"out"}) {
			t.Errorf("round %d: beside the output: %v", round, got)
		}
	}
}

// TestShardAttemptsCommitOnce: while an attempt of a shard runs, another
// attempt of the same index commits. With the same settings the first
// attempt's commit is a no-op (the bytes would be the same) and the other's
// shard stays; with other settings the first reports stageerr.Superseded.
func TestShardAttemptsCommitOnce(t *testing.T) {
	const spec = "grid:side=6,seed=9"
	for _, tc := range []struct {
		name  string
		other []string // the other attempt's extra flags
		code  stageerr.Kind
	}{
		{"same settings", nil, stageerr.None},
		{"other settings", []string{"-max-distance", "40"}, stageerr.Superseded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dataset := filepath.Join(t.TempDir(), "dataset")
			args := []string{"-generate", spec, "-backend", "gpu", "-sources", "all", "-out", dataset, "-shard", "0/2"}
			sb := &supersedingBackend{}
			sb.other = func() (*Result, error) {
				sb.other = func() (*Result, error) { return sb.won, nil } // the other attempt's own Run
				return Run(context.Background(), loadCompute(t, "", append(args, tc.other...)...), stagetest.QuietLog, io.Discard)
			}
			registerSuperseding(t, sb)
			_, err := Run(context.Background(), loadCompute(t, "", args...), stagetest.QuietLog, io.Discard)
			if sb.err != nil {
				t.Fatalf("the other attempt: %v", sb.err)
			}
			if stageerr.KindOf(err) != tc.code {
				t.Fatalf("err = %v (kind %v), want kind %v", err, stageerr.KindOf(err), tc.code)
			}
			m, err := output.ReadShardManifest(output.ShardDir(dataset, 0))
			if err != nil {
				t.Fatal(err)
			}
			if m.RunID != sb.won.Manifest.RunID {
				t.Errorf("the shard holds run %s, want the other attempt's %s", m.RunID, sb.won.Manifest.RunID)
			}
			if got := stagetest.Names(t, dataset); slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, ".") }) {
				t.Errorf("the dataset holds %v: a temporary or lock was left", got)
			}
		})
	}
}
