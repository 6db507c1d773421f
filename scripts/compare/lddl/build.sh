#!/bin/sh
# Builds lddl_table against a local copy of github.com/LdDl/ch (not part of
# this repository). The harness module is copied to a temporary directory
# and pointed at the copy, and at this repository for the shared
# scripts/compare/harness package, with replace directives; LdDl/ch's own
# dependencies (github.com/pkg/errors) come from the Go module proxy,
# checked against go.sum.
#
#   scripts/compare/lddl/build.sh /path/to/LdDl/ch [output binary]
set -eu
src=$(cd "${1:?usage: build.sh LDDL_CH_DIR [OUTPUT]}" && pwd)
out=${2:-$src/lddl_table}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/main.go" "$here/go.mod" "$here/go.sum" "$tmp/"
cd "$tmp"
go mod edit -replace "github.com/LdDl/ch=$src" -replace "github.com/pathflow/pathflow=$root"
go build -o "$out" .
echo "built $out"
