package compute

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// A host whose GPU backend is registered but cannot run (no driver library,
// no device): auto runs on the CPU and logs why in its plan line; gpu fails
// with stageerr.NoGPU and the same reason.
func TestNoUsableGPU(t *testing.T) {
	const why = "gpu: NVIDIA driver library not found: libcuda.so.1: cannot open shared object file"
	f := fakeGPUFactory(func(backend.Options) (backend.Backend, error) {
		return nil, errors.New("fake gpu: opened although unavailable")
	})
	f.Available = func() (bool, string) { return false, why }
	registerFake(t, f)
	const spec = "grid:side=8,seed=3"

	out := filepath.Join(t.TempDir(), "auto")
	res, logs, err := computeLogged(t, loadCompute(t, "", "-generate", spec, "-backend", BackendAuto, "-sources", "0,5", "-out", out))
	if err != nil {
		t.Fatal(err)
	}
	checkRanOnCPU(t, res, out, spec, []int32{0, 5})
	var plans []string
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "msg=plan ") {
			plans = append(plans, line)
		}
	}
	if len(plans) != 1 || !strings.Contains(plans[0], "backend=cpu") || !strings.Contains(plans[0], why) {
		t.Errorf("auto: plan log lines %q, want one naming the CPU backend and %q", plans, why)
	}

	_, err = Run(t.Context(), loadCompute(t, "", "-generate", spec, "-backend", backend.GPU, "-out", filepath.Join(t.TempDir(), "gpu")), stagetest.QuietLog, io.Discard)
	var noGPU *stageerr.NoGPUError
	if !errors.As(err, &noGPU) || stageerr.KindOf(err) != stageerr.NoGPU || !strings.Contains(err.Error(), why) {
		t.Fatalf("gpu: error %v (kind %v), want a NoGPUError naming %q (kind %v)", err, stageerr.KindOf(err), why, stageerr.NoGPU)
	}
}
