// Command kernelgen regenerates the PTX and Go launch wrappers of pathflow's
// CUDA kernels (see package internal/kernelgen). It runs from
// `go generate ./kernels`:
//
//	kernelgen [-dir .] [-nvcc nvcc] [-force]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pathflow/pathflow/internal/kernelgen"
)

func main() {
	opt := kernelgen.Options{Log: func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }}
	flag.StringVar(&opt.Dir, "dir", ".", "kernels folder")
	flag.StringVar(&opt.NVCC, "nvcc", "nvcc", "nvcc command")
	flag.BoolVar(&opt.Force, "force", false, "recompile every kernel even when its recorded source hash matches")
	flag.Parse()
	if err := kernelgen.Generate(opt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
