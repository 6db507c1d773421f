package compute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// The tests in this file replace the "gpu" backend in the global registry;
// none of them may run in parallel.

// fakeGPU stands in for the CUDA backend: it computes on the CPU backend
// and hands the rows over in int32 (graph.Inf32 for no path), as the GPU
// does.
type fakeGPU struct {
	cpu       *cpu.Backend
	cpuChoice backend.Choice // what the CPU runs for the GPU's choice
}

func (f *fakeGPU) Name() string   { return backend.GPU }
func (f *fakeGPU) Device() string { return "fake GPU" }
func (f *fakeGPU) Close() error   { return nil }

func (f *fakeGPU) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	inner := req
	inner.Choice = f.cpuChoice
	return f.cpu.Run(ctx, inner, func(rows *results.Rows) error {
		// Sources from the request: the block's own may be reused once
		// released.
		// Whatever the block's kind (whole, narrowed, ragged or sparse):
		// the same cells in int32.
		cells := len(rows.Dist32) + len(rows.Dist64)
		out := &results.Rows{First: rows.First, Sources: req.Sources[rows.First : rows.First+rows.Len()], Width: rows.Width,
			Offsets: slices.Clone(rows.Offsets), Vertices: slices.Clone(rows.Vertices), Dist32: make([]int32, cells)}
		for at := range cells {
			d := rows.Distances().Weight(at)
			if d == paths.Unreachable {
				d = int64(graph.Inf32)
			}
			out.Dist32[at] = int32(d)
		}
		if rows.Parent != nil {
			out.Parent = slices.Clone(rows.Parent)
		}
		rows.Release()
		if err := req.CheckRows(out); err != nil {
			return err
		}
		return sink(out)
	})
}

// fakeGPUFactory is a "gpu" factory: Choose is the CPU's with int32 rows
// (ErrNeedsInt64 where int32 might overflow, as on the GPU); Open opens a
// fakeGPU, or calls open when it is not nil.
func fakeGPUFactory(open func(o backend.Options) (backend.Backend, error)) backend.Factory {
	var cpuChoice backend.Choice
	return backend.Factory{
		Name:      backend.GPU,
		Available: func() (bool, string) { return true, "fake GPU answers" },
		Choose: func(p backend.Problem) (backend.Choice, error) {
			if !graph.FitsInt32Distances(int64(p.N), p.MinWeight, p.MaxWeight) {
				return backend.Choice{}, fmt.Errorf("fake gpu: %w", backend.ErrNeedsInt64)
			}
			c, err := cpu.Choose(p)
			cpuChoice = c
			c.Int64 = false
			return c, err
		},
		Open: func(o backend.Options) (backend.Backend, error) {
			if open != nil {
				return open(o)
			}
			return &fakeGPU{cpu: cpu.New(o.Workers), cpuChoice: cpuChoice}, nil
		},
	}
}

// computeLogged runs cfg with a logger whose output it returns.
func computeLogged(t *testing.T, cfg *Config) (*Result, *stagetest.LogBuffer, error) {
	t.Helper()
	logs := &stagetest.LogBuffer{}
	res, err := Run(context.Background(), cfg, logs.Logger(), io.Discard)
	return res, logs, err
}

// checkRanOnCPU checks that a run's manifest names the CPU backend, that
// its data files name none (a run fact) and that its distances are right.
func checkRanOnCPU(t *testing.T, res *Result, out, spec string, sources []int32) {
	t.Helper()
	if res.Manifest.Backend != backend.CPU {
		t.Errorf("manifest backend %q, want cpu", res.Manifest.Backend)
	}
	g := graph.BuildCSR(mustGenerate(t, spec))
	ref := refDists(g, sources)
	rows, meta, _ := readLong(t, filepath.Join(out, output.DistancesDir))
	if b, ok := meta["pathflow.backend"]; ok || !strings.Contains(res.Manifest.Device, "CPU") {
		t.Errorf("data files say backend %q, the manifest device %q", b, res.Manifest.Device)
	}
	compareLong(t, g, ref, rows, expectLong(ref, sources, nil, g.N, results.NoCutoff))
}

func TestComputeFallsBackToCPUWhenTheGPUNeedsInt64(t *testing.T) {
	var opened atomic.Int32
	f := fakeGPUFactory(func(backend.Options) (backend.Backend, error) {
		opened.Add(1)
		return nil, errors.New("fake gpu: opened although it cannot run the graph")
	})
	f.Choose = func(p backend.Problem) (backend.Choice, error) {
		return backend.Choice{}, fmt.Errorf("fake gpu: %d vertices of weight up to %d: %w", p.N, p.MaxWeight, backend.ErrNeedsInt64)
	}
	registerFake(t, f)
	const spec = "grid:side=8,seed=2"
	for _, requested := range []string{BackendAuto, backend.GPU} {
		t.Run(requested, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			res, logs, err := computeLogged(t, loadCompute(t, "", "-generate", spec, "-backend", requested, "-sources", "0,63", "-out", out))
			if err != nil {
				t.Fatal(err)
			}
			checkRanOnCPU(t, res, out, spec, []int32{0, 63})
			warnings := logs.Warnings()
			if len(warnings) != 1 || !strings.Contains(warnings[0], "using the CPU backend") || !strings.Contains(warnings[0], "int32") {
				t.Errorf("warnings %q, want one about the CPU and int32", warnings)
			}
			if !strings.Contains(res.Manifest.BackendReason, "int32") {
				t.Errorf("backend_reason %q does not say why", res.Manifest.BackendReason)
			}
		})
	}
	if opened.Load() != 0 {
		t.Errorf("the GPU was opened %d times although Choose refused", opened.Load())
	}
}

func TestComputeAutoFallsBackToCPUWhenTheGPUFailsToOpen(t *testing.T) {
	registerFake(t, fakeGPUFactory(func(backend.Options) (backend.Backend, error) {
		return nil, errors.New("fake gpu: CUDA_ERROR_NO_DEVICE")
	}))
	const spec = "grid:side=8,seed=3"
	out := filepath.Join(t.TempDir(), "out")
	res, logs, err := computeLogged(t, loadCompute(t, "", "-generate", spec, "-backend", "auto", "-sources", "5", "-out", out))
	if err != nil {
		t.Fatal(err)
	}
	checkRanOnCPU(t, res, out, spec, []int32{5})
	if !strings.Contains(res.Manifest.BackendReason, "CUDA_ERROR_NO_DEVICE") {
		t.Errorf("backend_reason %q does not give the GPU's error", res.Manifest.BackendReason)
	}
	warnings := logs.Warnings()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "CUDA_ERROR_NO_DEVICE") {
		t.Errorf("warnings %q, want one with the GPU's error", warnings)
	}
}

func TestComputeRequestedGPUFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		factory backend.Factory
		code    stageerr.Kind
		mention string
	}{
		{"fails to open", fakeGPUFactory(func(backend.Options) (backend.Backend, error) {
			return nil, errors.New("fake gpu: CUDA_ERROR_OUT_OF_MEMORY")
		}), stageerr.Compute, "CUDA_ERROR_OUT_OF_MEMORY"},
		{"unavailable", func() backend.Factory {
			f := fakeGPUFactory(nil)
			f.Available = func() (bool, string) { return false, "no device answers" }
			return f
		}(), stageerr.NoGPU, "no device answers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			registerFake(t, tc.factory)
			out := filepath.Join(t.TempDir(), "out")
			_, err := Run(context.Background(), loadCompute(t, "", "-generate", "grid:side=8", "-backend", "gpu", "-out", out), stagetest.QuietLog, io.Discard)
			if stageerr.KindOf(err) != tc.code || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v (kind %v), want kind %v mentioning %q", err, stageerr.KindOf(err), tc.code, tc.mention)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed run left %s", out)
			}
		})
	}
}

// TestComputeOnAWorkingGPUMatchesTheCPU: int32 blocks from a GPU give the
// same rows, paths and summaries as the CPU's int64 ones.
func TestComputeOnAWorkingGPUMatchesTheCPU(t *testing.T) {
	registerFake(t, fakeGPUFactory(nil))
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"dijkstra", []string{"-algorithm", "dijkstra", "-sources", "0-20", "-paths", "0:59,7:3", "-summary"}},
		{"all pairs", []string{"-algorithm", "floyd-warshall", "-sources", "all", "-summary"}},
		{"targets and cutoff", []string{"-algorithm", "dijkstra", "-sources", "all", "-targets", "9,1,40-45", "-max-distance", "70", "-summary"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outs, devices := map[string]string{}, map[string]string{}
			for _, be := range []string{backend.CPU, backend.GPU} {
				outs[be] = filepath.Join(dir, be)
				args := append([]string{"-generate", shapeSpec, "-backend", be, "-out", outs[be]}, tc.args...)
				res := runCompute(t, loadCompute(t, "output:\n  part_rows: 300\n", args...))
				if res.Manifest.Backend != be {
					t.Fatalf("-backend %s ran on %s", be, res.Manifest.Backend)
				}
				devices[be] = res.Manifest.Device
			}
			cpuRows, _, _ := readLong(t, filepath.Join(outs[backend.CPU], output.DistancesDir))
			gpuRows, gpuMeta, _ := readLong(t, filepath.Join(outs[backend.GPU], output.DistancesDir))
			if len(cpuRows) == 0 || !slices.Equal(cpuRows, gpuRows) {
				t.Fatalf("the GPU wrote %d rows, the CPU %d, or they differ", len(gpuRows), len(cpuRows))
			}
			if b, ok := gpuMeta["pathflow.backend"]; ok || devices[backend.GPU] != "fake GPU" {
				t.Errorf("GPU run: metadata backend %q, manifest device %q", b, devices[backend.GPU])
			}
			cpuSummary, _, err := resultfiles.ReadSummary(filepath.Join(outs[backend.CPU], output.SummaryName+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			gpuSummary, _, err := resultfiles.ReadSummary(filepath.Join(outs[backend.GPU], output.SummaryName+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(cpuSummary, gpuSummary, func(a, b resultfiles.SummaryRow) bool {
				return a.Source == b.Source && a.Reachable == b.Reachable && a.Eccentricity == b.Eccentricity && sameFloat(a.Closeness, b.Closeness)
			}) {
				t.Errorf("summaries differ:\ncpu %+v\ngpu %+v", cpuSummary, gpuSummary)
			}
			if _, err := os.Stat(filepath.Join(outs[backend.CPU], output.PathsName+".parquet")); err == nil {
				a, _, _ := resultfiles.ReadPaths(filepath.Join(outs[backend.CPU], output.PathsName+".parquet"))
				b, _, _ := resultfiles.ReadPaths(filepath.Join(outs[backend.GPU], output.PathsName+".parquet"))
				if len(a) != 2 || fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("paths differ:\ncpu %+v\ngpu %+v", a, b)
				}
			}
		})
	}
}

// faultBackend hands over one row per block, computed by the reference,
// and after the first block removes the distances folder being written, so
// that the part files that follow cannot be created.
type faultBackend struct {
	out     string // the compute output folder
	removed error  // why the folder could not be removed, if it could not
}

func (f *faultBackend) Name() string   { return backend.GPU }
func (f *faultBackend) Device() string { return "fault injector" }
func (f *faultBackend) Close() error   { return nil }

func (f *faultBackend) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	for i, s := range req.Sources {
		if err := ctx.Err(); err != nil {
			return err
		}
		tree := refTree(req.CSR, s)
		rows := &results.Rows{First: i, Sources: req.Sources[i : i+1], Width: int(req.CSR.N), Dist64: tree.Dist}
		if req.Wants(results.Parent) {
			rows.Parent = tree.Parent
		}
		if err := sink(rows); err != nil {
			return err
		}
		if i == 0 {
			f.removed = f.removeDistances()
		}
	}
	return nil
}

// removeDistances removes the distances folder of the uncommitted output:
// .<base>.tmp-*/distances beside the final folder.
func (f *faultBackend) removeDistances() error {
	pattern := filepath.Join(filepath.Dir(f.out), "."+filepath.Base(f.out)+".tmp-*", output.DistancesDir)
	dirs, err := filepath.Glob(pattern)
	if err != nil || len(dirs) != 1 {
		return fmt.Errorf("%s matches %v (%v), want one folder", pattern, dirs, err)
	}
	// Let the first part start, so the fault hits a stream under way.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dirs[0], "part-00000.parquet")); err == nil {
			break
		}
	}
	// A writer may create a part file while the folder goes: retry.
	for range 10 {
		if err = os.RemoveAll(dirs[0]); err == nil {
			return nil
		}
	}
	return err
}

func TestComputeWriteErrorMidStream(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	fault := &faultBackend{out: out}
	f := fakeGPUFactory(nil)
	f.Open = func(backend.Options) (backend.Backend, error) { return fault, nil }
	registerFake(t, f)
	// One source per part file, so parts keep being created after the
	// folder is gone.
	cfg := loadCompute(t, "output:\n  part_rows: 100\n", "-generate", "grid:side=10", "-backend", "gpu",
		"-sources", "0-39", "-workers", "2", "-out", out)

	before := runtime.NumGoroutine()
	_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
	if fault.removed != nil {
		t.Fatalf("injecting the fault: %v", fault.removed)
	}
	if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), "part-") {
		t.Fatalf("err = %v (kind %v), want kind %v naming a part file", err, stageerr.KindOf(err), stageerr.Output)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 0 {
		t.Errorf("the failed run left %v beside its output", entries)
	}
	// The part writers and the backend's goroutines must all have ended.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before the run, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestComputeAutoRunsOnTheCPUWhatTheGPULacks: auto takes the CPU for an
// algorithm the GPU does not implement; a requested GPU reports it as a
// configuration error naming the key.
func TestComputeAutoRunsOnTheCPUWhatTheGPULacks(t *testing.T) {
	f := fakeGPUFactory(nil)
	f.Choose = func(p backend.Problem) (backend.Choice, error) {
		return backend.Choice{}, fmt.Errorf("fake gpu: algorithm %q: %w", p.Algorithm.Name, backend.ErrUnsupported)
	}
	registerFake(t, f)
	const spec = "grid:side=6,seed=4"
	out := filepath.Join(t.TempDir(), "out")
	res, logs, err := computeLogged(t, loadCompute(t, "", "-generate", spec, "-backend", "auto", "-algorithm", "johnson", "-sources", "0,35", "-out", out))
	if err != nil {
		t.Fatal(err)
	}
	checkRanOnCPU(t, res, out, spec, []int32{0, 35})
	if w := logs.Warnings(); len(w) != 1 || !strings.Contains(w[0], "not supported") {
		t.Errorf("warnings %q, want one saying the GPU lacks the algorithm", w)
	}
	if res.Manifest.Algorithm != backend.AlgorithmJohnson || !strings.Contains(res.Manifest.BackendReason, "johnson") {
		t.Errorf("ran %s; backend_reason %q does not say why not the GPU", res.Manifest.Algorithm, res.Manifest.BackendReason)
	}

	out = filepath.Join(t.TempDir(), "out")
	_, err = Run(context.Background(), loadCompute(t, "", "-generate", spec, "-backend", "gpu", "-algorithm", "johnson", "-out", out), stagetest.QuietLog, io.Discard)
	if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), KeyAlgorithm) {
		t.Fatalf("err = %v (kind %v), want kind %v naming %s", err, stageerr.KindOf(err), stageerr.Config, KeyAlgorithm)
	}
}

// TestComputeFilesAreTheSameOnAGPUHost runs one config on the CPU and on a
// GPU (the fake, which answers as the CPU does), as backend: auto does on
// a host without and with one: every data file is byte-identical and the
// settings checksum the same; the manifests alone name the backend and
// device.
func TestComputeFilesAreTheSameOnAGPUHost(t *testing.T) {
	registerFake(t, fakeGPUFactory(nil))
	dir := t.TempDir()
	var manifests []*output.Manifest
	for _, be := range []string{backend.CPU, backend.GPU} {
		res := runCompute(t, loadCompute(t, "output:\n  part_rows: 300\n", "-generate", shapeSpec, "-backend", be,
			"-out", filepath.Join(dir, be), "-algorithm", "dijkstra", "-sources", "0-20", "-paths", "0:59,7:3", "-summary"))
		manifests = append(manifests, res.Manifest)
	}
	if manifests[0].Backend != backend.CPU || manifests[1].Backend != backend.GPU || manifests[1].Device != "fake GPU" {
		t.Fatalf("manifests name %s (%s) and %s (%s)", manifests[0].Backend, manifests[0].Device, manifests[1].Backend, manifests[1].Device)
	}
	if manifests[0].ConfigSHA256 != manifests[1].ConfigSHA256 {
		t.Error("the settings checksum depends on compute.backend")
	}
	a, b := dataFiles(t, filepath.Join(dir, backend.CPU)), dataFiles(t, filepath.Join(dir, backend.GPU))
	if len(a) < 4 || !slices.Equal(sortedKeys(a), sortedKeys(b)) {
		t.Fatalf("files %v on the CPU, %v on the GPU", sortedKeys(a), sortedKeys(b))
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between the CPU and the GPU", name)
		}
	}
}
