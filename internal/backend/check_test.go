package backend

import (
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// A ragged block (a pair list grouped by source) must give each row as
// many values as its source has targets.
func TestCheckRaggedNamesTheRow(t *testing.T) {
	sources := []int32{4, 7}
	targets := [][]int32{{1, 2, 3}, {0}}
	block := &results.Rows{Sources: sources, Offsets: []int{0, 3, 4}, Dist32: make([]int32, 4)}
	req := &Request{Shape: results.Shape{Sources: sources, SourceTargets: targets}, CSR: &graph.CSR{N: 9}}
	if err := req.CheckRows(block); err != nil {
		t.Fatalf("a well-formed ragged block: %v", err)
	}
	if lo, hi := block.Span(1); lo != 3 || hi != 4 {
		t.Errorf("Span(1) = %d, %d, want 3, 4", lo, hi)
	}
	block.Offsets = []int{0, 2, 4}
	if err := req.CheckRows(block); err == nil || !strings.Contains(err.Error(), "row 0 has 2 values for 3 targets") {
		t.Errorf("err = %v, want it to name row 0", err)
	}
}

// A block whose rows have no targets has no cells, so no distance type.
func TestCheckRaggedTakesEmptyRows(t *testing.T) {
	sources := []int32{4, 7}
	req := &Request{Shape: results.Shape{Sources: sources, SourceTargets: [][]int32{{}, {}}}, CSR: &graph.CSR{N: 9}}
	block := &results.Rows{Sources: sources, Offsets: []int{0, 0, 0}}
	if err := req.CheckRows(block); err != nil {
		t.Errorf("a block of two empty rows: %v", err)
	}
	block.Dist32, block.Dist64 = []int32{}, []int64{}
	if err := req.CheckRows(block); err == nil {
		t.Error("a block with both distance types passed")
	}
}

// A request with targets takes its width from them.
func TestCheckTakesTheWidthFromTheTargets(t *testing.T) {
	block := &results.Rows{Sources: []int32{0}, Width: 2, Dist32: make([]int32, 2)}
	req := &Request{Shape: results.Shape{Sources: []int32{0}, Targets: []int32{4, 1}}, CSR: &graph.CSR{N: 5}}
	if err := req.CheckRows(block); err != nil {
		t.Fatalf("a block of the targets' width: %v", err)
	}
	req.Targets = []int32{4}
	if err := req.CheckRows(block); err == nil {
		t.Error("a block wider than the targets passed")
	}
}

// CheckRows takes the width from the request's graph, the CSR of a search
// request included.
func TestCheckTakesTheWidthFromTheRequest(t *testing.T) {
	block := &results.Rows{Sources: []int32{0}, Width: 4, Dist64: make([]int64, 4)}
	for _, c := range []struct {
		name string
		req  *Request
	}{
		{"edges", &Request{Shape: results.Shape{Sources: []int32{0}}, Edges: &graph.EdgeList{N: 5}}},
		{"csr", &Request{Shape: results.Shape{Sources: []int32{0}}, CSR: &graph.CSR{N: 5}}},
	} {
		if err := c.req.CheckRows(block); err == nil || !strings.Contains(err.Error(), "width 4 for 5") {
			t.Errorf("%s: err = %v, want a width mismatch", c.name, err)
		}
	}
	if err := (&Request{Shape: results.Shape{Sources: []int32{0}}, CSR: &graph.CSR{N: 4}}).CheckRows(block); err != nil {
		t.Errorf("a well-formed block: %v", err)
	}
}
