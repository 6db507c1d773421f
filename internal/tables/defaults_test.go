package tables

import "testing"

// A writer given no options takes the defaults of defaults.go, the ones
// the commands' keys default to.
func TestDefaultsApplyWithoutOptions(t *testing.T) {
	for _, c := range []struct {
		opts []Option
		want Compression
	}{
		{nil, Snappy},
		{[]Option{WithFormat(Arrow)}, Uncompressed},
		{[]Option{WithCompression(Zstd), WithFormat(Arrow)}, Zstd},
		{[]Option{WithCompression(Uncompressed)}, Uncompressed},
	} {
		cfg, err := newConfig(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.compression != c.want {
			t.Errorf("%d options on %v: compression %v, want %v", len(c.opts), cfg.format, cfg.compression, c.want)
		}
		if cfg.partRows != DefaultPartRows || cfg.batchRows != DefaultBatchRows || cfg.zstdLevel != DefaultZstdLevel {
			t.Errorf("part rows %d, batch rows %d, zstd level %d", cfg.partRows, cfg.batchRows, cfg.zstdLevel)
		}
	}
	if DefaultCompression(Parquet) != Snappy || DefaultCompression(Arrow) != Uncompressed {
		t.Error("DefaultCompression disagrees with the commands' output.compression: default")
	}
}
