// Package parallel holds the small helpers that spread CPU work over
// goroutines in a way that leaves the result independent of how many
// there are: a round-robin loop, and the places of a stable parallel
// scatter (the middle step of a parallel counting sort); and the one rule
// for how many goroutines a requested worker count means (Workers).
package parallel
