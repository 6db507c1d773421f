// Package cli holds pathflow's commands (Compute, Ingest) and what they
// share around a stage: loading the configuration, the logger,
// SIGINT/SIGTERM handling that removes temporaries, printing the output
// folder, and the mapping from errors to documented exit codes.
package cli
