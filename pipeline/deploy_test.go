package pipeline

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
)

// containerCommand reads the args and env of the one container of a
// Kubernetes Job in deploy/kubernetes: the lines `args: [...]`,
// `- name: X` and `value: Y` under `env:`.
func containerCommand(t *testing.T, file string) (args, env []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "deploy", "kubernetes", file))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*args:\s*(\[.*\])\s*$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no args line", file)
	}
	if err := json.Unmarshal(m[1], &args); err != nil {
		t.Fatalf("%s: args: %v", file, err)
	}
	for _, kv := range regexp.MustCompile(`(?m)^\s*- name: (PATHFLOW_\w+)\s*\n\s*value: "?([^"\n]*)"?\s*$`).FindAllSubmatch(b, -1) {
		env = append(env, string(kv[1])+"="+string(kv[2]))
	}
	return args, env
}

// TestKubernetesFinalizeSharesTheShardsSettings loads the shipped
// Kubernetes shards Job (as index 0) and finalize Job on one config: they
// must agree on the settings checksum, or finalize finds every shard stale.
func TestKubernetesFinalizeSharesTheShardsSettings(t *testing.T) {
	cfgFile := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(cfgFile, []byte("input:\n  generate: grid:side=4\ncompute:\n  sources: [all]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "0") // only read by the shards Job
	sums := map[string]string{}
	for _, file := range []string{"pathflow-shards.yaml", "pathflow-finalize.yaml"} {
		args, env := containerCommand(t, file)
		for i, a := range args {
			if a == "-config=/etc/pathflow/run.yaml" {
				args[i] = "-config=" + cfgFile
			}
		}
		l, err := config.Read("compute", ComputeKeys(), config.Source{Args: args, Env: env, Usage: io.Discard})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		cfg, err := ComputeConfigFrom(l)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !cfg.Shard.Sharded() {
			t.Fatalf("%s: not a sharded run (args %q, env %q)", file, args, env)
		}
		sums[file] = cfg.ConfigSHA256
	}
	if sums["pathflow-shards.yaml"] != sums["pathflow-finalize.yaml"] {
		t.Errorf("the shards and finalize Jobs have different settings checksums %v: give finalize the same PATHFLOW_COMPUTE_* settings", sums)
	}
}
