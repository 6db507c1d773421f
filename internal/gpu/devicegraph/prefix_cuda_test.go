//go:build cuda

package devicegraph

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// TestInclusivePrefixSumMatchesTheHost scans random int64 arrays on the
// device, of sizes around a tile, and one of more tiles than the tile-sum
// scan takes in one pass, against a sequential sum.
func TestInclusivePrefixSumMatchesTheHost(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	for _, n := range []int64{1, 2, prefixTile - 1, prefixTile, prefixTile + 1, 3*prefixTile + 17, prefixTile*prefixTile + 5} {
		values := make([]int64, n)
		for i := range values {
			values[i] = r.Int64N(1 << 20)
		}
		got := make([]int64, n)
		err := testDevice.Do(func(c *device.Ctx) error {
			buf, err := c.Alloc(8*n, "prefix test")
			if err != nil {
				return err
			}
			defer c.Free(&buf)
			if err := c.CopyInt64ToDevice(buf, values); err != nil {
				return err
			}
			if err := inclusivePrefixSum(c, buf, n); err != nil {
				return err
			}
			return c.CopyInt64FromDevice(got, buf)
		})
		if err != nil {
			t.Fatalf("n %d: %v", n, err)
		}
		var sum int64
		for i, v := range values {
			sum += v
			if got[i] != sum {
				t.Fatalf("n %d: sum through %d is %d, want %d", n, i, got[i], sum)
			}
		}
	}
}
