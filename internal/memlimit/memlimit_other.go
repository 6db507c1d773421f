//go:build !linux

package memlimit

import "io/fs"

// hostFS is unused outside Linux.
func hostFS() fs.FS { return nil }

// limits knows no bound outside Linux.
func limits(fs.FS) []Limit { return nil }

func oomKills(fs.FS) (int64, bool) { return 0, false }
