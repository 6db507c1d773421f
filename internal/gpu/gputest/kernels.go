package gputest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// defineRe matches a #define of an integer literal (decimal or hex).
var defineRe = regexp.MustCompile(`(?m)^#define\s+(\w+)\s+\(?(-?(?:0[xX][0-9a-fA-F]+|\d+))\)?\s*(?://.*)?$`)

// KernelDefines reads the integer #defines of the kernel headers
// (dir/*.cuh), for tests that compare the Go constants mirroring them. A
// name defined twice with different values is an error.
func KernelDefines(dir string) (map[string]int64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cuh"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no kernel headers in %s", dir)
	}
	defines := map[string]int64{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range defineRe.FindAllStringSubmatch(string(src), -1) {
			v, err := strconv.ParseInt(m[2], 0, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", f, m[1], err)
			}
			if old, ok := defines[m[1]]; ok && old != v {
				return nil, fmt.Errorf("%s is %d in one header and %d in %s", m[1], old, v, f)
			}
			defines[m[1]] = v
		}
	}
	return defines, nil
}

// CheckDefines reports each name of want whose #define is missing from
// defines or differs from its Go value.
func CheckDefines(defines, want map[string]int64) []error {
	var errs []error
	for name, goValue := range want {
		c, ok := defines[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("no #define %s in the kernel headers", name))
		case c != goValue:
			errs = append(errs, fmt.Errorf("%s is %d in the kernels and %d in Go", name, c, goValue))
		}
	}
	return errs
}
