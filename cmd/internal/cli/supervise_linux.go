package cli

import "syscall"

// canSupervise: the child gets SIGKILL when the supervisor dies, so no
// run outlives its supervisor.
const canSupervise = true

func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// closeOnExec keeps an inherited file from leaking into any program the
// command starts.
func closeOnExec(fd int) { syscall.CloseOnExec(fd) }
