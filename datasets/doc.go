// Package datasets knows the public graphs pathflow works with: a manifest of
// their download locations and sizes, a local cache, and the mirror folder
// (PATHFLOW_DATASETS) that replaces the network in tests and offline runs.
package datasets
