package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookupKnowsTheRoadNetworksAndGnutella(t *testing.T) {
	for _, name := range []string{"NY", "BAY", "COL", "FLA", "NW", "NE", "CAL", "LKS", "E", "W", "CTR", "USA"} {
		d, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.Coordinates == nil || !strings.HasSuffix(d.Graph.URL, "USA-road-d."+name+".gr.gz") || d.Nodes <= 0 || d.Arcs <= 0 {
			t.Errorf("%s: incomplete entry %+v", name, d)
		}
	}
	usa, _ := Lookup("usa-road-d.USA")
	if usa.Nodes != 23_947_347 || usa.Arcs != 58_333_344 {
		t.Errorf("USA counts %d/%d", usa.Nodes, usa.Arcs)
	}
	if _, err := Lookup("p2p-Gnutella04"); err != nil {
		t.Error(err)
	}
	if _, err := Lookup("Atlantis"); err == nil || !strings.Contains(err.Error(), "rome99") {
		t.Errorf("unknown dataset: err = %v, want the list of known names", err)
	}
}

func TestMirrorReplacesTheNetwork(t *testing.T) {
	mirror := t.TempDir()
	if err := os.WriteFile(filepath.Join(mirror, "rome99.gr"), []byte("c x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _ := Lookup("rome99")
	f := &Fetcher{Mirror: mirror, CacheDir: t.TempDir(), Offline: true}
	got, err := f.Locate(context.Background(), d.Graph)
	if err != nil || got != filepath.Join(mirror, "rome99.gr") {
		t.Fatalf("Locate = %q, %v", got, err)
	}
	ny, _ := Lookup("NY")
	if _, err := f.Locate(context.Background(), ny.Graph); err == nil {
		t.Error("offline fetch of a missing file succeeded")
	}
}

func TestDownloadCachesAndVerifiesChecksum(t *testing.T) {
	payload := []byte("p sp 1 0\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(payload) }))
	defer srv.Close()
	sum := sha256.Sum256(payload)

	cache := t.TempDir()
	f := &Fetcher{Mirror: t.TempDir(), CacheDir: cache}
	file := File{Name: "tiny.gr", URL: srv.URL + "/tiny.gr", SHA256: hex.EncodeToString(sum[:])}
	got, err := f.Locate(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got); string(b) != string(payload) {
		t.Errorf("cached %q", b)
	}

	bad := File{Name: "bad.gr", URL: srv.URL + "/bad.gr", SHA256: strings.Repeat("0", 64)}
	if _, err := f.Locate(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("checksum mismatch: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "bad.gr")); err == nil {
		t.Error("a file that failed its checksum was left under its final name")
	}
}

func TestMissingFileSaysHowToFetchIt(t *testing.T) {
	mirror, cache := t.TempDir(), t.TempDir()
	ny, err := Lookup("NY")
	if err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{Mirror: mirror, CacheDir: cache, Offline: true}
	_, err = f.Locate(context.Background(), ny.Graph)
	if err == nil {
		t.Fatal("offline fetch of a missing file succeeded")
	}
	for _, want := range []string{"USA-road-d.NY.gr.gz", mirror, cache, "input.offline", "input.mirror", MirrorEnv,
		"curl -fL -o " + filepath.Join(mirror, "USA-road-d.NY.gr.gz") + " " + ny.Graph.URL} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }))
	defer srv.Close()
	online := &Fetcher{Mirror: mirror, CacheDir: cache}
	_, err = online.Locate(context.Background(), File{Name: "gone.gr", URL: srv.URL + "/gone.gr"})
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "input.offline") || !strings.Contains(err.Error(), mirror) {
		t.Errorf("a failed download: err = %v, want the status and how to fetch the file", err)
	}
}
