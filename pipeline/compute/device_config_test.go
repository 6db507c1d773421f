package compute

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// readComputeConfig reads the compute keys from an optional YAML file,
// args and env, as the command does.
func readComputeConfig(t *testing.T, yaml string, args, env []string) (*Config, error) {
	t.Helper()
	if yaml != "" {
		args = append([]string{"-config=" + stagetest.WriteFile(t, "c.yaml", yaml)}, args...)
	}
	l, err := config.Read("compute", Keys(), config.Source{Args: args, Env: env})
	if err != nil {
		return nil, err
	}
	return ConfigFrom(l)
}

func TestDeviceSettingsFromEverySource(t *testing.T) {
	file := "input:\n  generate: grid:side=4\ncompute:\n  devices: [0, 1]\ngpu:\n  memory_limit: 10GiB\n"
	for _, tc := range []struct {
		name    string
		yaml    string
		args    []string
		env     []string
		devices []int // nil: all
		limit   int64
	}{
		{name: "defaults", args: []string{"-generate", "grid:side=4"}},
		{name: "file", yaml: file, devices: []int{0, 1}, limit: 10 << 30},
		{name: "one GPU listed twice", yaml: "input:\n  generate: grid:side=4\ncompute:\n  devices: [0, 0]\n", devices: []int{0, 0}},
		{name: "environment over file", yaml: file, env: []string{"PATHFLOW_COMPUTE_DEVICES=all", "PATHFLOW_GPU_MEMORY_LIMIT=512 MiB"},
			limit: 512 << 20},
		{name: "flags over environment", yaml: file, args: []string{"-devices", "0,0", "-gpu-memory-limit", "3GB"},
			env: []string{"PATHFLOW_COMPUTE_DEVICES=all", "PATHFLOW_GPU_MEMORY_LIMIT=512 MiB"}, devices: []int{0, 0}, limit: 3e9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := readComputeConfig(t, tc.yaml, tc.args, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			got := cfg.Device
			if !slices.Equal(got.Devices, tc.devices) || (got.Devices == nil) != (tc.devices == nil) || got.MemoryLimit != tc.limit {
				t.Errorf("device settings %+v, want devices %v and limit %d", got, tc.devices, tc.limit)
			}
			o := got.backendOptions(cfg.Workers)
			if o.Workers != cfg.Workers || !slices.Equal(o.Devices, tc.devices) || (o.Devices == nil) != (tc.devices == nil) || o.MemoryLimit != tc.limit {
				t.Errorf("backend options %+v", o)
			}
		})
	}
}

func TestDeviceKeyErrorsAreConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		args, env  []string
		key, value string
	}{
		{name: "negative device", env: []string{"PATHFLOW_COMPUTE_DEVICES=-1"}, key: KeyDevices, value: `"-1"`},
		{name: "non-integer device", args: []string{"-devices", "first"}, key: KeyDevices, value: `"first"`},
		{name: "empty device list", yaml: "compute:\n  devices: []\n", key: KeyDevices, value: "empty list"},
		{name: "negative memory limit", yaml: "gpu:\n  memory_limit: -5\n", key: KeyGPUMemoryLimit, value: "-5"},
		{name: "malformed memory limit", args: []string{"-gpu-memory-limit", "10 parsecs"}, key: KeyGPUMemoryLimit, value: `"10 parsecs"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := readComputeConfig(t, tc.yaml, append([]string{"-generate", "grid:side=4"}, tc.args...), tc.env)
			if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), `config key "`+tc.key+`"`) || !strings.Contains(err.Error(), tc.value) {
				t.Fatalf("config %+v, err %v (kind %v); want kind %v naming %s and %s", cfg, err, stageerr.KindOf(err), stageerr.Config, tc.key, tc.value)
			}
		})
	}
}

// TestDeviceKeysLeaveTheSettingsChecksum: several GPUs and a memory limit
// give the one-GPU bytes, so outputs and shards computed with any of them
// are from the same settings; a key that shapes the results still counts.
func TestDeviceKeysLeaveTheSettingsChecksum(t *testing.T) {
	base, err := readComputeConfig(t, "", []string{"-generate", "grid:side=4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, yaml string
		args, env  []string
	}{
		{name: "file", yaml: "compute:\n  devices: [0, 0]\ngpu:\n  memory_limit: 10GiB\n"},
		{name: "environment", env: []string{"PATHFLOW_COMPUTE_DEVICES=1,0", "PATHFLOW_GPU_MEMORY_LIMIT=4096"}},
		{name: "flags", args: []string{"-devices", "2", "-gpu-memory-limit", "1TB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := readComputeConfig(t, tc.yaml, append([]string{"-generate", "grid:side=4"}, tc.args...), tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Device.Devices == nil || cfg.Device.MemoryLimit == 0 {
				t.Fatalf("the keys were not set: %+v", cfg.Device)
			}
			if cfg.ConfigSHA256 != base.ConfigSHA256 {
				t.Errorf("devices %v and memory limit %d change the settings checksum", cfg.Device.Devices, cfg.Device.MemoryLimit)
			}
		})
	}
	shaped, err := readComputeConfig(t, "", []string{"-generate", "grid:side=4", "-devices", "0,0", "-parents=false"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if shaped.ConfigSHA256 == base.ConfigSHA256 {
		t.Error("compute.parents no longer changes the settings checksum")
	}
}

// TestDeviceSettingsReachTheBackend runs compute on a fake GPU and checks
// the options it was opened with and the manifest's record of the devices.
func TestDeviceSettingsReachTheBackend(t *testing.T) {
	var opened []backend.Options
	f := fakeGPUFactory(nil)
	open := f.Open
	f.Open = func(o backend.Options) (backend.Backend, error) {
		opened = append(opened, o)
		return open(o)
	}
	registerFake(t, f)
	for _, tc := range []struct {
		name    string
		args    []string
		devices []int
		limit   int64
	}{
		{name: "defaults"},
		{name: "one GPU twice, limited", args: []string{"-devices", "0,0", "-gpu-memory-limit", "64MiB"}, devices: []int{0, 0}, limit: 64 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opened = nil
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"-generate", "grid:side=6", "-backend", "gpu", "-algorithm", "floyd-warshall", "-sources", "all",
				"-workers", "2", "-out", out}, tc.args...)
			res := runCompute(t, loadCompute(t, "", args...))
			if len(opened) != 1 {
				t.Fatalf("the GPU was opened %d times", len(opened))
			}
			o := opened[0]
			if o.Workers != 2 || !slices.Equal(o.Devices, tc.devices) || (o.Devices == nil) != (tc.devices == nil) || o.MemoryLimit != tc.limit {
				t.Errorf("opened with %+v, want 2 workers, devices %v, memory limit %d", o, tc.devices, tc.limit)
			}
			if res.Manifest.Backend != backend.GPU || !slices.Equal(res.Manifest.Devices, tc.devices) {
				t.Errorf("manifest: backend %q, devices %v; want gpu and %v", res.Manifest.Backend, res.Manifest.Devices, tc.devices)
			}
			m, err := output.ReadManifest(out)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Devices, tc.devices) {
				t.Errorf("manifest.json devices %v, want %v", m.Devices, tc.devices)
			}
		})
	}
}
