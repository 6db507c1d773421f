// Command cudalazy regenerates third_party/cu/lazy_driver.c, the lazy
// driver trampolines of pathflow's copy of gorgonia.org/cu (see package
// internal/cudalazy). It runs from `go generate ./internal/cudalazy`:
//
//	cudalazy -dir ../../third_party/cu -header /usr/include/cuda.h
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pathflow/pathflow/internal/cudalazy"
)

func main() {
	dir := flag.String("dir", "third_party/cu", "folder of the gorgonia.org/cu copy")
	header := flag.String("header", "/usr/include/cuda.h", "cuda.h to take the prototypes from (CUDA 11.8)")
	flag.Parse()
	if err := cudalazy.Generate(*dir, *header); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
