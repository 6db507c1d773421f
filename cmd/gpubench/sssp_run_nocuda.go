//go:build !cuda

package main

import (
	"context"
	"io"

	"github.com/pathflow/pathflow/internal/gpu"
)

// Run returns gpu.ErrNoCUDA: timing needs a CUDA build.
func (c *ssspConfig) Run(context.Context, io.Writer) error { return gpu.ErrNoCUDA }
