package results

// NoCutoff is the MaxDistance of a result (and of the request behind it)
// without a distance cutoff: every cell is kept, unreachable ones as null.
const NoCutoff int64 = -1
