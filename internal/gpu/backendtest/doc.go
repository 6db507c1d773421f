// Package backendtest opens GPU backends for the CUDA tests of package gpu
// and its algorithm packages, and holds what those tests share: a fresh
// seed, poisoning of cached pinned blocks, requests chosen by the
// registered factory, and a goroutine-leak check. Everything but this
// file builds only with the cuda tag.
package backendtest
