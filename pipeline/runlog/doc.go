// Package runlog is how a stage reports while it runs: the logging keys
// every command reads (Settings) and the progress lines of long stages
// (Progress), drawn as a bar on a terminal and logged at intervals
// otherwise. The commands build the logger itself from the Settings.
package runlog
