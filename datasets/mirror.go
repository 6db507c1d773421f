package datasets

import (
	"os"
	"path/filepath"
)

// MirrorEnv is the environment variable naming a folder of already
// downloaded dataset files; when set it replaces the network.
const MirrorEnv = "PATHFLOW_DATASETS"

// DefaultMirror is the mirror folder used when MirrorEnv is unset, relative
// to the module root: the shared datasets beside a checkout.
const DefaultMirror = "../shared/datasets"

// MirrorDir returns the mirror folder: $PATHFLOW_DATASETS when set, else
// DefaultMirror resolved against the module root (the nearest parent folder
// of the working directory holding go.mod), so tests find it from any
// package. The folder may not exist; callers check.
func MirrorDir() string {
	if dir := os.Getenv(MirrorEnv); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return DefaultMirror
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, DefaultMirror)
		}
		if filepath.Dir(dir) == dir {
			return DefaultMirror
		}
	}
}

// MirrorFile returns the path of name inside the mirror folder and whether
// that file exists.
func MirrorFile(name string) (string, bool) {
	path := filepath.Join(MirrorDir(), name)
	_, err := os.Stat(path)
	return path, err == nil
}
