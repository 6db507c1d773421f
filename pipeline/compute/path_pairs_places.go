package compute

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pathflow/pathflow/formats/points"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/places"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// tripRoutesRun is a file of path requests that lists trips between
// places (pathRequestsAreTrips): the trips, where their ends snapped,
// and the seeds the searches start from.
type tripRoutesRun struct {
	trips                 *points.PairTable
	origins, destinations []snap.Place
	// seeds are the Out seed vertices of the trips with both ends
	// snapped, each once, in the order of the first trip naming them:
	// the searches' sources, each a whole tree, so that rows become
	// final roughly in file order.
	seeds []int32
	// users[k] are the trips that leave by seeds[k], with the index of
	// that seed among their origin's Out seeds.
	users [][]seedUse
	// snapSeconds is how long reading and snapping the places took.
	snapSeconds float64
}

// seedUse is a trip leaving its origin by its Out seed from.
type seedUse struct {
	trip int32
	from int32
}

// newTripRoutesRun reads compute.path_pairs as a list of trips between
// places (the file compute.place_pairs reads), snaps both ends of every
// trip onto the road network of g as a table of places does, and returns
// the run: its searches are the trips' seed vertices, each a whole tree.
func newTripRoutesRun(cfg *Config, g *input.LoadedGraph, log *slog.Logger) (*computeRun, error) {
	begin := time.Now()
	if !g.Vertices.IsGeographic() {
		return nil, config.Errorf(KeyPathPairs, "trips between places are snapped by longitude and latitude: the input %s has none (an OpenStreetMap input, or its ingest output, has them)", g.Name)
	}
	trips, err := points.ReadPairs(cfg.PathPairs)
	if err = placeFileError(KeyPathPairs, cfg.PathPairs, err); err != nil {
		return nil, err
	}
	geometry, err := placesGeometry(g)
	if err != nil {
		trips.Release()
		return nil, &stageerr.InputError{Err: err}
	}
	ix, err := snap.NewIndex(snap.Network{Vertices: g.Vertices, Edges: g.Edges, Geometry: geometry}, cfg.Workers)
	if err != nil {
		trips.Release()
		return nil, &stageerr.InputError{Err: fmt.Errorf("%s: %w", g.File, err)}
	}
	limit := cfg.Places.SnapMaxMetres
	tr := &tripRoutesRun{
		trips:        trips,
		origins:      ix.SnapAll(trips.OriginLon, trips.OriginLat, limit, cfg.Workers),
		destinations: ix.SnapAll(trips.DestinationLon, trips.DestinationLat, limit, cfg.Workers),
	}
	tr.collectSeeds()
	tr.snapSeconds = time.Since(begin).Seconds()
	log.Info("trips snapped", "trips", trips.Len(),
		"origins_snapped", snappedCount(tr.origins), "destinations_snapped", snappedCount(tr.destinations),
		"seed_sources", len(tr.seeds), "snap_max_metres", limit, "places_s", runlog.Round3(tr.snapSeconds))
	sources := tr.seeds
	if len(sources) == 0 {
		// No trip to search: the run is planned as any other, over one
		// vertex, and searches nothing.
		sources = []int32{0}
	}
	names := VertexNames{IDs: input.NewVertexIDs(g.Edges.N, g.Vertices), Original: cfg.OriginalIDs}
	return &computeRun{cfg: cfg, log: log, graph: g, ids: names.IDs, sources: sources, pathRequests: true, tripRoutes: tr}, nil
}

// collectSeeds lists the seed sources of the trips with both ends
// snapped and the trips that leave by each. O(trips).
func (tr *tripRoutesRun) collectSeeds() {
	at := map[int32]int{}
	for i := range tr.origins {
		p, q := &tr.origins[i], &tr.destinations[i]
		if !p.OK || !q.OK || len(q.In) == 0 {
			continue
		}
		for from, s := range p.Out {
			k, ok := at[s.Vertex]
			if !ok {
				k = len(tr.seeds)
				at[s.Vertex] = k
				tr.seeds = append(tr.seeds, s.Vertex)
				tr.users = append(tr.users, nil)
			}
			tr.users[k] = append(tr.users[k], seedUse{trip: int32(i), from: int32(from)})
		}
	}
}

// release frees the trips' columns.
func (tr *tripRoutesRun) release() { tr.trips.Release() }

// executeTripRoutes searches the whole tree of every seed source of the
// trips, chooses each trip's route as the trips' table chooses its
// distance (places.TripRoute), and writes the routes in file order, each
// row once its trip is answered, beside the searches, and then the
// points table (where each trip's ends snapped) into dir.
func (r *computeRun) executeTripRoutes(ctx context.Context, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	tr := r.tripRoutes
	defer tr.release()
	stages["places"] = tr.snapSeconds
	progress := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "compute", "seed sources", int64(len(tr.seeds)))
	answers := newTripRouteAnswers(tr, r.routes, req.CSR)
	var shape results.Shape
	if len(tr.seeds) > 0 {
		shape = results.Shape{Sources: tr.seeds, Columns: results.ColumnsOf(), MaxDistance: results.NoCutoff}
	}
	var fi, pointsInfo tables.FileInfo
	tail, err := r.searchWhileWriting(ctx, be, req, shape, progress, answers, func() (err error) {
		path := filepath.Join(dir, output.PathsName+r.cfg.OutFormat.Ext())
		fi, err = places.WriteTripRoutes(path, &places.TripRoutesFile{
			IDs: tr.trips.IDs, IDName: tr.trips.IDName,
			Others:  tables.OtherColumns{Fields: tr.trips.Others, Arrays: tr.trips.OtherColumns},
			Origins: tr.origins, Destinations: tr.destinations,
			Routes: answers.routes, Ready: answers.ready, Index: r.routes,
		}, meta, r.tableOptions()...)
		return err
	}, func() (err error) {
		t := tr.trips
		pointsInfo, err = places.WritePoints(filepath.Join(dir, PointsName+r.cfg.OutFormat.Ext()), []places.PointSet{
			{Role: places.RoleOrigin, IDs: t.IDs, Lon: t.OriginLon, Lat: t.OriginLat, Places: tr.origins},
			{Role: places.RoleDestination, IDs: t.IDs, Lon: t.DestinationLon, Lat: t.DestinationLat, Places: tr.destinations},
		}, meta, r.tableOptions()...)
		return err
	}, stages)
	if err != nil {
		return err
	}
	stages["write_tail"] = tail
	r.rows = fi.Rows
	r.files = append(r.files, fi, pointsInfo)
	return nil
}

// tripRouteAnswers is the consumer of a trip routes run's blocks: each
// seed source's whole row of distances, from which the routes of the
// trips leaving by it are weighed and read (places.TripRoute.Offer), a
// trip final once every seed it leaves by is in. O(trips + path
// lengths) memory: rows are not kept.
type tripRouteAnswers struct {
	run     *tripRoutesRun
	routes  []places.TripRoute
	tracers sync.Pool // of *routes.Tracer, one per goroutine at a time
	// locks[i] guards routes[i]: its two seeds' rows may come on two
	// goroutines at once.
	locks []sync.Mutex
	// missing[i] counts trip i's Out seeds not offered yet.
	missing []atomic.Int32
	sources atomic.Int64 // answered so far
	// answerGate holds which trips are answered, for the writer waiting
	// in ready.
	*answerGate
}

// newTripRouteAnswers returns the consumer of the searches of tr over
// the network ix indexes (csr: its arcs grouped by source). The trips
// that are not searched (an end that did not snap) are answered at once.
func newTripRouteAnswers(tr *tripRoutesRun, ix *routes.Index, csr *graph.CSR) *tripRouteAnswers {
	n := len(tr.origins)
	a := &tripRouteAnswers{run: tr, routes: make([]places.TripRoute, n), locks: make([]sync.Mutex, n),
		missing: make([]atomic.Int32, n), answerGate: newAnswerGate(n)}
	for i := range a.routes {
		a.routes[i] = places.NewTripRoute()
	}
	for _, users := range tr.users {
		for _, u := range users {
			a.missing[u.trip].Add(1)
		}
	}
	var unsearched []int
	for i := range a.routes {
		if a.missing[i].Load() == 0 {
			a.routes[i].Finish(&tr.origins[i], &tr.destinations[i])
			unsearched = append(unsearched, i)
		}
	}
	a.answer(unsearched...)
	first := routes.NewTracer(ix, csr)
	a.tracers.New = func() any { return first.Fork() }
	return a
}

// Put weighs the routes of the trips leaving by the block's seed sources
// and releases it, and marks the trips whose every seed is in final.
// Safe for concurrent use. It returns the error that stopped the run, if
// any (a failed write of the routes), to end the searches. O(trips of
// the block's seeds x path lengths x in-degree).
func (a *tripRouteAnswers) Put(rows *results.Rows) error {
	defer rows.Release()
	if err := a.stoppedBy(); err != nil {
		return err
	}
	if rows.Sparse() || rows.Offsets != nil {
		return fmt.Errorf("pipeline: routes between places need whole rows of distances")
	}
	tracer := a.tracers.Get().(*routes.Tracer)
	defer a.tracers.Put(tracer)
	dist := rows.Distances()
	var done []int
	for r := range rows.Len() {
		k := rows.First + r
		source := rows.Sources[r]
		lo, hi := rows.Span(r)
		row := dist.Slice(lo, hi)
		for _, u := range a.run.users[k] {
			i := u.trip
			p, q := &a.run.origins[i], &a.run.destinations[i]
			a.locks[i].Lock()
			route := &a.routes[i]
			if route.Offer(p, q, int(u.from), row) {
				vertices, _, ok := tracer.Path(nil, source, q.In[route.To].Vertex, row)
				if !ok {
					a.locks[i].Unlock()
					return fmt.Errorf("pipeline: trip %d: no path from seed %d to seed %d at distance %d", i, source, q.In[route.To].Vertex, route.Weight)
				}
				route.Vertices = vertices
			}
			if a.missing[i].Add(-1) == 0 {
				route.Finish(p, q)
				done = append(done, int(i))
			}
			a.locks[i].Unlock()
		}
	}
	a.sources.Add(int64(rows.Len()))
	a.answer(done...)
	return nil
}

// ready waits until trip i is final. It returns the error that stopped
// the run instead, if one does first.
func (a *tripRouteAnswers) ready(i int) error { return a.wait(i) }

// Close checks that every seed source was answered.
func (a *tripRouteAnswers) Close() error {
	if n := a.sources.Load(); n != int64(len(a.run.seeds)) {
		return fmt.Errorf("pipeline: %d of the trips' %d seed sources answered", n, len(a.run.seeds))
	}
	return nil
}

// Abort ends the run: the searches failed.
func (a *tripRouteAnswers) Abort() { a.stop(errSearchesFailed) }
