package compute

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// TestManifestsSayWhenAndWhere: compute's and ingest's manifests record
// when the run started and finished, as RFC 3339 UTC stamps within the
// run, and the host it ran on.
func TestManifestsSayWhenAndWhere(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name here:", err)
	}
	before := time.Now().Add(-time.Second) // stamps are cut to milliseconds
	computed := filepath.Join(t.TempDir(), "c")
	runCompute(t, loadCompute(t, "", "-generate", "grid:side=4,lo=1,hi=9,seed=1", "-out", computed))
	ingested := filepath.Join(t.TempDir(), "i")
	if _, err := ingest.Run(context.Background(), loadIngest(t, "-generate", "grid:side=4,lo=1,hi=9,seed=1", "-out", ingested), stagetest.QuietLog, io.Discard); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	for _, dir := range []string{computed, ingested} {
		b, err := os.ReadFile(filepath.Join(dir, output.ManifestName))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["host"] != host {
			t.Errorf("%s: host %v, want %q", dir, m["host"], host)
		}
		var stamps []time.Time
		for _, key := range []string{"started_at", "finished_at"} {
			text, _ := m[key].(string)
			at, err := time.Parse(time.RFC3339, text)
			if err != nil || !strings.HasSuffix(text, "Z") {
				t.Errorf("%s: %s %q is not an RFC 3339 UTC time: %v", dir, key, text, err)
				continue
			}
			if at.Before(before) || at.After(after) {
				t.Errorf("%s: %s %s is outside the run (%s to %s)", dir, key, text, before, after)
			}
			stamps = append(stamps, at)
		}
		if len(stamps) == 2 && stamps[1].Before(stamps[0]) {
			t.Errorf("%s: finished_at %s before started_at %s", dir, stamps[1], stamps[0])
		}
	}
}
