package input

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// Keys of a second weight file of the input's network: the 9th DIMACS
// Challenge publishes each road network twice, with travel times
// (USA-road-t.NY.gr) and with distances (USA-road-d.NY.gr), over the same
// arcs in the same order.
const (
	KeyInputMetricFile = "input.metric.file"
	KeyInputMetricName = "input.metric.name"
	KeyInputMetricUnit = "input.metric.unit"
)

// Schema metadata keys naming the metric file a graph's tables carry a
// column of (MetricFile).
const (
	MetaMetricFile       = "pathflow.metric_file"
	MetaMetricFileSHA256 = "pathflow.metric_file_sha256"
)

// MetricFileSpec names a second DIMACS file of the input's network whose
// weights are another metric of the same arcs (input.metric.*).
type MetricFileSpec struct {
	// File is the second .gr file, "" for none.
	File string
	// Name is the metric's name: its column in the edges table and in
	// compute's results (compute.metrics).
	Name string
	// Unit, when set, is recorded as the column's unit ("m", "ms").
	Unit string
}

// MetricFile is a metric read from a second file of the input's network:
// one value per arc, in the order of LoadedGraph.Edges.
type MetricFile struct {
	// Name and Unit are the spec's.
	Name, Unit string
	// File is the path read; SHA256 the checksum of its bytes.
	File, SHA256 string
	// Values holds the file's weights, arc by arc.
	Values []int32
}

// Column is m as a column of the edges table.
func (m *MetricFile) Column() tables.ArcColumn {
	return tables.ArcColumn{Name: m.Name, Unit: m.Unit, Int32: m.Values}
}

// metricNamePattern is the form of a metric's name: a column name every
// SQL engine and data frame library takes unquoted.
var metricNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reservedMetricNames are columns a metric's column would sit beside: the
// edges table's own and those of compute's distances tables.
var reservedMetricNames = []string{
	tables.ColSrc, tables.ColDst, tables.ColWeight,
	resultfiles.ColSource, resultfiles.ColVertex, resultfiles.ColDistance, resultfiles.ColParent,
	resultfiles.ColSourceOriginal, resultfiles.ColVertexOriginal,
}

// metricFileKeys declares the metric file's keys.
func metricFileKeys() []config.Key {
	return []config.Key{
		{Name: KeyInputMetricFile, Default: "", Path: true, Flag: "metric-file", Usage: "a second DIMACS .gr file of the input's network (the same p line, the same arcs in the same order, other weights: USA-road-d.NY.gr beside USA-road-t.NY.gr): its weights become the int32 column input.metric.name of the edges table, a metric compute reports (compute.metrics)"},
		{Name: KeyInputMetricName, Default: "", Flag: "metric-name", Usage: "the name of input.metric.file's metric: its column in the edges table and in compute's results (letters, digits and _)"},
		{Name: KeyInputMetricUnit, Default: "", Flag: "metric-unit", Usage: "the unit of input.metric.file's weights (e.g. m), recorded in the field metadata; unset, the column's unit is the input's weight"},
	}
}

// readMetricFileSpec reads and validates the metric file's keys.
func readMetricFileSpec(vs *config.Values, simplify string) MetricFileSpec {
	s := MetricFileSpec{
		File: vs.String(KeyInputMetricFile),
		Name: vs.String(KeyInputMetricName),
		Unit: vs.String(KeyInputMetricUnit),
	}
	switch {
	case s.File == "" && s.Name != "":
		vs.Fail(KeyInputMetricName, "names the metric of %s, which is not set", KeyInputMetricFile)
	case s.File == "" && s.Unit != "":
		vs.Fail(KeyInputMetricUnit, "is the unit of %s, which is not set", KeyInputMetricFile)
	case s.File == "":
	case s.Name == "":
		vs.Fail(KeyInputMetricName, "is required with %s: the name of its column (e.g. length)", KeyInputMetricFile)
	case !metricNamePattern.MatchString(s.Name):
		vs.Fail(KeyInputMetricName, "%q: a metric's name is letters, digits and _, not starting with a digit", s.Name)
	case slices.Contains(reservedMetricNames, s.Name):
		vs.Fail(KeyInputMetricName, "%q is a column the edges table or compute's results already have (%v)", s.Name, reservedMetricNames)
	case simplify == "reduce":
		vs.Fail(KeyInputSimplify, "reduce drops and merges arcs, which %s lists one by one: leave it keep", KeyInputMetricFile)
	}
	return s
}

// checkMetricFileFormat refuses a metric file beside an input that is not
// a DIMACS file: the metric's values follow the arcs of the text.
func checkMetricFileFormat(spec MetricFileSpec, format string) error {
	if spec.File == "" || format == string(formats.KindDIMACS) {
		return nil
	}
	return config.Errorf(KeyInputMetricFile, "pairs with a DIMACS input (.gr), whose arcs it lists in the same order; the input is %s", format)
}

// loadMetricFile reads spec's file, a DIMACS text, hashing its bytes, and
// checks that it lists loaded's arcs (read from loaded.File) in their
// order: the same vertex count, arc count and ends, arc by arc. A mismatch
// is an error naming both files and the first arc that differs, with its
// line in each. O(bytes of the file + arcs); the file's arcs take 12 bytes
// each while they are compared, its weights 4 bytes each after.
func loadMetricFile(spec MetricFileSpec, loaded *LoadedGraph, log *slog.Logger, progressOut io.Writer, quiet bool) (*MetricFile, error) {
	f, err := os.Open(spec.File)
	if err != nil {
		return nil, PathError(KeyInputMetricFile, spec.File, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	progress := runlog.NewProgress(log, progressOut, quiet, "read "+filepath.Base(spec.File), "bytes", st.Size())
	defer progress.Finish()
	r := newHashedReader(f, st.Size(), progress)
	defer r.Close()
	other, err := formats.ReadDIMACS(r, spec.File)
	if err != nil {
		return nil, err
	}
	sum, err := r.Sum()
	if err != nil {
		return nil, err
	}
	e := loaded.Edges
	switch {
	case other.N != e.N:
		return nil, fmt.Errorf("%s: %s: %d vertices, %s has %d: the two files of one network have the same p line", KeyInputMetricFile, spec.File, other.N, loaded.File, e.N)
	case other.M() != e.M():
		return nil, fmt.Errorf("%s: %s: %d arcs, %s has %d: the two files of one network have the same p line", KeyInputMetricFile, spec.File, other.M(), loaded.File, e.M())
	}
	if arc := firstDifferentArc(e.Src, e.Dst, other.Src, other.Dst); arc >= 0 {
		return nil, fmt.Errorf("%s: %s: arc %d is %s, in %s it is %s: the two files of one network list the same arcs in the same order",
			KeyInputMetricFile, spec.File, arc+1, arcAt(spec.File, other.Src[arc], other.Dst[arc], arc), loaded.File, arcAt(loaded.File, e.Src[arc], e.Dst[arc], arc))
	}
	log.Info("metric file", "file", spec.File, "metric", spec.Name, "unit", spec.Unit, "m", other.M())
	return &MetricFile{Name: spec.Name, Unit: spec.Unit, File: spec.File, SHA256: sum, Values: other.Weight}, nil
}

// firstDifferentArc returns the first arc whose ends differ between the
// two lists, of equal lengths, or -1. O(arcs).
func firstDifferentArc(src, dst, otherSrc, otherDst []int32) int {
	for i := range src {
		if src[i] != otherSrc[i] || dst[i] != otherDst[i] {
			return i
		}
	}
	return -1
}

// arcAt shows an arc of a DIMACS file as the file writes it, 1-based, and
// where: "5 -> 9 (line 12)", the line found by reading the file again (an
// error path: a problem reading it leaves the line out).
func arcAt(path string, src, dst int32, arc int) string {
	text := fmt.Sprintf("%d -> %d", int64(src)+1, int64(dst)+1)
	f, err := os.Open(path)
	if err != nil {
		return text
	}
	defer f.Close()
	if line, err := formats.DIMACSArcLine(f, path, arc); err == nil {
		text += fmt.Sprintf(" (line %d)", line)
	}
	return text
}
