module github.com/datadog/czlib

go 1.26

require github.com/klauspost/compress v1.19.2
