//go:build ignore

// Command export_dimacs writes a road:side=...,seed=...[,local=...] graph of
// internal/generate as DIMACS shortest-path files, so that other contraction
// hierarchy implementations (scripts/compare/routingkit, scripts/compare/lddl)
// can read the very graph pathflow builds on:
//
//	go run scripts/compare/export_dimacs.go -side 1024 -seed 1 -out /tmp/cmp/road1024
//	go run scripts/compare/export_dimacs.go -side 1024 -local 0.8 -out /tmp/cmp/dense1024
//
// writes /tmp/cmp/road1024.gr ("p sp n m", then "a u v w" per arc, vertex
// ids 1-based, arcs in the generator's order) and /tmp/cmp/road1024.co
// ("p aux sp co n", then "v id x y", coordinates in metres).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/generate"
)

func main() {
	side := flag.Int("side", 1024, "grid side (side^2 vertices)")
	seed := flag.Uint64("seed", 1, "generator seed")
	local := flag.Float64("local", generate.RoadExtraLocal, "share of the local streets kept beyond a spanning tree (road:local=)")
	out := flag.String("out", "", "output path without extension (.gr and .co are added)")
	flag.Parse()
	if *out == "" {
		log.Fatal("export_dimacs: -out is required")
	}
	spec := generate.RoadSpec{Side: int32(*side), Seed: *seed, Local: *local}
	e, vs, err := generate.RoadOf(spec)
	if err != nil {
		log.Fatal(err)
	}
	write(*out+".gr", func(w *bufio.Writer) {
		if err := formats.WriteDIMACS(w, e); err != nil {
			log.Fatal(err)
		}
	})
	write(*out+".co", func(w *bufio.Writer) {
		fmt.Fprintf(w, "c pathflow %s coordinates in metres\n", spec)
		fmt.Fprintf(w, "p aux sp co %d\n", e.N)
		for v := range e.N {
			fmt.Fprintf(w, "v %d %d %d\n", v+1, vs.X[v], vs.Y[v])
		}
	})
	fmt.Printf("%s: %d vertices, %d arcs -> %s.gr, %s.co\n", spec, e.N, e.M(), *out, *out)
}

// write creates path and fills it through body.
func write(path string, body func(w *bufio.Writer)) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	body(w)
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
