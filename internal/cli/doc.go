// Package cli is what pathflow's commands share around a stage: loading the
// configuration, the logger, SIGINT/SIGTERM handling that removes
// temporaries, and the mapping from errors to documented exit codes.
package cli
