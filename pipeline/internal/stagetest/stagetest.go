// Package stagetest holds what the tests of several stage packages share:
// a silent logger, a logger that keeps its lines, and small file fixtures.
package stagetest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/cputime"
)

// QuietLog discards every line: for runs whose logging is not under test.
var QuietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// WriteFile writes text to a file name in a fresh temporary folder and
// returns its path.
func WriteFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// LogBuffer is a logger that keeps what it writes, for checking warnings.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write keeps p; several goroutines may log at once.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns every line logged so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Logger returns a text logger that writes into b.
func (b *LogBuffer) Logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// Warnings returns the logged lines of level WARN.
func (b *LogBuffer) Warnings() []string {
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, "level=WARN") {
			out = append(out, line)
		}
	}
	return out
}

// GzipText returns text compressed with gzip.
func GzipText(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// FileSHA256 returns the lowercase hex SHA-256 of the file at path.
func FileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Names lists the names in the folder dir.
func Names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Load reads a stage's configuration from command-line args, as the
// command name would, with configFrom: a test's run starts from the same
// validated Config as the command's.
func Load[C any](t testing.TB, name string, keys []config.Key, configFrom func(*config.Loaded) (C, error), args ...string) C {
	t.Helper()
	l, err := config.Load(name, keys, args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := configFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// ProcessCPUSeconds is the CPU time, user and system, this process has
// used so far (cputime.Process), 0 where it cannot be read: benchmarks
// report it beside the wall time.
func ProcessCPUSeconds() float64 {
	d, _ := cputime.Process()
	return d.Seconds()
}
