package compute

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/formats/pairlist"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// pairList is a pair list (compute.pairs): its rows in file order, which
// are the rows of the distances table, and the searches that answer them,
// grouped by source: sources in increasing (dense) id order, each
// source's targets in file order, a pair listed twice kept twice.
// Ordering the sources by id, rather than as the file happens to list
// them, keeps the sources a GPU launch searches together close in the
// graph wherever ids follow its geometry (grids, road networks): 1,000,000
// random pairs over 1,000 sources of a 24M-vertex grid took a 52.7 s
// kernel in file order, against 6 s by id. Each search's cells go back to
// their rows through rows (pairAnswers).
type pairList struct {
	sources []int32
	targets [][]int32 // by index in sources
	// rows[k][j] is the row of the pair sources[k] -> targets[k][j].
	rows [][]int32
	// source and target are each row's vertices (dense ids).
	source, target []int32
	// others are the file's other columns, this run's rows of them.
	others tables.OtherColumns
}

// len is the number of rows.
func (l *pairList) len() int { return len(l.source) }

// readPairList streams the pair list at path, which the setting key
// names, Parquet, Arrow IPC or CSV (told from the bytes; CSV may be
// gzipped), naming vertices as names says; its searches are made by group, once keepShard has kept a
// shard's rows. A missing or malformed file, or an id no vertex has, is an
// InputError naming the file and the row (1-based; for CSV the header is
// row 1). O(pairs) memory for the result and the file's other columns,
// one batch or chunk of text for the reading.
func readPairList(key, path string, names VertexNames) (*pairList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &stageerr.InputError{Err: input.PathError(key, path, err)}
	}
	defer f.Close()
	list := &pairList{}
	add := func(row, s, t int64) error {
		sv, err := pairVertex(names, path, row, "source", s)
		if err != nil {
			return err
		}
		tv, err := pairVertex(names, path, row, "target", t)
		if err != nil {
			return err
		}
		if len(list.source) == math.MaxInt32 {
			return fmt.Errorf("%s: more than %d pairs: split the list", path, math.MaxInt32)
		}
		list.source, list.target = append(list.source, sv), append(list.target, tv)
		return nil
	}
	list.others, err = pairlist.Scan(f, add)
	var ue *unknownPairVertex
	switch {
	case errors.As(err, &ue):
		return nil, &stageerr.InputError{Err: ue}
	case err != nil:
		return nil, &stageerr.InputError{Err: fmt.Errorf("pipeline: pair list (%s): %w", key, err)}
	case list.len() == 0:
		list.others.Release()
		return nil, &stageerr.InputError{Err: fmt.Errorf("pipeline: pair list %s (%s) holds no pair", path, key)}
	}
	return list, nil
}

// keepShard keeps shard's block of the rows (blockBounds: the shards'
// blocks, in shard order, are the file's rows in order; every row
// unsharded) and returns the paths (compute.paths) the shard writes: each
// goes to the shard whose block holds the first row from its source, so
// that the shards write it once between them. It logs which shard this is
// and where its index came from. O(pairs).
func (l *pairList) keepShard(s Shard, paths [][2]int32, log *slog.Logger) [][2]int32 {
	if !s.Sharded() {
		return paths
	}
	n := l.len()
	lo, hi := blockBounds(n, s.Index, s.Count)
	var mine [][2]int32
	for _, p := range paths {
		if first := slices.Index(l.source, p[0]); first >= lo && first < hi {
			mine = append(mine, p)
		}
	}
	log.Info("shard", "shard", fmt.Sprintf("%d/%d", s.Index, s.Count), "from", s.From,
		"pairs", fmt.Sprintf("%d of %d (rows %d..%d)", hi-lo, n, lo, hi-1))
	l.source, l.target = l.source[lo:hi], l.target[lo:hi]
	block := tables.OtherColumns{Fields: l.others.Fields, Arrays: l.others.Slice(lo, hi)}
	l.others.Release()
	l.others = block
	return mine
}

// group builds the searches: the distinct sources in increasing id
// order, each one's targets and their rows in row order. O(pairs +
// sources log sources).
func (l *pairList) group() {
	at := make(map[int32]int)
	var sources []int32
	var targets, rows [][]int32
	for i, s := range l.source {
		k, ok := at[s]
		if !ok {
			k = len(sources)
			at[s] = k
			sources, targets, rows = append(sources, s), append(targets, nil), append(rows, nil)
		}
		targets[k], rows[k] = append(targets[k], l.target[i]), append(rows[k], int32(i))
	}
	order := make([]int, len(sources))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(sources[a], sources[b]) })
	l.sources, l.targets, l.rows = make([]int32, len(order)), make([][]int32, len(order)), make([][]int32, len(order))
	for i, k := range order {
		l.sources[i], l.targets[i], l.rows[i] = sources[k], targets[k], rows[k]
	}
}

// outputFields returns the fields of the file's other columns as the
// distances table writes them (pairTable), refusing one named as a column
// the table writes itself: source and target (a second one), distance,
// and parent when withParents.
func (l *pairList) outputFields(withParents bool, metric string) ([]arrow.Field, error) {
	own := []string{tables.ColPairSource, tables.ColPairTarget, resultfiles.ColDistance}
	if metric != "" {
		own = append(own, metric)
	}
	if withParents {
		own = append(own, resultfiles.ColParent)
	}
	return l.others.OutputFields("the pair list ("+KeyPairList+")", l.len(), own...)
}

// unknownPairVertex is an id in a pair list that names no vertex.
type unknownPairVertex struct {
	file string
	row  int64
	what string // "source" or "target"
	id   int64
	why  string
}

func (e *unknownPairVertex) Error() string {
	return fmt.Sprintf("pipeline: %s: row %d: %s %d: %s", e.file, e.row, e.what, e.id, e.why)
}

// pairVertex resolves one id of a pair list as compute.ids says.
func pairVertex(names VertexNames, file string, row int64, what string, id int64) (int32, error) {
	if names.Original {
		v, ok := names.IDs.Dense(id)
		if !ok {
			return 0, &unknownPairVertex{file, row, what, id, fmt.Sprintf("no vertex has that original id (%s: %s)", KeyIDs, input.IDsOriginal)}
		}
		return v, nil
	}
	n := names.IDs.N()
	if id < 0 || id >= int64(n) {
		return 0, &unknownPairVertex{file, row, what, id, fmt.Sprintf("no vertex has that dense id (0..%d; set %s: %s to name vertices by the input's ids)", n-1, KeyIDs, input.IDsOriginal)}
	}
	return int32(id), nil
}

// withInputFilesChecksum returns cfg with the bytes of the files the
// settings only name folded into its settings checksum: the pair list
// (compute.pairs) and the places (compute.origins, compute.destinations).
// A run over other pairs or places must not pass for the same result
// (output.skip_if_unchanged, the shards of one dataset). O(file sizes).
func withInputFilesChecksum(cfg *Config) (*Config, error) {
	files := cfg.namedInputFiles()
	if len(files) == 0 {
		return cfg, nil
	}
	h := sha256.New()
	io.WriteString(h, cfg.ConfigSHA256)
	for _, f := range files {
		if err := hashFile(h, f); err != nil {
			return nil, err
		}
	}
	out := *cfg
	out.ConfigSHA256 = hex.EncodeToString(h.Sum(nil))
	return &out, nil
}

// hashFile adds the bytes of the file f names to h.
func hashFile(h io.Writer, f output.ReadPath) error {
	file, err := os.Open(f.Path)
	if err != nil {
		return &stageerr.InputError{Err: input.PathError(f.Key, f.Path, err)}
	}
	defer file.Close()
	if _, err := io.Copy(h, file); err != nil {
		return &stageerr.InputError{Err: fmt.Errorf("pipeline: %s (%s): %w", f.Path, f.Key, err)}
	}
	return nil
}
