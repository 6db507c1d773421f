package devicegraph

// prefixThreads and prefixItems are PF_THREADS and PF_ITEMS of
// kernels/prefix_common.cuh (inclusivePrefixSum's launches, cuda builds):
// a tile of the prefix sum is their product.
const (
	prefixThreads = 256
	prefixItems   = 16
)
