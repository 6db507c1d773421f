// Package version holds the pathflow release, which every output records
// and the commands print with -version. It imports nothing, so every
// package may use it.
package version

// Version is the pathflow release written into every output's metadata.
const Version = "0.1.0"
