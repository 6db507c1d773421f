package shortest

import "context"

// RowSearch computes one row: the distances (and parents, unless parent is
// nil) from source into dist and parent, which hold paths.Unreachable and
// paths.NoParent everywhere when it is called. Each worker has its own,
// with its own scratch space, reused from row to row.
type RowSearch func(ctx context.Context, source int32, dist []int64, parent []int32) error
