package ingest

import (
	"io"
	"runtime"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/csrfile"
	"github.com/pathflow/pathflow/internal/mapfile"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
)

// KeyOutputReload says whether ingest writes the reload file beside its
// tables. Compute accepts the key, so one config serves both commands,
// and ignores it: it maps an input's reload file whenever the input's
// manifest lists one.
const KeyOutputReload = "output.reload_file"

// ReloadKey declares output.reload_file.
func ReloadKey() config.Key {
	return config.Key{Name: KeyOutputReload, Default: true, Flag: "reload-file",
		Usage: "ingest: beside parquet or arrow tables, write " + input.ReloadName + ", the CSR and vertex table as raw arrays (12 bytes per arc, 8 to 24 per vertex) that compute maps instead of decoding the tables and sorting the arcs; compute ignores it"}
}

// writeReloadFile writes the reload file of g into the ingest output
// folder dir, with the graph's checksum and weight range in its metadata
// (MetaGraphChecksum, MetaWeightRange), and the metric the hierarchy
// carries beside the weights (stored).
// It holds nothing of the run (the manifest's record of its checksum ties
// it to the run), so the same graph gives the same bytes. O(n + m): a CSR
// build, the graph's checksum unless the hierarchy took it, and one pass
// of writing and hashing.
func writeReloadFile(dir string, g *input.LoadedGraph, stored func() storedRows) (tables.FileInfo, error) {
	return writeMappedFile(dir, input.ReloadName, int64(g.Edges.M()), func(w io.Writer) (mapfile.Written, error) {
		meta := input.Metadata(g)
		meta[input.MetaGraphChecksum] = g.GraphChecksum(runtime.GOMAXPROCS(0))
		meta[input.MetaWeightRange] = input.FormatWeightRange(g.Rows().WeightRange())
		rows := stored()
		if rows.metric != "" {
			meta[csrfile.MetaMetric], meta[csrfile.MetaMetricUnit] = rows.metric, rows.unit
		}
		return csrfile.Write(w, rows.csr, g.Vertices, meta)
	})
}
