package cudalazy

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// copyDir is pathflow's copy of gorgonia.org/cu.
var copyDir = filepath.Join("..", "..", "third_party", "cu")

func TestParseHeader(t *testing.T) {
	const header = `#define cuMemAlloc cuMemAlloc_v2
/** cuInit(int) in a comment is not a prototype */
CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);
__CUDA_DEPRECATED CUresult CUDAAPI cuCtxDetach(CUcontext ctx);
CUresult CUDAAPI
cuMemAlloc(CUdeviceptr *dptr,
           size_t bytesize);
CUresult CUDAAPI cuProfilerStop(void);
#if defined(__CUDA_API_VERSION_INTERNAL)
    #undef cuMemAlloc
    CUresult CUDAAPI cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize);
    CUresult CUDAAPI cuOnlyInternal(int x);
#endif
`
	protos, err := ParseHeader([]byte(header))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Prototype{
		"cuInit":             {Name: "cuInit", Params: "unsigned int Flags", Args: []string{"Flags"}},
		"cuDriverGetVersion": {Name: "cuDriverGetVersion", Params: "int *driverVersion", Args: []string{"driverVersion"}},
		"cuCtxDetach":        {Name: "cuCtxDetach", Params: "CUcontext ctx", Args: []string{"ctx"}},
		"cuMemAlloc":         {Name: "cuMemAlloc", Params: "CUdeviceptr *dptr, size_t bytesize", Args: []string{"dptr", "bytesize"}},
		"cuProfilerStop":     {Name: "cuProfilerStop", Params: "void"},
	}
	if len(protos) != len(want) {
		t.Errorf("parsed %d prototypes, want %d: %v", len(protos), len(want), protos)
	}
	for name, w := range want {
		if p := protos[name]; p.Name != w.Name || p.Params != w.Params || !slices.Equal(p.Args, w.Args) {
			t.Errorf("%s: parsed %+v, want %+v", name, p, w)
		}
	}
	src := string(Source(protos, []string{"cuMemAlloc", "cuLaunchAndSync"}))
	for _, s := range []string{
		"CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {",
		"CU_LAZY_RESOLVE(slot, cuMemAlloc, fn);",
		"return fn(dptr, bytesize);",
	} {
		if !strings.Contains(src, s) {
			t.Errorf("generated source lacks %q:\n%s", s, src)
		}
	}
	if strings.Contains(src, "cuLaunchAndSync") {
		t.Errorf("generated a trampoline for a name the header does not declare:\n%s", src)
	}
}

// TestGeneratedFileIsUpToDate fails when the copy calls a driver function
// that lazy_driver.c does not define (the build would then fail to link,
// or link libcuda again) or when the file was edited by hand.
func TestGeneratedFileIsUpToDate(t *testing.T) {
	const header = "/usr/include/cuda.h"
	if _, err := os.Stat(header); err != nil {
		t.Skipf("%s not installed (scripts/setup-cuda.sh): %v", header, err)
	}
	want, err := Expected(copyDir, header)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(copyDir, OutputFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what cudalazy generates from %s: run go generate ./internal/cudalazy", OutputFile, header)
	}
	// Every name the copy calls is either a driver function with a
	// trampoline or a helper the copy defines in its own C.
	used, err := UsedFunctions(copyDir)
	if err != nil {
		t.Fatal(err)
	}
	var ownC []byte
	for _, name := range []string{"batch.c", "lazy.c"} {
		b, err := os.ReadFile(filepath.Join(copyDir, name))
		if err != nil {
			t.Fatal(err)
		}
		ownC = append(ownC, b...)
	}
	for _, name := range used {
		trampoline := "CUresult CUDAAPI " + name + "("
		defined := regexp.MustCompile(`(?m)^CUresult\s+` + name + `\(`)
		if !strings.Contains(string(got), trampoline) && !defined.Match(ownC) {
			t.Errorf("the copy calls %s, which neither cuda.h declares nor the copy defines", name)
		}
	}
	if !strings.Contains(string(got), "CUresult CUDAAPI cuInit(") {
		t.Error("no trampoline for cuInit")
	}
}
