package geoparquet

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/tables"
)

// BenchmarkWriteFile writes 10,000 routes of 500 points each (a long
// road route with every intermediate point of its ways) in each codec,
// and reports the time per point, the figure that scales to a paths
// output.
func BenchmarkWriteFile(b *testing.B) {
	const routes, points = 10_000, 500
	rng := rand.New(rand.NewPCG(1, 2))
	lon, lat := make([]float64, points), make([]float64, points)
	x, y := -75.6, 39.1
	for i := range points { // a walk of steps of about 50 m
		x += (rng.Float64() - 0.5) * 1e-3
		y += (rng.Float64() - 0.5) * 1e-3
		lon[i], lat[i] = x, y
	}
	leading := testLeading[:2]
	for _, codec := range []tables.Compression{tables.Snappy, tables.Zstd, tables.Uncompressed} {
		b.Run(codec.String(), func(b *testing.B) {
			cfg, err := tables.NewConfig([]tables.Option{tables.WithCompression(codec)})
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), "routes.parquet")
			b.SetBytes(int64(routes * LineStringBytes(points)))
			for b.Loop() {
				_, err := WriteFile(path, leading, nil, tables.ParquetEncoding{}, cfg, func(rows *Rows) error {
					for r := range routes {
						rows.Leading(0).(*array.Int32Builder).Append(int32(r))
						rows.Leading(1).(*array.Int32Builder).Append(int32(r + 1))
						if err := rows.AppendLine(lon, lat); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*routes*points), "ns/point")
		})
	}
}
