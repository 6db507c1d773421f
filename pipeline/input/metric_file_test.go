package input

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// travelTimes is a small network's travel-time file; the tests' second
// files list its arcs again with lengths, or fail to.
const travelTimes = "c times\np sp 4 5\na 1 2 5\na 2 3 5\na 3 4 2\na 4 1 7\na 1 3 9\n"

// loadPair loads the DIMACS text times with the second file lengths
// (gzip when zipped) as the metric "length" in metres.
func loadPair(t *testing.T, times, lengths string, zipped bool) (*LoadedGraph, string, string, error) {
	t.Helper()
	tPath := stagetest.WriteFile(t, "net-t.gr", times)
	data := []byte(lengths)
	if zipped {
		data = stagetest.GzipText(t, lengths)
	}
	dPath := stagetest.WriteFile(t, "net-d.gr", string(data))
	spec := Spec{Path: tPath, Metric: MetricFileSpec{File: dPath, Name: "length", Unit: "m"}}
	g, err := LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true)
	return g, tPath, dPath, err
}

// TestMetricFileReadsTheSecondWeights loads a pair of files of one
// network, the second gzip-compressed, with comments and blank lines of
// its own: the metric holds its weights arc by arc, and the tables'
// metadata name it.
func TestMetricFileReadsTheSecondWeights(t *testing.T) {
	lengths := "c lengths\n\np sp 4 5\na 1 2 500\nc between arcs\na 2 3 410\na 3 4 120\n\na 4 1 980\na 1 3 700\n"
	g, _, dPath, err := loadPair(t, travelTimes, lengths, true)
	if err != nil {
		t.Fatal(err)
	}
	m := g.MetricFile
	if m == nil || m.Name != "length" || m.Unit != "m" || m.File != dPath || !slices.Equal(m.Values, []int32{500, 410, 120, 980, 700}) {
		t.Fatalf("metric %+v", m)
	}
	if !slices.Equal(g.Edges.Weight, []int32{5, 5, 2, 7, 9}) {
		t.Fatalf("weights %v: the input's, not the metric file's", g.Edges.Weight)
	}
	if meta := Metadata(g); meta[MetaMetricFile] != "net-d.gr" || len(meta[MetaMetricFileSHA256]) != 64 {
		t.Fatalf("metadata %v", meta)
	}
}

// TestMetricFileMismatch refuses second files that are not of the same
// network, as input errors naming both files; an arc that differs is
// named with its line in each.
func TestMetricFileMismatch(t *testing.T) {
	for _, tc := range []struct {
		name, lengths string
		want          []string
	}{
		{"another arc", "p sp 4 5\na 1 2 500\nc a comment\na 2 4 410\na 3 4 120\na 4 1 980\na 1 3 700\n",
			[]string{"net-d.gr: arc 2 is 2 -> 4 (line 4), in ", "net-t.gr it is 2 -> 3 (line 4)"}},
		{"arcs swapped", "p sp 4 5\na 1 2 500\na 2 3 410\na 3 4 120\na 1 3 700\na 4 1 980\n",
			[]string{"arc 4 is 1 -> 3 (line 5)", "it is 4 -> 1 (line 6)"}},
		{"fewer vertices", "p sp 3 5\na 1 2 500\na 2 3 410\na 3 1 120\na 3 1 980\na 1 3 700\n",
			[]string{"net-d.gr: 3 vertices", "net-t.gr has 4"}},
		{"fewer arcs", "p sp 4 4\na 1 2 500\na 2 3 410\na 3 4 120\na 4 1 980\n",
			[]string{"net-d.gr: 4 arcs", "net-t.gr has 5"}},
		{"not DIMACS", "0 1\n1 2\n", []string{"net-d.gr:1"}},
	} {
		_, _, _, err := loadPair(t, travelTimes, tc.lengths, false)
		if stageerr.KindOf(err) != stageerr.Input {
			t.Errorf("%s: %v, want an input error", tc.name, err)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want it to say %q", tc.name, err, want)
			}
		}
	}
}

// TestMetricFileSettings checks what the keys refuse: a name or unit
// without a file, a file without a name, names a table cannot take, and
// simplify: reduce, which would drop arcs the file lists; and a metric
// file beside an input that is not DIMACS.
func TestMetricFileSettings(t *testing.T) {
	read := func(args ...string) (Spec, error) {
		l, err := config.Load("ingest", Keys(), append([]string{"-input", "x.gr"}, args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		vs := l.Values()
		spec := ReadSpec(vs)
		return spec, vs.Err()
	}
	spec, err := read("-metric-file", "d.gr", "-metric-name", "length", "-metric-unit", "m")
	if err != nil || spec.Metric != (MetricFileSpec{File: "d.gr", Name: "length", Unit: "m"}) {
		t.Fatalf("%+v, %v", spec.Metric, err)
	}
	for _, tc := range []struct {
		args []string
		key  string
	}{
		{[]string{"-metric-name", "length"}, KeyInputMetricName},
		{[]string{"-metric-unit", "m"}, KeyInputMetricUnit},
		{[]string{"-metric-file", "d.gr"}, KeyInputMetricName},
		{[]string{"-metric-file", "d.gr", "-metric-name", "distance"}, KeyInputMetricName},
		{[]string{"-metric-file", "d.gr", "-metric-name", "src"}, KeyInputMetricName},
		{[]string{"-metric-file", "d.gr", "-metric-name", "2nd"}, KeyInputMetricName},
		{[]string{"-metric-file", "d.gr", "-metric-name", "length m"}, KeyInputMetricName},
		{[]string{"-metric-file", "d.gr", "-metric-name", "length", "-simplify", "reduce"}, KeyInputSimplify},
	} {
		_, err := read(tc.args...)
		var cfgErr *config.Error
		if !errors.As(err, &cfgErr) || cfgErr.Key != tc.key {
			t.Errorf("%v: %v, want an error of %s", tc.args, err, tc.key)
		}
	}

	snap := stagetest.WriteFile(t, "peers.txt", "0 1\n1 2\n")
	d := stagetest.WriteFile(t, "d.gr", "p sp 3 2\na 1 2 1\na 2 3 1\n")
	_, err = LoadGraph(context.Background(), Spec{Path: snap, Weighting: "file", Directed: true, Metric: MetricFileSpec{File: d, Name: "length"}}, stagetest.QuietLog, io.Discard, true)
	var cfgErr *config.Error
	if !errors.As(err, &cfgErr) || cfgErr.Key != KeyInputMetricFile || !strings.Contains(err.Error(), "snap") {
		t.Errorf("a metric file beside a SNAP input: %v, want an error of %s", err, KeyInputMetricFile)
	}
}
