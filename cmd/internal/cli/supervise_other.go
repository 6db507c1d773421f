//go:build !linux

package cli

import "syscall"

// canSupervise is false where a child cannot be tied to its supervisor's
// life: Main runs the command in its own process.
const canSupervise = false

func childAttr() *syscall.SysProcAttr { return nil }

func closeOnExec(int) {}
