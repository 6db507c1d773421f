package sssp

import (
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/results"
)

// planBatch fills launches with whole groups within the memory, the
// staging, the resident blocks, the requested batch and each device's
// share of a shared feed, and never plans nothing for a run that has
// sources.
func TestPlanBatchSizesLaunches(t *testing.T) {
	const gib = 1 << 30
	n := int64(24_010_000)
	group := batchGroupBytes(n)
	for _, c := range []struct {
		name                    string
		width                   int64
		total                   int
		free, staging           int64
		resident, batch         int
		devices                 int
		rows, groups, perGroups int
	}{
		{"targets, memory for two groups", 1000, 1000, 2*group + 2*64*1000*4, gib, 528, 0, 1, 64, 2, 264},
		{"few sources", 1000, 5, 64 * gib, gib, 528, 0, 1, 5, 1, 528},
		{"whole rows: the staging holds 11", n, 100, 64 * gib, gib, 528, 0, 1, 11, 1, 528},
		{"no memory for one group still plans one", 1000, 100, 1, gib, 528, 0, 1, 32, 1, 528},
		{"a requested batch", 1000, 1000, 64 * gib, gib, 528, 40, 1, 40, 2, 264},
		{"fewer resident blocks than groups", 10, 10000, 1 << 50, gib, 3, 0, 1, 96, 3, 1},
		// 10,000 x 10,000 on four devices: the staging alone would
		// cut six launches of 1,677 rows.
		{"one device: launches as the staging holds", 10000, 10000, 1 << 50, 64 << 20, 528, 0, 1, 1677, 53, 9},
		{"four devices: three launches each", 10000, 10000, 1 << 50, 64 << 20, 528, 0, 4, 864, 27, 19},
		{"four devices, few sources: one group", 10000, 40, 1 << 50, 64 << 20, 528, 0, 4, 32, 1, 528},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := planBatch(n, c.width, c.total, false, c.free, c.staging, c.resident, c.batch, c.devices)
			want := batchShape{rows: c.rows, groups: c.groups, blocksPerGroup: c.perGroups}
			if got != want {
				t.Errorf("planBatch = %+v, want %+v", got, want)
			}
		})
	}
	if got := planBatch(n, 10, 0, false, gib, gib, 10, 0, 1); got != (batchShape{}) {
		t.Errorf("no sources: %+v, want nothing", got)
	}
}

// The batched search takes requests of several sources, targets or a
// cutoff; a single whole row keeps the one-source kernel.
func TestUseBatch(t *testing.T) {
	for _, c := range []struct {
		req  backend.Request
		want bool
	}{
		{backend.Request{Shape: results.Shape{Sources: []int32{3}, MaxDistance: results.NoCutoff}}, false},
		{backend.Request{Shape: results.Shape{Sources: []int32{3, 4}, MaxDistance: results.NoCutoff}}, true},
		{backend.Request{Shape: results.Shape{Sources: []int32{3}, Targets: []int32{1}, MaxDistance: results.NoCutoff}}, true},
		{backend.Request{Shape: results.Shape{Sources: []int32{3}, MaxDistance: 0}}, true},
	} {
		if got := useBatch(&c.req); got != c.want {
			t.Errorf("useBatch(%+v) = %v, want %v", c.req, got, c.want)
		}
	}
	if batchCutoff(results.NoCutoff, 1<<30-1) != 1<<30-1 || batchCutoff(5, 1<<30-1) != 5 || batchCutoff(1<<40, 1<<30-1) != 1<<30-1 {
		t.Error("batchCutoff maps cutoffs wrong")
	}
}

func TestBatchStagingWidensForWideRows(t *testing.T) {
	o := device.StagingOptions{Blocks: 8, Bytes: 64 << 20}
	for _, c := range []struct {
		name      string
		width     int64
		o         device.StagingOptions
		wantBytes int64
		wantPool  int
	}{
		// A group of 32 rows of 1000 values fits the default block.
		{"narrow", 1000, o, 64 << 20, 8},
		// 32 rows of 1M values (128 MiB) need a wider block, so fewer.
		{"wide", 1 << 20, o, 128 << 20, batchWidePool},
		// 32 rows of 24M values would take 3 GiB: capped.
		{"capped", 24 << 20, o, batchMaxStagingBytes, batchWidePool},
		// WithStaging's sizes are kept.
		{"fixed", 1 << 20, device.StagingOptions{Blocks: 8, Bytes: 64 << 20, Fixed: true}, 64 << 20, 8},
	} {
		bytes, pool := batchStaging(c.width, c.o)
		if bytes != c.wantBytes || pool != c.wantPool {
			t.Errorf("%s: %d bytes in %d blocks, want %d in %d", c.name, bytes, pool, c.wantBytes, c.wantPool)
		}
	}
}
