// Package backend defines the interface every compute backend implements (the
// CPU reference in internal/cpu, the CUDA backend in internal/gpu) and picks
// one for a run: "cpu", "gpu" or "auto".
package backend
