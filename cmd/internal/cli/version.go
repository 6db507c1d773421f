package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/pathflow/pathflow/internal/version"
)

// versionText is what -version prints: the command and pathflow's
// version, then the Go version and platform and, when the binary carries
// them, the build tags (cuda or not) and the commit it was built from.
func versionText(name string) string {
	text := fmt.Sprintf("%s %s (%s %s/%s", name, version.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if info, ok := debug.ReadBuildInfo(); ok {
		var revision, modified, tags string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			case "-tags":
				tags = s.Value
			}
		}
		if tags != "" {
			text += ", tags " + tags
		}
		if revision != "" {
			text += ", commit " + revision[:min(len(revision), 12)]
			if modified == "true" {
				text += " (modified)"
			}
		}
	}
	return strings.TrimSpace(text) + ")"
}
