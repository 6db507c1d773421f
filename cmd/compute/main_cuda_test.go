//go:build cuda

package main

import (
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/cmd/internal/cli"
	"github.com/pathflow/pathflow/internal/gpu/device"
)

// The cuda build is one binary for GPU and CPU hosts: it links no CUDA
// library, starts without a driver or a device (gorgonia.org/cu is the copy
// in third_party/cu, which loads the driver at run time), runs auto on the
// CPU saying why, and fails backend gpu with ExitNoGPU saying what is
// missing. The published gorgonia.org/cu would end this test binary with
// exit 1 before any test ran on a host without a device, and would not
// start it without libcuda.

// runChild runs the demo config with backend in a fresh process with env
// added, and returns its exit code and stderr.
func runChild(t *testing.T, backend string, env ...string) (int, string) {
	t.Helper()
	args := []string{"-config=" + filepath.Join("..", "..", "configs", "demo.yaml"), "-out", filepath.Join(t.TempDir(), "demo"), "-backend", backend}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), childArgs+"="+strings.Join(args, "\n")), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// askGPU makes the demo large enough for auto to ask the GPU: all pairs
// of its 4,096 vertices, estimated to take the CPU longer than starting a
// GPU (a smaller job runs on the CPU without the driver being loaded),
// with only the summary and the path written.
var askGPU = []string{"PATHFLOW_COMPUTE_SOURCES=all", "PATHFLOW_OUTPUT_DISTANCES=false"}

// planLine is the log line that says which backend runs and why.
func planLine(t *testing.T, stderr string) string {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "msg=plan ") {
			return line
		}
	}
	t.Fatalf("no plan line in:\n%s", stderr)
	return ""
}

func TestStartsWithoutTheDriverLibrary(t *testing.T) {
	const missing = "/nonexistent/libcuda.so.1"
	code, stderr := runChild(t, "auto", append([]string{"CU_DRIVER_LIBRARY=" + missing}, askGPU...)...)
	if code != cli.ExitOK {
		t.Fatalf("auto without the driver library: exit %d, want 0:\n%s", code, stderr)
	}
	if plan := planLine(t, stderr); !strings.Contains(plan, "backend=cpu") || !strings.Contains(plan, "NVIDIA driver library not found") || !strings.Contains(plan, missing) {
		t.Errorf("auto without the driver library: plan line %q does not name the CPU and the missing library", plan)
	}
	code, stderr = runChild(t, "gpu", "CU_DRIVER_LIBRARY="+missing)
	if code != cli.ExitNoGPU || !strings.Contains(stderr, "NVIDIA driver library not found: "+missing) {
		t.Errorf("gpu without the driver library: exit %d, want %d naming the library:\n%s", code, cli.ExitNoGPU, stderr)
	}
}

func TestStartsWithoutAVisibleDevice(t *testing.T) {
	code, stderr := runChild(t, "auto", append([]string{"CU_DRIVER_LIBRARY=", "CUDA_VISIBLE_DEVICES="}, askGPU...)...)
	if code != cli.ExitOK {
		t.Fatalf("auto with no visible device: exit %d, want 0:\n%s", code, stderr)
	}
	plan := planLine(t, stderr)
	if !strings.Contains(plan, "backend=cpu") {
		t.Errorf("auto with no visible device: plan line %q does not name the CPU", plan)
	}
	// With the driver library present the driver reports no device; on a
	// host without it, the library is what is missing.
	want := "no CUDA device"
	if strings.Contains(plan, "NVIDIA driver library not found") {
		want = "NVIDIA driver library not found"
	} else if !strings.Contains(plan, want) || !strings.Contains(plan, `CUDA_VISIBLE_DEVICES=\"\"`) {
		t.Errorf("auto with no visible device: plan line %q does not say %q and name CUDA_VISIBLE_DEVICES", plan, want)
	}
	code, stderr = runChild(t, "gpu", "CU_DRIVER_LIBRARY=", "CUDA_VISIBLE_DEVICES=")
	if code != cli.ExitNoGPU || !strings.Contains(stderr, want) || !strings.Contains(stderr, "(exit 8)") {
		t.Errorf("gpu with no visible device: exit %d, want %d saying %q:\n%s", code, cli.ExitNoGPU, want, stderr)
	}
}

// TestUsesTheGPUWhenOneAnswers runs only where a GPU is usable: gpu runs
// the demo there; auto runs it on the CPU, since four searches on 4,096
// vertices take less than opening the GPU, and says so.
func TestUsesTheGPUWhenOneAnswers(t *testing.T) {
	if ok, why := device.Available(); !ok {
		t.Skip("no usable GPU:", why)
	}
	for _, c := range []struct{ backend, want, why string }{
		{"gpu", "backend=gpu", ""},
		{"auto", "backend=cpu", "CPU is estimated faster"},
	} {
		code, stderr := runChild(t, c.backend, "CU_DRIVER_LIBRARY=")
		if code != cli.ExitOK {
			t.Fatalf("%s on a GPU host: exit %d:\n%s", c.backend, code, stderr)
		}
		if plan := planLine(t, stderr); !strings.Contains(plan, c.want) || !strings.Contains(plan, c.why) {
			t.Errorf("%s on a GPU host: plan line %q does not say %q and %q", c.backend, plan, c.want, c.why)
		}
	}
}

func TestLinksNoCUDALibrary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range libs {
		if strings.HasPrefix(lib, "libcuda") || strings.HasPrefix(lib, "libnvidia") {
			t.Errorf("the cuda build links %s: it would not start on hosts without the NVIDIA driver (imports %q)", lib, libs)
		}
	}
}

// TestTrampolinesReachTheDriver calls the driver through a trampoline
// wherever its library is installed, with or without a device:
// cuDriverGetVersion needs no cuInit.
func TestTrampolinesReachTheDriver(t *testing.T) {
	if err := cu.InitError(); errors.Is(err, cu.ErrNoDriver) {
		t.Skip("no driver library here:", err)
	}
	v := cu.Version()
	if v <= 0 {
		t.Fatalf("cuDriverGetVersion through the loaded driver gave %d", v)
	}
	t.Logf("driver API version %d; cuInit: %v", v, cu.InitError())
}

// TestConfinesTheNamedDevices runs only where a GPU is usable: a run
// whose compute.devices names device 0 hides the others from the driver
// (the log says what it left visible) and runs on it; one naming a
// device past the last fails saying that device does not exist, as it
// did before the confinement.
func TestConfinesTheNamedDevices(t *testing.T) {
	if ok, why := device.Available(); !ok {
		t.Skip("no usable GPU:", why)
	}
	count, err := cu.NumDevices()
	if err != nil {
		t.Fatal(err)
	}
	want := `visible=0`
	if v, ok := os.LookupEnv(device.VisibleDevicesEnv); ok {
		want = "visible=" + strings.TrimSpace(strings.Split(v, ",")[0])
	}
	code, stderr := runChild(t, "gpu", "CU_DRIVER_LIBRARY=", "PATHFLOW_COMPUTE_DEVICES=0")
	if code != cli.ExitOK {
		t.Fatalf("gpu on device 0: exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "devices confined") || !strings.Contains(stderr, want) {
		t.Errorf("gpu on device 0: the log does not say the devices were confined (%s):\n%s", want, stderr)
	}
	if plan := planLine(t, stderr); !strings.Contains(plan, "backend=gpu") {
		t.Errorf("gpu on device 0: plan line %q does not name the GPU", plan)
	}
	missing := strconv.Itoa(count)
	code, stderr = runChild(t, "gpu", "CU_DRIVER_LIBRARY=", "PATHFLOW_COMPUTE_DEVICES="+missing)
	if code == cli.ExitOK || !strings.Contains(stderr, "device "+missing+" does not exist") {
		t.Errorf("gpu on device %s of %d: exit %d, want a failure saying it does not exist:\n%s", missing, count, code, stderr)
	}
}
