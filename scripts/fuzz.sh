#!/usr/bin/env bash
# Runs every fuzz target of the file-format parsers for a bounded time, one
# after the other (Go fuzzes one target per invocation). FUZZTIME sets the
# time per target (default 5s); the whole run stays under about a minute.
# A failing input is saved under formats/testdata/fuzz/<target>/ and makes
# the script fail, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-5s}"
targets=$(go test -list '^Fuzz' ./formats | grep '^Fuzz')
[ -n "$targets" ] || { echo "no fuzz targets found in ./formats" >&2; exit 1; }
for target in $targets; do
  echo "== fuzz $target ($fuzztime)"
  go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" ./formats
done
