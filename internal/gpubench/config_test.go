package gpubench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/allpairs"
)

func TestParseFW(t *testing.T) {
	cfg, err := Parse(Commands["fw"], "fw", []string{"--n=4096", "--p=0.01", "--variants=fast, blocked",
		"--parents=with", "--strategy=track", "--repeats=3", "--validate=none", "--seed=9", "--lookahead=false", "--staging-blocks=3"})
	if err != nil {
		t.Fatal(err)
	}
	fw := cfg.(*FWConfig)
	if fw.N != 4096 || fw.P != 0.01 || len(fw.Variants) != 2 || fw.Variants[1] != allpairs.VariantBlocked ||
		len(fw.Parents) != 1 || !fw.Parents[0] || fw.Strategy != allpairs.ParentsTrack || fw.Repeats != 3 ||
		fw.Validate != "" || fw.Seed != 9 || fw.Lo != 1 || fw.Hi != 100 || !fw.Ceiling || fw.Lookahead ||
		fw.StagingBlocks != 3 || fw.StagingMiB != 64 {
		t.Fatalf("parsed %+v", fw)
	}
}

func TestParseFWRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--variants=fast,quick"},
		{"--parents=some"},
		{"--strategy=guess"},
		{"--n=0"},
		{"--p=2"},
		{"--repeats=0"},
		{"--validate=fastest"},
		{"--staging-blocks=1"},
		{"--staging-mib=0"},
		{"stray"},
		{"--nope"},
	} {
		if _, err := Parse(Commands["fw"], "fw", args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestParseCeiling(t *testing.T) {
	cfg, err := Parse(Commands["ceiling"], "ceiling", []string{"--duration=50ms", "--repeats=2"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.(*CeilingConfig); c.Duration.Milliseconds() != 50 || c.Repeats != 2 {
		t.Fatalf("parsed %+v", c)
	}
}

func TestMainUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main(context.Background(), nil, &out, &errOut, GraphFiles{}); code != 2 || !strings.Contains(errOut.String(), "fw") {
		t.Fatalf("no arguments: code %d, usage %q", code, errOut.String())
	}
	errOut.Reset()
	if code := Main(context.Background(), []string{"sort"}, &out, &errOut, GraphFiles{}); code != 2 || !strings.Contains(errOut.String(), `unknown subcommand "sort"`) {
		t.Fatalf("unknown subcommand: code %d, %q", code, errOut.String())
	}
}

// failAfter is a writer that takes n bytes, then fails.
type failAfter struct {
	n      int
	writes int
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.writes++
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestResultWriterKeepsFirstError(t *testing.T) {
	w := &failAfter{n: 4}
	r := &resultWriter{w: w}
	if _, err := fmt.Fprint(r, "ok\n"); err != nil || r.err != nil {
		t.Fatalf("first write: %v, kept %v", err, r.err)
	}
	if _, err := fmt.Fprint(r, "too long\n"); err == nil || r.err == nil {
		t.Fatalf("failing write: %v, kept %v", err, r.err)
	}
	if _, err := fmt.Fprint(r, "x"); !errors.Is(err, r.err) || w.writes != 2 {
		t.Fatalf("write after the failure: %v, %d writes reached the writer", err, w.writes)
	}
}
