//go:build cuda

package device

import (
	"fmt"
	"slices"
	"time"
)

// addMinPerIteration is add_min_peak's add-mins per thread per iteration
// (PEAK_CHAINS triples of three, kernels/add_min_peak.cu).
const addMinPerIteration = 16 * 3

// AddMinCeiling measures the device's int32 add-min rate, min(a + b, c) per
// second, from a kernel that works in registers only (kernels/add_min_peak.cu):
// the ceiling for Floyd-Warshall, which does n^3 of them. It runs for about
// target per repeat after a warm-up and returns the median of repeats.
func (d *Device) AddMinCeiling(target time.Duration, repeats int) (float64, error) {
	repeats = max(repeats, 1)
	threads := int64(d.sms) * 2048
	cfg := d.Linear(threads, 256, false)
	var rates []float64
	err := d.Do(func(c *Ctx) (err error) {
		out, err := c.Alloc(threads*4, "add-min ceiling output")
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, func() error { return c.Free(&out) })
		timer, err := c.NewTimer()
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, timer.Close)
		run := func(iterations int64) (time.Duration, error) {
			if err := timer.Start(); err != nil {
				return 0, err
			}
			if err := c.kernels.AddMinPeak(cfg, out.Ptr, iterations, time.Now().UnixNano()); err != nil {
				return 0, err
			}
			if err := timer.Stop(); err != nil {
				return 0, err
			}
			return timer.Elapsed()
		}
		// Warm up (module load, clocks) and size the loop for target.
		iterations := int64(1024)
		for {
			t, err := run(iterations)
			if err != nil {
				return err
			}
			if t >= target/4 || iterations >= 1<<32 {
				iterations = float64ToIterations(float64(iterations) * float64(target) / float64(max(t, time.Microsecond)))
				break
			}
			iterations *= 4
		}
		for range repeats {
			t, err := run(iterations)
			if err != nil {
				return err
			}
			rates = append(rates, float64(threads*iterations*addMinPerIteration)/t.Seconds())
		}
		return c.Sync()
	})
	if err != nil {
		return 0, fmt.Errorf("gpu: measuring the add-min ceiling: %w", err)
	}
	slices.Sort(rates)
	return rates[len(rates)/2], nil
}

// float64ToIterations rounds an iteration count to what add_min_peak runs:
// a multiple of 4, at least 4, with the trip count within int32.
func float64ToIterations(x float64) int64 {
	return min(max(int64(x)/4*4, 4), 1<<32)
}
