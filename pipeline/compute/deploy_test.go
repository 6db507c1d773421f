package compute

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/ingest"
)

// containerCommand reads the args and env of the one container of a
// Kubernetes Job in deploy/kubernetes: the lines `args: [...]`,
// `- name: X` and `value: Y` under `env:`.
func containerCommand(t *testing.T, file string) (args, env []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "kubernetes", file))
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
		l, err := config.Read("compute", Keys(), config.Source{Args: args, Env: env, Usage: io.Discard})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		cfg, err := ConfigFrom(l)
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

// k8sObject is what the deploy tests read of a Kubernetes manifest: a
// ConfigMap's data, or a Job's pod template.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"`
	Spec struct {
		Template struct {
			Spec struct {
				SecurityContext struct {
					RunAsNonRoot bool  `yaml:"runAsNonRoot"`
					RunAsUser    int64 `yaml:"runAsUser"`
					RunAsGroup   int64 `yaml:"runAsGroup"`
					FSGroup      int64 `yaml:"fsGroup"`
				} `yaml:"securityContext"`
				Containers []struct {
					Name         string   `yaml:"name"`
					Image        string   `yaml:"image"`
					Command      []string `yaml:"command"`
					Args         []string `yaml:"args"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
						SubPath   string `yaml:"subPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name      string `yaml:"name"`
					ConfigMap *struct {
						Name string `yaml:"name"`
					} `yaml:"configMap"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestKubernetesExampleRunsOnTheImage checks the Kubernetes example against
// the image deploy/container/Containerfile builds: every manifest parses;
// every Job names the one tag the README builds (pathflow:Version), runs a
// command the image installs as the image's non-root user, and reads its
// -config file from a ConfigMap key mounted at that path, which is a valid
// config for that command. scripts/image-test.sh runs them (CI).
func TestKubernetesExampleRunsOnTheImage(t *testing.T) {
	root := filepath.Join("..", "..")
	containerfile, err := os.ReadFile(filepath.Join(root, "deploy", "container", "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tag := "pathflow:" + version.Version
	build := "podman build -f deploy/container/Containerfile -t " + tag + " ."
	for name, text := range map[string][]byte{"README.md": readme, "Containerfile": containerfile} {
		if !strings.Contains(string(text), build) {
			t.Errorf("%s does not give the build command %q", name, build)
		}
	}
	// What the image holds: the commands it copies to /usr/local/bin and its user.
	installed := map[string]bool{}
	if m := regexp.MustCompile(`(?m)^COPY --from=build ((?:/out/\w+ )+)/usr/local/bin/$`).FindSubmatch(containerfile); m != nil {
		for _, f := range strings.Fields(string(m[1])) {
			installed["/usr/local/bin/"+filepath.Base(f)] = true
		}
	}
	if !installed["/usr/local/bin/compute"] || !installed["/usr/local/bin/ingest"] {
		t.Fatalf("the Containerfile installs %v, want /usr/local/bin/compute and /usr/local/bin/ingest", installed)
	}
	user := regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`).FindSubmatch(containerfile)
	if user == nil || string(user[1]) == "0" {
		t.Fatalf("the Containerfile has no numeric non-root USER uid:gid")
	}

	files, err := filepath.Glob(filepath.Join(root, "deploy", "kubernetes", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/kubernetes: %v", err)
	}
	configMaps := map[string]map[string]string{}
	var jobs []k8sObject
	var jobFiles []string
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var o k8sObject
			if err := dec.Decode(&o); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			switch o.Kind {
			case "ConfigMap":
				configMaps[o.Metadata.Name] = o.Data
			case "Job":
				jobs = append(jobs, o)
				jobFiles = append(jobFiles, filepath.Base(file))
			default:
				t.Errorf("%s: unexpected kind %q", file, o.Kind)
			}
		}
	}
	commands := map[string]bool{}
	for i, job := range jobs {
		file, pod := jobFiles[i], job.Spec.Template.Spec
		if sc := pod.SecurityContext; !sc.RunAsNonRoot || strconv.FormatInt(sc.RunAsUser, 10) != string(user[1]) ||
			strconv.FormatInt(sc.RunAsGroup, 10) != string(user[2]) || strconv.FormatInt(sc.FSGroup, 10) != string(user[2]) {
			t.Errorf("%s: securityContext %+v, want runAsNonRoot and the image's user %s:%s (fsGroup too: /data writable)", file, sc, user[1], user[2])
		}
		if len(pod.Containers) != 1 {
			t.Fatalf("%s: %d containers, want 1", file, len(pod.Containers))
		}
		c := pod.Containers[0]
		if c.Image != tag {
			t.Errorf("%s: image %q, want %q (the tag the README builds)", file, c.Image, tag)
		}
		if len(c.Command) != 1 || !installed[c.Command[0]] {
			t.Errorf("%s: command %q, want one of the image's %v", file, c.Command, installed)
			continue
		}
		cmd := filepath.Base(c.Command[0])
		commands[cmd] = true
		var cfgPath string
		for _, a := range c.Args {
			if p, ok := strings.CutPrefix(a, "-config="); ok {
				cfgPath = p
			}
		}
		if cfgPath == "" {
			t.Errorf("%s: no -config=FILE in args %q", file, c.Args)
			continue
		}
		// The config file comes from a ConfigMap key mounted at its path.
		var text string
		found := false
		for _, vm := range c.VolumeMounts {
			if vm.MountPath != cfgPath {
				continue
			}
			for _, v := range pod.Volumes {
				if v.Name == vm.Name && v.ConfigMap != nil {
					data, ok := configMaps[v.ConfigMap.Name]
					text, found = data[vm.SubPath]
					if !ok || !found {
						t.Errorf("%s: %s mounts key %q of ConfigMap %q, which deploy/kubernetes does not define", file, cfgPath, vm.SubPath, v.ConfigMap.Name)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: nothing mounts %s, the -config file: the image does not hold it", file, cfgPath)
			continue
		}
		cfgFile := filepath.Join(t.TempDir(), filepath.Base(cfgPath))
		if err := os.WriteFile(cfgFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string(nil), c.Args...)
		for i, a := range args {
			if a == "-config="+cfgPath {
				args[i] = "-config=" + cfgFile
			}
		}
		src := config.Source{Args: args, Usage: io.Discard}
		if cmd == "ingest" {
			l, err := config.Read("ingest", ingest.Keys(), src)
			if err == nil {
				_, err = ingest.ConfigFrom(l)
			}
			if err != nil {
				t.Errorf("%s: %s: %v", file, cfgPath, err)
			}
		} else {
			l, err := config.Read("compute", Keys(), src)
			if err == nil {
				_, err = ConfigFrom(l)
			}
			if err != nil {
				t.Errorf("%s: %s: %v", file, cfgPath, err)
			}
		}
	}
	if !commands["ingest"] || !commands["compute"] {
		t.Errorf("the Jobs run %v, want both ingest and compute", commands)
	}
}
