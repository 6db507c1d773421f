// Package ingest is the ingest stage (Run): it loads a graph through
// package input and commits, through package output, its edges and
// vertices tables, the reload file compute maps and, for a road-like
// graph, a contraction hierarchy; or converts it to a binary or DIMACS
// file. It owns its Config and keys (Keys, ConfigFrom).
package ingest
