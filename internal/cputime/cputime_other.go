//go:build !unix

package cputime

import "time"

// Process returns false: this system has no getrusage.
func Process() (time.Duration, bool) { return 0, false }
