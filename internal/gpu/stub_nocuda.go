//go:build !cuda

package gpu

// Builds without the cuda tag compile the host-side planning (choose.go,
// plan.go, sssp_plan.go, staging.go, sssp_host.go) and the error values,
// and register no backend: backend.Lookup("gpu") finds nothing, and the
// GPU tools report ErrNoCUDA.
