package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/compute"
	"github.com/pathflow/pathflow/pipeline/ingest"
)

// TestShippedFilesNameOnlyVariablesTheCommandsRead scans the README, the
// docs, configs, deploy examples, scripts and CI for PATHFLOW_* variables:
// each must set a key of compute or ingest or be one of OtherVariables, or
// a job that exports it would warn on every run ("matches no key").
func TestShippedFilesNameOnlyVariablesTheCommandsRead(t *testing.T) {
	known := slices.Clone(OtherVariables)
	for _, keys := range [][]config.Key{compute.Keys(), ingest.Keys()} {
		for _, k := range keys {
			known = append(known, k.EnvName())
		}
	}
	// A name ending in "_" is a family ("PATHFLOW_COMPUTE_*"), not a
	// variable.
	name := regexp.MustCompile(`PATHFLOW_[A-Z0-9_]*[A-Z0-9]\b`)
	root := filepath.Join("..", "..", "..")
	var files []string
	for _, dir := range []string{"docs", "configs", "deploy", "scripts"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.IsDir() && !strings.HasSuffix(path, ".go") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, ".ci", "run"))
	scanned := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "did you mean") {
				continue // the README's example of the warning names a misspelling
			}
			for _, v := range name.FindAllString(line, -1) {
				scanned++
				if !slices.Contains(known, v) {
					t.Errorf("%s:%d: %s sets no key and is not in cli.OtherVariables: the command would warn about it", file, i+1, v)
				}
			}
		}
	}
	if scanned < 10 {
		t.Errorf("%d variables found in %d files: the scan is looking in the wrong place", scanned, len(files))
	}
}
