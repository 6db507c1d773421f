// Package generate builds synthetic test and benchmark graphs: Erdős–Rényi
// G(n, p) digraphs, connected random graphs of fixed out-degree (the classic
// GPU shortest-path benchmark), road-like square grids and synthetic road
// networks with a speed hierarchy (Road).
//
// Every generator is deterministic for a seed: the same arguments give the
// same arcs in the same order on any machine and for any GOMAXPROCS, because
// each independent piece of work draws from its own PCG stream derived from
// the seed. Weights are drawn uniformly from [lo, hi], except in Road, where
// they are travel times.
package generate
