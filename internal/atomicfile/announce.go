package atomicfile

import (
	"io"
	"path/filepath"
	"sync"
)

// announcer receives the final path of every temporary this process
// creates, when AnnounceTo set it.
var announcer struct {
	sync.Mutex
	w io.Writer
}

// AnnounceTo makes this process write to w the final path of every
// temporary file or folder it creates from now on (not the files inside
// a temporary folder), each as an absolute path ended by a NUL byte. A
// supervising process reads them so that when this one dies without
// cleaning up (Go's "fatal error: out of memory" runs no deferred call, a
// SIGKILL runs nothing), it can call RemoveStale on each. Write errors are
// dropped: the announcement is a help to clean-up, never a reason to fail.
func AnnounceTo(w io.Writer) {
	announcer.Lock()
	announcer.w = w
	announcer.Unlock()
}

// announce writes final to the announcer, if any.
func announce(final string) {
	announcer.Lock()
	defer announcer.Unlock()
	if announcer.w == nil {
		return
	}
	if abs, err := filepath.Abs(final); err == nil {
		final = abs
	}
	_, _ = io.WriteString(announcer.w, final+"\x00")
}
