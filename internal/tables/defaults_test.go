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
		cfg, err := NewConfig(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Compression != c.want {
			t.Errorf("%d options on %v: compression %v, want %v", len(c.opts), cfg.Format, cfg.Compression, c.want)
		}
		if cfg.PartRows != DefaultPartRows || cfg.BatchRows != DefaultBatchRows || cfg.ZstdLevel != DefaultZstdLevel {
			t.Errorf("part rows %d, batch rows %d, zstd level %d", cfg.PartRows, cfg.BatchRows, cfg.ZstdLevel)
		}
	}
	if DefaultCompression(Parquet) != Snappy || DefaultCompression(Arrow) != Uncompressed {
		t.Error("DefaultCompression disagrees with the commands' output.compression: default")
	}
}
