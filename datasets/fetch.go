package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Fetcher finds dataset files: first in the mirror folder, then in the
// cache, and only then on the network, caching what it downloads.
type Fetcher struct {
	// Mirror is a folder of already downloaded files; "" means MirrorDir().
	Mirror string
	// CacheDir keeps downloads; "" means the user cache folder + "/pathflow".
	CacheDir string
	// Offline forbids downloads: a file found in neither folder is an error.
	Offline bool
	// Progress receives a progress line about once a second while
	// downloading; nil for silence.
	Progress io.Writer
	// Client is the HTTP client; nil means http.DefaultClient.
	Client *http.Client
}

// Locate returns a local path holding file's bytes, downloading it into the
// cache when needed.
func (f *Fetcher) Locate(ctx context.Context, file File) (string, error) {
	mirror := f.Mirror
	if mirror == "" {
		mirror = MirrorDir()
	}
	cache, err := f.cacheDir()
	if err != nil {
		return "", err
	}
	for _, dir := range []string{mirror, cache} {
		for _, name := range candidateNames(file) {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	if p, ok := moduleCacheFile(file); ok {
		return p, nil
	}
	if f.Offline || file.URL == "" {
		return "", fmt.Errorf("datasets: %s is in neither the mirror folder %s nor the cache %s, and downloads are off (input.offline: true). %s",
			file.Name, mirror, cache, howToFetch(file, mirror))
	}
	path, err := f.download(ctx, file, cache)
	if err != nil {
		return "", fmt.Errorf("%w. %s", err, howToFetch(file, mirror))
	}
	return path, nil
}

// howToFetch tells a user without a network (or with a failed download)
// how to provide file once, so that later runs need no network.
func howToFetch(file File, mirror string) string {
	if file.URL == "" {
		return fmt.Sprintf("Put %s in the mirror folder %s (input.mirror, or $%s).", file.Name, mirror, MirrorEnv)
	}
	return fmt.Sprintf("Fetch it once on a machine with network, into the mirror folder %s (input.mirror, or $%s): "+
		"curl -fL -o %s %s, or run once with input.offline: false (flag -offline=false) to download it into the cache; "+
		"then input.offline: true (flag -offline) runs without network.",
		mirror, MirrorEnv, filepath.Join(mirror, path.Base(file.URL)), file.URL)
}

func (f *Fetcher) cacheDir() (string, error) {
	if f.CacheDir != "" {
		return f.CacheDir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("datasets: no cache folder: %w", err)
	}
	return filepath.Join(base, "pathflow"), nil
}

// candidateNames lists the names a file may be stored under: a mirror may
// hold the compressed or the uncompressed form. Readers detect gzip from
// the bytes, so either works.
func candidateNames(file File) []string {
	names := []string{file.Name}
	if file.URL != "" {
		names = append(names, path.Base(file.URL))
	}
	if trimmed, ok := strings.CutSuffix(file.Name, ".gz"); ok {
		names = append(names, trimmed)
	} else {
		names = append(names, file.Name+".gz")
	}
	return names
}

// download fetches file into dir under the URL's base name, verifying the
// checksum when one is known; the final name appears only when complete.
func (f *Fetcher) download(ctx context.Context, file File, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, file.URL, nil)
	if err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("datasets: download %s: %w", file.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("datasets: download %s: %s", file.URL, resp.Status)
	}

	final := filepath.Join(dir, path.Base(file.URL))
	tmp, err := os.CreateTemp(dir, "."+path.Base(file.URL)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename

	hash := sha256.New()
	body := &progressReader{r: resp.Body, total: resp.ContentLength, name: file.Name, out: f.Progress}
	if _, err := io.Copy(io.MultiWriter(tmp, hash), body); err != nil {
		tmp.Close()
		return "", fmt.Errorf("datasets: download %s: %w", file.URL, err)
	}
	body.finish()
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if got := hex.EncodeToString(hash.Sum(nil)); file.SHA256 != "" && got != file.SHA256 {
		return "", fmt.Errorf("datasets: %s: SHA-256 %s, want %s", file.URL, got, file.SHA256)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	return final, nil
}

// progressReader prints "name: 12.3 / 45.6 MB" lines at most once a second.
type progressReader struct {
	r     io.Reader
	total int64
	done  int64
	name  string
	out   io.Writer
	last  time.Time
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	if p.out != nil && time.Since(p.last) >= time.Second {
		p.last = time.Now()
		p.print()
	}
	if errors.Is(err, io.EOF) {
		return n, io.EOF
	}
	return n, err
}

func (p *progressReader) finish() {
	if p.out != nil {
		p.print()
	}
}

func (p *progressReader) print() {
	if p.total > 0 {
		fmt.Fprintf(p.out, "download %s: %.1f / %.1f MB\n", p.name, float64(p.done)/1e6, float64(p.total)/1e6)
	} else {
		fmt.Fprintf(p.out, "download %s: %.1f MB\n", p.name, float64(p.done)/1e6)
	}
}
