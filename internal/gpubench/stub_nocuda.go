//go:build !cuda

package gpubench

import (
	"context"
	"io"

	"github.com/pathflow/pathflow/internal/gpu"
)

// Run returns gpu.ErrNoCUDA: timing needs a CUDA build.
func (c *FWConfig) Run(context.Context, io.Writer, GraphFiles) error { return gpu.ErrNoCUDA }

// Run returns gpu.ErrNoCUDA: timing needs a CUDA build.
func (c *CeilingConfig) Run(context.Context, io.Writer, GraphFiles) error { return gpu.ErrNoCUDA }

// Run returns gpu.ErrNoCUDA: timing needs a CUDA build.
func (c *SSSPConfig) Run(context.Context, io.Writer, GraphFiles) error { return gpu.ErrNoCUDA }
