package compute

// The pipeline imports no backend: the commands link them in. Its tests
// run on the CPU backend, which registers itself when linked.
import _ "github.com/pathflow/pathflow/internal/cpu"
