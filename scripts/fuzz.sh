#!/usr/bin/env bash
# Runs every fuzz target of the file-format parsers for a bounded number of
# inputs, one after the other (Go fuzzes one target per invocation). FUZZTIME
# sets the budget per target as go test's -fuzztime takes it (default 20000x,
# a few seconds each on two cores). The default is a count, not a duration:
# with a duration Go 1.26's fuzz coordinator can report "context deadline
# exceeded" as a failure when a busy worker misses the deadline
# (go.dev/issue/75804), which no input of ours caused.
# A failing input is saved under formats/testdata/fuzz/<target>/ and makes
# the script fail, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-20000x}"
targets=$(go test -list '^Fuzz' ./formats | grep '^Fuzz')
[ -n "$targets" ] || { echo "no fuzz targets found in ./formats" >&2; exit 1; }
for target in $targets; do
  echo "== fuzz $target ($fuzztime)"
  go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" ./formats
done
