module github.com/pathflow/pathflow/scripts/compare/lddl

go 1.26.8

require (
	github.com/LdDl/ch v1.10.0
	github.com/pathflow/pathflow v0.0.0-00010101000000-000000000000
)

require github.com/pkg/errors v0.9.1 // indirect

// The harness package shared with scripts/compare/pathflow_table.go comes
// from this repository.
replace github.com/pathflow/pathflow => ../../..
