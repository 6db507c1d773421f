package atomicfile_test

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/pathflow/pathflow/internal/atomicfile"
)

// A command removes its unfinished outputs when interrupted.
func Example_signals() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		if _, ok := <-sigs; ok {
			atomicfile.AbortAll()
			os.Exit(130)
		}
	}()

	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	f, err := atomicfile.Create(filepath.Join(dir, "report.txt"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Abort() // no-op once committed
	fmt.Fprintln(f, "all done")
	if err := f.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.txt"))
	fmt.Print(string(b))
	// Output: all done
}
