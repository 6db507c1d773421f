package compute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/formats/points"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/places"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// PointsName is the points table of a table of places: where each place
// snapped, or why it did not.
const PointsName = "points"

// placesRun is a table of places: the places read and snapped, and the
// seed vertices the searches run between.
type placesRun struct {
	// origins and destinations are the files of a table of places, trips
	// the file of a list of trips (then origins and destinations are nil).
	origins, destinations *points.Table
	trips                 *points.PairTable
	// originAt and destinationAt are where the places snapped: per
	// origin and destination, or per trip. Every place is snapped in
	// every shard: the points table lists them all.
	originAt, destinationAt []snap.Place
	// lo and hi bound the origins (or trips) this run answers: all of
	// them, or a shard's contiguous block (blockBounds).
	lo, hi int
	// seeds are a table's seed vertices, tripSeeds a list of trips',
	// both of the block's origins (trips) alone.
	seeds     *places.Seeds
	tripSeeds *places.PairSeeds
}

// preparePlaces reads the places of compute.origins and
// compute.destinations, or the trips of compute.place_pairs, and snaps
// them onto the road network of g, which
// must know its vertices' longitude and latitude. The arcs' geometry comes
// from the input: an OpenStreetMap extract read directly, or the geometry
// table of an ingest output, checked against its manifest.
func preparePlaces(cfg *Config, g *input.LoadedGraph, log *slog.Logger, stages map[string]float64) (*placesRun, error) {
	begin := time.Now()
	if !g.Vertices.IsGeographic() {
		return nil, config.Errorf(KeyOrigins, "places are snapped by longitude and latitude: the input %s has none (an OpenStreetMap input, or its ingest output, has them)", g.Name)
	}
	geometry, err := placesGeometry(g)
	if err != nil {
		return nil, &stageerr.InputError{Err: err}
	}
	ix, err := snap.NewIndex(snap.Network{Vertices: g.Vertices, Edges: g.Edges, Geometry: geometry}, cfg.Workers)
	if err != nil {
		return nil, &stageerr.InputError{Err: fmt.Errorf("%s: %w", g.File, err)}
	}
	run := &placesRun{}
	limit := cfg.Places.SnapMaxMetres
	if cfg.Places.Pairs != "" {
		if run.trips, err = readTripFile(cfg.Places.Pairs); err != nil {
			return nil, err
		}
		run.originAt = ix.SnapAll(run.trips.OriginLon, run.trips.OriginLat, limit, cfg.Workers)
		run.destinationAt = ix.SnapAll(run.trips.DestinationLon, run.trips.DestinationLat, limit, cfg.Workers)
		run.lo, run.hi = placesBlock(cfg.Shard, len(run.originAt), "trips", log)
		run.tripSeeds = places.PairSeedsOf(run.originAt[run.lo:run.hi], run.destinationAt[run.lo:run.hi])
	} else {
		if run.origins, err = readPlaceFile(KeyOrigins, cfg.Places.Origins); err != nil {
			return nil, err
		}
		if run.destinations, err = readPlaceFile(KeyDestinations, cfg.Places.Destinations); err != nil {
			run.origins.Release()
			return nil, err
		}
		run.originAt = ix.SnapAll(run.origins.Lon, run.origins.Lat, limit, cfg.Workers)
		run.destinationAt = ix.SnapAll(run.destinations.Lon, run.destinations.Lat, limit, cfg.Workers)
		run.lo, run.hi = placesBlock(cfg.Shard, len(run.originAt), "origins", log)
		run.seeds = places.SeedsOf(run.originAt[run.lo:run.hi], run.destinationAt)
	}
	stages["places"] = time.Since(begin).Seconds()
	sources, targets := run.searchVertices()
	log.Info("places snapped",
		"origins", len(run.originAt), "origins_snapped", snappedCount(run.originAt),
		"destinations", len(run.destinationAt), "destinations_snapped", snappedCount(run.destinationAt),
		"seed_sources", len(sources), "seed_targets", targets,
		"snap_max_metres", limit, "places_s", runlog.Round3(stages["places"]))
	return run, nil
}

// placesBlock returns the half-open range of the n origins (or trips)
// shard s answers, all of them when unsharded, and logs a shard's block.
// The blocks are contiguous and in file order, so the shards' tables in
// shard order are the unsharded table.
func placesBlock(s Shard, n int, what string, log *slog.Logger) (lo, hi int) {
	if !s.Sharded() {
		return 0, n
	}
	lo, hi = blockBounds(n, s.Index, s.Count)
	log.Info("shard of places", "shard", fmt.Sprintf("%d/%d", s.Index, s.Count), "from", s.From,
		what, fmt.Sprintf("%d of %d (positions %d..%d)", hi-lo, n, lo, hi-1))
	return lo, hi
}

// searchVertices returns the seed sources the searches start from and the
// number of seed targets: a table's distinct ones, or the targets of a
// list of trips' sources, summed.
func (pr *placesRun) searchVertices() (sources []int32, targets int) {
	if pr.tripSeeds != nil {
		for _, t := range pr.tripSeeds.Targets {
			targets += len(t)
		}
		return pr.tripSeeds.Sources, targets
	}
	return pr.seeds.Sources, len(pr.seeds.Targets)
}

// readTripFile reads the file of trips; its problems are input errors
// naming the key.
func readTripFile(path string) (*points.PairTable, error) {
	t, err := points.ReadPairs(path)
	return t, placeFileError(KeyPlacePairs, path, err)
}

// readPlaceFile reads one file of places; its problems are input errors
// naming the key.
func readPlaceFile(key, path string) (*points.Table, error) {
	t, err := points.Read(path)
	return t, placeFileError(key, path, err)
}

// placeFileError makes err, from reading the file of key at path, an
// input error: one that cannot open the file names the key, the others
// name the file and row themselves. nil stays nil.
func placeFileError(key, path string, err error) error {
	var pathErr *os.PathError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pathErr):
		return &stageerr.InputError{Err: input.PathError(key, path, err)}
	}
	return &stageerr.InputError{Err: err}
}

func snappedCount(ps []snap.Place) int {
	n := 0
	for _, p := range ps {
		if p.OK {
			n++
		}
	}
	return n
}

// placesGeometry returns the intermediate points of g's arcs: the
// OpenStreetMap reader's, or the geometry table beside an ingest output's
// tables (none: every arc a straight segment).
func placesGeometry(g *input.LoadedGraph) (tables.ArcGeometry, error) {
	if g.Road != nil {
		geo := g.Road.Geometry
		return tables.ArcGeometry{Offsets: geo.Offsets, X: geo.X, Y: geo.Y}, nil
	}
	if g.Folder == "" || g.Listing() == nil {
		return tables.ArcGeometry{}, nil
	}
	for _, f := range []tables.Format{tables.Parquet, tables.Arrow} {
		path := tables.GeometryFileIn(g.Folder, f)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		var geo tables.ArcGeometry
		err := g.Listing().VerifiedRead([]string{path}, func() (err error) {
			geo, err = tables.ReadArcGeometry(path, g.Edges.M())
			return err
		})
		return geo, err
	}
	return tables.ArcGeometry{}, nil
}

// executePlaces runs the searches between the seeds and writes the table
// of places and the points table into dir.
func (r *computeRun) executePlaces(ctx context.Context, pr *placesRun, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	progress := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "compute", "seed sources", int64(len(pr.seeds.Sources)))
	origins, destinations := pr.originAt[pr.lo:pr.hi], pr.destinationAt
	originIDs := sliceArray(pr.origins.IDs, pr.lo, pr.hi)
	defer originIDs.Release()
	if len(pr.seeds.Sources) == 0 || len(pr.seeds.Targets) == 0 {
		// Nothing to search: every pair is answered without a route.
		origins = withoutSeeds(origins)
	}
	if err := os.MkdirAll(filepath.Join(dir, output.DistancesDir), 0o755); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	table, err := places.NewTableWriter(filepath.Join(dir, output.DistancesDir), origins, destinations,
		originIDs, pr.destinations.IDs, r.placeMetricField(), meta, r.tableOptions()...)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	defer table.Abort()
	combiner := places.NewCombiner(origins, destinations, pr.seeds, r.placeArcMetric(), table.Emit, r.cfg.Workers)
	if err := combiner.Start(); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	start := time.Now()
	var shape results.Shape
	if len(pr.seeds.Sources) > 0 && len(pr.seeds.Targets) > 0 {
		shape = results.Shape{Sources: pr.seeds.Sources, Targets: pr.seeds.Targets, Columns: r.placeColumns(), MaxDistance: results.NoCutoff}
	}
	if err := r.searchSeeds(ctx, be, req, shape, progress, combiner); err != nil {
		return err
	}
	stages["compute"] = time.Since(start).Seconds()
	begin := time.Now()
	err = combiner.Close()
	progress.Finish()
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	parts, err := table.Close()
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	pointsInfo, err := places.WritePoints(filepath.Join(dir, PointsName+r.cfg.OutFormat.Ext()), []places.PointSet{
		{Role: places.RoleOrigin, IDs: pr.origins.IDs, Lon: pr.origins.Lon, Lat: pr.origins.Lat, Places: pr.originAt},
		{Role: places.RoleDestination, IDs: pr.destinations.IDs, Lon: pr.destinations.Lon, Lat: pr.destinations.Lat, Places: pr.destinationAt},
	}, meta, r.tableOptions()...)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	stages["write_tail"] = time.Since(begin).Seconds()
	for _, p := range parts {
		r.rows += p.Rows
	}
	r.files = append(parts, pointsInfo)
	return nil
}

// sliceArray returns the values lo..hi-1 of a, sharing its memory; the
// caller releases it.
func sliceArray(a arrow.Array, lo, hi int) arrow.Array {
	return array.NewSlice(a, int64(lo), int64(hi))
}

// withoutSeeds returns the places with no seeds, so that they are
// answered without a search.
func withoutSeeds(ps []snap.Place) []snap.Place {
	out := make([]snap.Place, len(ps))
	for i, p := range ps {
		p.Out, p.In = nil, nil
		out[i] = p
	}
	return out
}

// release frees the places' columns.
func (pr *placesRun) release() {
	if pr.trips != nil {
		pr.trips.Release()
		return
	}
	pr.origins.Release()
	pr.destinations.Release()
}

// executeTrips runs the searches for a list of trips, from each seed
// source to its own seed targets, and writes the trips' answers in file
// order and the points table into dir.
func (r *computeRun) executeTrips(ctx context.Context, pr *placesRun, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	progress := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "compute", "seed sources", int64(len(pr.tripSeeds.Sources)))
	t := pr.trips
	originAt, destinationAt := pr.originAt[pr.lo:pr.hi], pr.destinationAt[pr.lo:pr.hi]
	combiner := places.NewPairCombiner(originAt, destinationAt, pr.tripSeeds, r.placeArcMetric(), r.cfg.Workers)
	start := time.Now()
	shape := results.Shape{Sources: pr.tripSeeds.Sources, SourceTargets: pr.tripSeeds.Targets, Columns: r.placeColumns(), MaxDistance: results.NoCutoff}
	if err := r.searchSeeds(ctx, be, req, shape, progress, combiner); err != nil {
		return err
	}
	stages["compute"] = time.Since(start).Seconds()
	begin := time.Now()
	err := combiner.Close()
	progress.Finish()
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	table := filepath.Join(dir, output.DistancesDir)
	if err := os.MkdirAll(table, 0o755); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	ids, others := sliceArray(t.IDs, pr.lo, pr.hi), make([]arrow.Array, len(t.OtherColumns))
	for c, col := range t.OtherColumns {
		others[c] = sliceArray(col, pr.lo, pr.hi)
	}
	defer func() {
		ids.Release()
		for _, c := range others {
			c.Release()
		}
	}()
	parts, err := places.WriteTrips(table, ids, t.IDName, t.Others, others, originAt, destinationAt, combiner.Answers(), r.placeMetricField(), meta, r.tableOptions()...)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	pointsInfo, err := places.WritePoints(filepath.Join(dir, PointsName+r.cfg.OutFormat.Ext()), []places.PointSet{
		{Role: places.RoleOrigin, IDs: t.IDs, Lon: t.OriginLon, Lat: t.OriginLat, Places: pr.originAt},
		{Role: places.RoleDestination, IDs: t.IDs, Lon: t.DestinationLon, Lat: t.DestinationLat, Places: pr.destinationAt},
	}, meta, r.tableOptions()...)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	stages["write_tail"] = time.Since(begin).Seconds()
	for _, p := range parts {
		r.rows += p.Rows
	}
	r.files = append(parts, pointsInfo)
	return nil
}

// searchSeeds runs the searches of shape (seed sources and targets) on be
// into consumer, counting the sources as they come as progress; a shape
// without sources searches nothing. A failed run aborts the consumer and
// finishes the progress.
func (r *computeRun) searchSeeds(ctx context.Context, be backend.Backend, req backend.Request, shape results.Shape, progress *runlog.Progress, consumer results.Consumer) error {
	if len(shape.Sources) == 0 {
		return nil
	}
	req.Shape, req.Facts = shape, r.facts.add
	err := be.Run(ctx, req, func(rows *results.Rows) error {
		progress.Add(int64(rows.Len()))
		if err := consumer.Put(rows); err != nil {
			return &stageerr.OutputError{Err: err}
		}
		return nil
	})
	if err != nil {
		consumer.Abort()
		progress.Finish()
		return classifyRunError(nameCycleVertex(err, r.ids))
	}
	return nil
}

// placeColumns are the columns the searches between seeds deliver: the
// distance, and the metric when the run reports one (compute.metrics).
func (r *computeRun) placeColumns() results.Columns {
	return results.ColumnsOf().With(results.Metric, r.metric.Name != "")
}

// placeArcMetric is every arc's metric, which the seeds' pieces share
// out, nil when the run reports none.
func (r *computeRun) placeArcMetric() []int32 {
	if r.metric.Name == "" {
		return nil
	}
	return r.graph.Edges.Metric
}

// placeMetricField is the metric's column beside the distance, the zero
// field when the run reports none.
func (r *computeRun) placeMetricField() arrow.Field {
	if r.metric.Name == "" {
		return arrow.Field{}
	}
	return r.metric.Field()
}
