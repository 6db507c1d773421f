module github.com/pathflow/pathflow/scripts/compare/lddl

go 1.26

require github.com/LdDl/ch v1.10.0

require github.com/pkg/errors v0.9.1 // indirect
