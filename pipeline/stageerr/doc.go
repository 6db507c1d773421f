// Package stageerr holds the kinds of errors the pipeline's stages return
// (a bad input, a computation that cannot answer, an output that cannot be
// written, ...). The stages wrap their failures in these types; the
// commands map each kind to an exit code (KindOf), so the stages never
// know the codes and the commands never look inside the stages.
package stageerr
