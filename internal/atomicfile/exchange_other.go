//go:build !linux

package atomicfile

// exchange has no single-step form outside Linux: replaceDir falls back to
// moving the old directory aside, then renaming the new one in.
func exchange(a, b string) error { return errNoExchange }
