// Package pipeline holds pathflow's two stages and what they share: loading
// a graph from any supported input (LoadGraph), the ingest stage that turns
// an input into Arrow or Parquet tables, with a contraction hierarchy of
// road-like graphs (Ingest), and the compute stage that runs the
// configured algorithm on a backend, from that stored hierarchy where it
// applies, and writes distances and parents (Compute). The commands in cmd/ only parse configuration and call
// these.
package pipeline
