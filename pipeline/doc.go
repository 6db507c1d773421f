// Package pipeline holds pathflow's two stages and what they share: loading
// a graph from any supported input (LoadGraph), the ingest stage that turns
// an input into Arrow or Parquet tables (Ingest), and the compute stage that
// runs the configured algorithm on a backend and writes distances and
// parents (Compute). The commands in cmd/ only parse configuration and call
// these.
package pipeline
