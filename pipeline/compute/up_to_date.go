package compute

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/output"
)

// upToDateManifest returns the manifest of dir when dir already holds a
// complete run of the same input, settings and version: every file the
// manifest lists is present with its recorded size and SHA-256, so that a
// damaged output is never taken for a finished one. When it does not, the
// manifest is nil and why says what differs. The files are hashed a
// goroutine each, up to one per core: a pass over the outputs, cheap
// beside computing them again.
func upToDateManifest(dir, inputSHA, configSHA string, distances bool) (m *output.Manifest, why string) {
	m, err := output.ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "no " + output.ManifestName + ": no earlier run"
	case err != nil:
		return nil, err.Error()
	case m.Version != version.Version:
		return nil, fmt.Sprintf("written by version %s", m.Version)
	case m.InputSHA256 != inputSHA:
		return nil, "another input"
	case m.ConfigSHA256 != configSHA:
		return nil, "other settings"
	case listsDistances(m.Files) != distances:
		return nil, distancesProblem(distances)
	}
	problems := make([]string, len(m.Files))
	parallel.For(len(m.Files), runtime.GOMAXPROCS(0), func(i int) {
		problems[i] = outputFileProblem(dir, m.Files[i])
	})
	for _, p := range problems {
		if p != "" {
			return nil, p
		}
	}
	return m, ""
}

// upToDate is upToDateManifest's answer without the manifest.
func upToDate(dir, inputSHA, configSHA string, distances bool) (ok bool, why string) {
	m, why := upToDateManifest(dir, inputSHA, configSHA, distances)
	return m != nil, why
}

// outputFileProblem says how the file f lists in dir differs from it, ""
// when it does not.
func outputFileProblem(dir string, f output.ManifestFile) string {
	if err := output.CheckListed(filepath.Join(dir, filepath.FromSlash(f.Path)), f); err != nil {
		return err.Error()
	}
	return ""
}

// listsDistances reports whether files hold a distances table (part files
// or the matrix). output.distances chooses it and stays out of the
// settings checksum, since it changes no byte of the other tables, so
// whether an earlier run is current depends on it as well.
func listsDistances(files []output.ManifestFile) bool {
	for _, f := range files {
		if strings.HasPrefix(f.Path, output.DistancesDir+"/") || f.Path == output.MatrixName {
			return true
		}
	}
	return false
}

// distancesProblem says why an output whose distances table is not as
// output.distances asks is not current.
func distancesProblem(distances bool) string {
	if distances {
		return "written without distances, " + KeyDistances + ": false"
	}
	return "written with distances, " + KeyDistances + ": true"
}
