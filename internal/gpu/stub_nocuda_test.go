//go:build !cuda

package gpu

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
)

func TestWithoutCUDA(t *testing.T) {
	ok, reason := Available()
	if ok || !strings.Contains(reason, "-tags cuda") {
		t.Fatalf("Available() = %v, %q", ok, reason)
	}
	if _, err := New(); !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("New() error %v, want ErrNoCUDA", err)
	}
	var b Backend
	if _, err := b.AllPairs(context.Background(), graph.NewEdgeList(1, 0), backend.Algorithm{}, false); !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("AllPairs error %v, want ErrNoCUDA", err)
	}
}
