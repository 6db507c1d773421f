package gpubench

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/sssp"
)

func TestSSSPFlagsParse(t *testing.T) {
	cfg, err := Parse(Commands["sssp"], "sssp", []string{
		"--graph=degree", "--n=5000", "--variants=near-far,bf-flags", "--sources=corner,17,random",
		"--delta-factor=4,16", "--blocks=0,64", "--local-rounds=-1,8", "--batch=32", "--multi=100", "--parents",
		"--block-size=128,256",
	})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.(*SSSPConfig)
	if c.Graph != "degree" || c.N != 5000 || c.Multi != 100 || !c.Parents ||
		!slices.Equal(c.Variants, []string{sssp.VariantNearFar, sssp.VariantBFFlags}) ||
		!slices.Equal(c.Sources, []string{"corner", "17", "random"}) ||
		!slices.Equal(c.DeltaFactors, []float64{4, 16}) || !slices.Equal(c.Blocks, []int{0, 64}) ||
		!slices.Equal(c.LocalRounds, []int{-1, 8}) || !slices.Equal(c.Batches, []int{32}) ||
		!slices.Equal(c.BlockSizes, []int{128, 256}) {
		t.Fatalf("parsed %+v", c)
	}
	if got := len(c.options(sssp.VariantNearFar)); got != 16 {
		t.Errorf("%d near-far combinations, want 2 block sizes x 2 factors x 2 block counts x 2 round counts", got)
	}
	if got := len(c.options(sssp.VariantBFFlags)); got != 2 {
		t.Errorf("%d bf-flags combinations, want one per block size", got)
	}
}

func TestSSSPFlagsRejectNonsense(t *testing.T) {
	for _, args := range [][]string{
		{"--variants=fastest"},
		{"--sources=north"},
		{"--local-rounds=-2"},
		{"--blocks=-1"},
		{"--graph=grid", "--side=0"},
		{"--lo=5", "--hi=1"},
		{"--repeats=0"},
	} {
		if _, err := Parse(Commands["sssp"], "sssp", args); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestSingleDashLongFlags(t *testing.T) {
	cfg, err := Parse(Commands["sssp"], "sssp", []string{"-graph=grid", "-side", "64", "-parents", "-repeats=3", "-local-rounds", "-1"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.(*SSSPConfig); c.Graph != "grid" || c.Side != 64 || !c.Parents || c.Repeats != 3 || !slices.Equal(c.LocalRounds, []int{-1}) {
		t.Fatalf("parsed %+v", c)
	}
	if _, err := Parse(Commands["sssp"], "sssp", []string{"-graph=grid", "--", "-side"}); err == nil {
		t.Fatal("an argument after -- accepted")
	}
}
