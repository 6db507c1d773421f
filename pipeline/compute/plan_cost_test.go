package compute

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

// fakeDevices describes count GPUs as a driver would, for the cost model.
func fakeDevices(count int) []backend.DeviceInfo {
	d := make([]backend.DeviceInfo, count)
	for i := range d {
		d[i] = backend.DeviceInfo{Ordinal: i, Name: "fake H200", Memory: 141 << 30}
	}
	return d
}

// Jobs the cost model must place, sized as real runs in docs/performance.md.
var (
	// A 1,000 x 1,000 ch table on the Delaware road network, 16 cores.
	delawareTable = jobSize{N: 73673, M: 175332, Sources: 1000, Targets: 1000, Parents: true, Workers: 16}
	// 4,096 searches on grid:side=4900 (24.0M vertices), 16 cores.
	gridSearches = jobSize{N: 24_010_000, M: 95_960_400, Sources: 4096, Targets: 1000, Parents: true, Workers: 16}
	// Gnutella30's all pairs, 16 cores.
	gnutellaAllPairs = jobSize{N: 36682, M: 88328, Sources: 36682, Targets: -1, Parents: true, Workers: 16}
)

func TestPlaceSendsASmallTableToTheCPU(t *testing.T) {
	p := place(delawareTable, backend.AlgorithmCH, backend.AlgorithmCH, fakeDevices(2))
	if !p.CPU {
		t.Fatalf("a Delaware table stays on the GPU: %s against %s", p.GPUText, p.CPUText)
	}
	// The GPU side cannot be cheaper than opening one device.
	if !strings.Contains(p.GPUText, "1 of 2 GPUs") || !strings.Contains(p.CPUText, "16 cores") {
		t.Errorf("estimates %q and %q do not say what was weighed", p.CPUText, p.GPUText)
	}
}

func TestPlaceKeepsLargeJobsOnTheGPU(t *testing.T) {
	for _, c := range []struct {
		name           string
		job            jobSize
		cpuAlg, gpuAlg string
		visible, want  int
	}{
		{"grid searches", gridSearches, backend.AlgorithmDijkstra, backend.AlgorithmSSSP, 4, 4},
		// 1.9 s of kernels: a third device saves 0.32 s for 0.22 s of
		// context, a fourth 0.16 s.
		{"all pairs", gnutellaAllPairs, backend.AlgorithmJohnson, backend.AlgorithmFloydWarshall, 4, 3},
		{"all pairs, one GPU", gnutellaAllPairs, backend.AlgorithmFloydWarshall, backend.AlgorithmFloydWarshall, 1, 1},
		// One search uses one core, however many the host has.
		{"one whole search", jobSize{N: 24_010_000, M: 95_960_400, Sources: 1, Targets: -1, Workers: 64}, backend.AlgorithmDijkstra, backend.AlgorithmSSSP, 2, 1},
	} {
		p := place(c.job, c.cpuAlg, c.gpuAlg, fakeDevices(c.visible))
		if p.CPU || p.Devices != c.want {
			t.Errorf("%s: CPU %v on %d devices, want the GPU on %d (%s against %s)", c.name, p.CPU, p.Devices, c.want, p.GPUText, p.CPUText)
		}
	}
}

func TestPlaceNeverMovesAnUnknownAlgorithmToTheCPU(t *testing.T) {
	tiny := jobSize{N: 10, M: 20, Sources: 1, Targets: -1, Workers: 1}
	p := place(tiny, "a-new-algorithm", backend.AlgorithmSSSP, fakeDevices(2))
	if p.CPU || p.Devices != 1 {
		t.Errorf("an algorithm without a CPU rate: CPU %v on %d devices, want one GPU", p.CPU, p.Devices)
	}
}

// TestPlaceCrossesOverOnce grows a search job source by source on a
// fixed graph: it starts on the CPU, goes to the GPU once the work repays
// a context, and never comes back; devices are added, never taken away.
func TestPlaceCrossesOverOnce(t *testing.T) {
	job := jobSize{N: 1_000_000, M: 2_500_000, Targets: -1, Workers: 8}
	onGPU, devices := false, 0
	crossed := 0
	for s := 1; s <= 1<<18; s *= 2 {
		job.Sources = s
		p := place(job, backend.AlgorithmDijkstra, backend.AlgorithmSSSP, fakeDevices(8))
		if onGPU && p.CPU {
			t.Fatalf("%d sources back on the CPU after fewer went to the GPU", s)
		}
		if !p.CPU && !onGPU {
			onGPU, crossed = true, s
		}
		if !p.CPU {
			if p.Devices < devices {
				t.Fatalf("%d sources on %d devices, fewer than a smaller job's %d", s, p.Devices, devices)
			}
			devices = p.Devices
		}
	}
	if crossed <= 1 || !onGPU || devices != 8 {
		t.Errorf("crossed to the GPU at %d sources, ended on %d devices; want a crossing past one source and all 8 devices", crossed, devices)
	}
}

// describedGPU is the fake GPU of faults_test.go with count devices
// described, recording the options it is opened with.
func describedGPU(count int, opened *[]backend.Options) backend.Factory {
	f := fakeGPUFactory(nil)
	open := f.Open
	f.Open = func(o backend.Options) (backend.Backend, error) {
		*opened = append(*opened, o)
		return open(o)
	}
	f.Devices = func() ([]backend.DeviceInfo, error) { return fakeDevices(count), nil }
	return f
}

func TestAutoRunsASmallJobOnTheCPUWithoutAskingTheGPU(t *testing.T) {
	var opened []backend.Options
	f := describedGPU(2, &opened)
	var asked atomic.Int32
	f.Available = func() (bool, string) { asked.Add(1); return true, "fake GPU answers" }
	registerFake(t, f)
	const spec = "grid:side=8,seed=2"
	out := filepath.Join(t.TempDir(), "out")
	res := runCompute(t, loadCompute(t, "", "-generate", spec, "-backend", "auto", "-sources", "0,63", "-out", out))
	checkRanOnCPU(t, res, out, spec, []int32{0, 63})
	if len(opened) != 0 || asked.Load() != 0 {
		t.Errorf("the GPU was asked %d times and opened %d times for a job planned on the CPU", asked.Load(), len(opened))
	}
	if why := res.Manifest.BackendReason; !strings.Contains(why, "CPU is estimated faster") || !strings.Contains(why, "opening 0.22 s") {
		t.Errorf("backend_reason %q does not give the estimates", why)
	}
}

// TestCPUBeforeAskingOnlyUnderAuto: the GPU is passed over unasked only
// under auto, for a GPU backend that describes its devices, and for a job
// smaller than starting one.
func TestCPUBeforeAskingOnlyUnderAuto(t *testing.T) {
	described := describedGPU(1, new([]backend.Options))
	undescribed := described
	undescribed.Devices = nil
	small := backend.Problem{N: 64, M: 224, MinWeight: 1, MaxWeight: 9, Sources: 1, Algorithm: backend.Algorithm{Name: backend.AlgorithmAuto}}
	smallJob := jobSize{N: 64, M: 224, Sources: 1, Targets: -1, Workers: 2}
	large := small
	large.Sources = 1 << 20
	largeJob := smallJob
	largeJob.Sources = 1 << 20
	for _, c := range []struct {
		name      string
		requested string
		gpu       backend.Factory
		problem   backend.Problem
		job       jobSize
		want      bool
	}{
		{"small job", BackendAuto, described, small, smallJob, true},
		{"gpu requested", backend.GPU, described, small, smallJob, false},
		{"undescribed devices", BackendAuto, undescribed, small, smallJob, false},
		{"large job", BackendAuto, described, large, largeJob, false},
	} {
		backends := func(name string) (backend.Factory, bool) {
			if name == backend.GPU {
				return c.gpu, true
			}
			return backend.Lookup(name)
		}
		plan, ok := cpuBeforeAsking(&Config{Backend: c.requested}, c.problem, c.job, backends)
		if ok != c.want || (ok && plan.Factory.Name != backend.CPU) {
			t.Errorf("%s: planned %q (%v), want the CPU unasked: %v", c.name, plan.Factory.Name, ok, c.want)
		}
	}
}

func TestGPUOpensOnlyTheDevicesTheJobRepays(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []int
	}{
		{"all", nil, []int{0}},
		{"listed", []string{"-devices", "1,0"}, []int{1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opened []backend.Options
			registerFake(t, describedGPU(2, &opened))
			args := append([]string{"-generate", "grid:side=8", "-backend", "gpu", "-sources", "0-3", "-out", filepath.Join(t.TempDir(), "out")}, c.args...)
			res := runCompute(t, loadCompute(t, "", args...))
			if res.Manifest.Backend != backend.GPU {
				t.Fatalf("backend gpu ran on %s", res.Manifest.Backend)
			}
			if len(opened) != 1 || !slices.Equal(opened[0].Devices, c.want) {
				t.Errorf("opened %+v, want once on devices %v", opened, c.want)
			}
		})
	}
}

// TestUndescribedDevicesKeepThePlan: devices the backend fails to
// describe are opened as compute.devices says.
func TestUndescribedDevicesKeepThePlan(t *testing.T) {
	var opened atomic.Int32
	f := describedGPU(2, new([]backend.Options))
	open := f.Open
	f.Open = func(o backend.Options) (backend.Backend, error) {
		opened.Add(1)
		if o.Devices != nil {
			return nil, errors.New("fake gpu: devices narrowed without a description")
		}
		return open(o)
	}
	f.Devices = func() ([]backend.DeviceInfo, error) { return nil, errors.New("fake gpu: cannot describe") }
	registerFake(t, f)
	res := runCompute(t, loadCompute(t, "", "-generate", "grid:side=8", "-backend", "gpu", "-sources", "0", "-out", filepath.Join(t.TempDir(), "out")))
	if res.Manifest.Backend != backend.GPU || opened.Load() != 1 {
		t.Errorf("ran on %s, GPU opened %d times; want the GPU on every device as configured", res.Manifest.Backend, opened.Load())
	}
}
