// Command gpubench times pathflow's GPU kernels (see package
// internal/gpubench):
//
//	gpubench fw --n=16384 --p=0.001 --variants=fast,blocked --parents=both
//	gpubench fw --graph=p2p-Gnutella04.txt --parents=with
//	gpubench ceiling
//	gpubench sssp --graph=grid --side=512 --sources=corner,center --multi=1024
//
// It needs a CUDA build: go build -tags cuda ./cmd/gpubench. Built without
// the tag, every subcommand reports that.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/pathflow/pathflow/datasets/benchgraphs"
	// The CPU backend registers itself: the sssp subcommand times it for
	// comparison through the backend registry.
	_ "github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/gpubench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	files := gpubench.GraphFiles{
		ReadSNAP:    benchgraphs.ReadSNAP,
		SNAPWeights: benchgraphs.SNAPWeights,
		ReadDIMACS:  benchgraphs.ReadDIMACS,
	}
	code := gpubench.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, files)
	stop()
	os.Exit(code)
}
