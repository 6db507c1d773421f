package atomicfile

import "errors"

// errNoExchange says that the system or the file system cannot swap two
// directories in one step; replaceDir then uses two renames, between which
// the final name is briefly missing.
var errNoExchange = errors.New("atomicfile: no atomic exchange here")

// exchangeDirs is exchange, a variable so that tests can take the
// two-rename fallback on a system that has the exchange.
var exchangeDirs = exchange
