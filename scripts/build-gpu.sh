#!/usr/bin/env bash
# Builds everything a GPU machine needs into .gpu/ (git-ignored), for a run
# on a machine with an NVIDIA driver but no Go:
#   .gpu/gpu.test.gz        internal/gpu tests (-tags cuda); device.test.gz,
#                           devicegraph.test.gz, allpairs.test.gz and
#                           sssp.test.gz the same for internal/gpu/device,
#                           devicegraph, allpairs and sssp
#   .gpu/gpubench.gz        the benchmark command (-tags cuda)
#   .gpu/compute.test.gz    pipeline/compute tests and BenchmarkComputeRun (-tags cuda)
#   .gpu/compute.gz         the compute command (-tags cuda), for end-to-end runs
#   .gpu/ptx/               the kernels' PTX, for SASS checks with ptxas there
#   .gpu/datasets/          rome99 and p2p-Gnutella04, 25 and 30 from the dataset mirror
#   .gpu/run.sh             unpacks, checks the SASS, runs tests and benchmarks
# Binaries are stripped and gzipped to keep the carried folder small.
#
#   scripts/build-gpu.sh            # then run .gpu/run.sh on the GPU machine
#   OUT=/tmp/out .gpu/run.sh [quick|final|tests|bandwidth|e2e]
#
# Needs the CUDA 11.8 headers (scripts/setup-cuda.sh); the binaries link no
# CUDA library and load the driver on the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.gpu
mirror=${PATHFLOW_DATASETS:-../shared/datasets}
rm -rf "$out"
mkdir -p "$out/datasets" "$out/ptx"

flags=(-tags cuda -trimpath -ldflags=-s\ -w)
# One test binary per GPU package, named after its folder.
gpu_packages=(gpu gpu/device gpu/devicegraph gpu/allpairs gpu/sssp)
for pkg in "${gpu_packages[@]}"; do
  go test -c "${flags[@]}" -o "$out/${pkg##*/}.test" "./internal/$pkg"
done
# The pipeline's GPU tests (whole compute stages on the GPU against the
# CPU) and its in-process benchmark (BenchmarkComputeRun): one binary per
# pipeline package with cuda tests, named after its folder.
pipeline_packages=(compute)
for pkg in "${pipeline_packages[@]}"; do
  go test -c "${flags[@]}" -o "$out/${pkg##*/}.test" "./pipeline/$pkg"
done
# The compute command's own GPU tests (the backend auto picks, the driver
# loaded on first use) and the lazy driver loader's.
go test -c "${flags[@]}" -o "$out/computecmd.test" ./cmd/compute
go test -c "${flags[@]}" -o "$out/cudalazy.test" ./internal/cudalazy
go build "${flags[@]}" -o "$out/gpubench" ./cmd/gpubench
gzip -9 "$out"/*.test "$out/gpubench"
# The compute command links the whole pipeline; without it the GPU tests
# and benchmarks still run, and e2e says it is missing.
if go build "${flags[@]}" -o "$out/compute" ./cmd/compute; then
  gzip -9 "$out/compute"
else
  echo "build-gpu: ./cmd/compute does not build; .gpu/run.sh e2e will skip its runs" >&2
  rm -f "$out/compute"
fi
cp kernels/*.ptx "$out/ptx/"

for name in rome99.gr p2p-Gnutella04.txt p2p-Gnutella25.txt p2p-Gnutella30.txt p2p-Gnutella31.txt; do
  if [ -f "$mirror/$name" ]; then
    cp "$mirror/$name" "$out/datasets/"
  else
    echo "build-gpu: $mirror/$name not found; its tests and benchmarks will skip" >&2
  fi
done

cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: SASS check, tests,
# benchmarks. Logs go to $OUT (default .gpu/out). "quick" skips the
# large benchmarks, "final" runs only the headline ones, "tests" runs every
# GPU test and no benchmark, "bandwidth" the tests of the streaming path
# and the device-to-host rate of Floyd-Warshall rows (Gnutella30 when
# present), "e2e" every GPU test and the compute command end to end (stage
# timings from its manifests).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here/out}
mode=${1:-}
mkdir -p "$OUT"
for f in "$here"/*.gz; do gunzip -kf "$f"; done
chmod +x "$here"/*.test "$here/gpubench"
[ -f "$here/compute" ] && chmod +x "$here/compute"
export PATHFLOW_DATASETS=$here/datasets

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm --format=csv
  command -v ptxas && ptxas --version | tail -1
} 2>&1 | tee "$OUT/device.txt"

# The fused add-min: ptxas for sm_90 should turn min(a + b, c) into VIADDMNMX.
{
  for k in floyd_warshall_fast_rest floyd_warshall_fast_rest_packed floyd_warshall_fast_ahead floyd_warshall_fast_rest_parents add_min_peak floyd_warshall_blocked_rest; do
    ptxas -arch=sm_90 -v "$here/ptx/$k.ptx" -o "/tmp/$k.cubin" 2>&1 | grep -E "registers|spill"
    echo "$k: $(cuobjdump -sass "/tmp/$k.cubin" | grep -c VIADDMNMX) VIADDMNMX, $(cuobjdump -sass "/tmp/$k.cubin" | grep -cE 'LDS.128') LDS.128, $(cuobjdump -sass "/tmp/$k.cubin" | grep -cE 'LDL|STL') local"
  done
  cuobjdump -sass /tmp/floyd_warshall_fast_rest.cubin | grep -E "VIADDMNMX|LDS" | head -40
} > "$OUT/sass.txt" 2>&1
grep -E ": [0-9]+ VIADDMNMX" "$OUT/sass.txt"

# The floyd-warshall, streaming and device tests (GPU_TESTS overrides the
# selection).
tests=${GPU_TESTS:-'^Test(Device|EveryKernel|KernelOutside|AllocBeyond|Copies|DoFrom|ClosedDevice|AddMinCeiling|AllPairs|RunAllPairs|Stream|Pinned|Registered|SSSPRun|SSSPStops|Plan|Choose|FormatBytes)'}
case "$mode" in
  e2e|tests) tests=${GPU_TESTS:-.} ;;
  bandwidth) tests=${GPU_TESTS:-'^Test(Pinned|Stream|RunAllPairs|AllPairsStreamsRequestedRows|SSSPRun|SSSPStops|Registered)'} ;;
esac
# Each package's tests from its folder, as go test runs them (some tests
# read the kernel sources).
status=0
: > "$OUT/test.log"
for pkg in gpu gpu/device gpu/devicegraph gpu/allpairs gpu/sssp; do
  (cd "$here/../internal/$pkg" && "$here/${pkg##*/}.test" -test.v -test.count=1 -test.timeout=9m -test.run "$tests") >> "$OUT/test.log" 2>&1 || status=$?
done
echo "tests: exit $status ($(grep -c '^--- PASS' "$OUT/test.log") passed, $(grep -c '^--- FAIL' "$OUT/test.log") failed)"
grep -E "^(--- FAIL|FAIL|panic)|_test.go" "$OUT/test.log" | head -30
if [ "$mode" = tests ]; then
  # Whole compute stages on the GPU against the CPU, from the package
  # folder as go test runs them.
  (cd "$here/../pipeline/compute" && "$here/compute.test" -test.v -test.count=1 -test.timeout=8m -test.run 'GPU') > "$OUT/pipeline.log" 2>&1
  echo "pipeline tests: exit $? ($(grep -c -- '--- PASS' "$OUT/pipeline.log") passed, $(grep -c -- '--- FAIL' "$OUT/pipeline.log") failed)"
  grep -E -- "--- FAIL|^panic" "$OUT/pipeline.log" | head -20
  for t in cmd/compute:computecmd internal/cudalazy:cudalazy; do
    (cd "$here/../${t%%:*}" && "$here/${t##*:}.test" -test.v -test.count=1 -test.timeout=8m) > "$OUT/${t##*:}.log" 2>&1
    echo "${t%%:*} tests: exit $? ($(grep -c -- '--- PASS' "$OUT/${t##*:}.log") passed, $(grep -c -- '--- FAIL' "$OUT/${t##*:}.log") failed)"
    grep -E -- "--- FAIL|^panic" "$OUT/${t##*:}.log" | head -10
  done
  exit 0
fi

bench() { echo "## gpubench $*"; "$here/gpubench" "$@"; echo; }
# compute NAME ARGS...: one end-to-end run of the compute command; prints
# the manifest's stage timings.
compute() {
  local name=$1; shift
  if [ ! -x "$here/compute" ]; then echo "## compute $name: skipped (no compute binary)"; return; fi
  echo "## compute $name: $*"
  /usr/bin/time -f "wall %e s, max RSS %M KB" "$here/compute" -out "$OUT/e2e-$name" -quiet "$@"
  echo "exit $?"
  grep -A8 '"stages_seconds"' "$OUT/e2e-$name/manifest.json" | tr -d '\n ' ; echo
  grep -E '"(backend|device|algorithm|variant)"' "$OUT/e2e-$name/manifest.json" | tr -d '\n'; echo
  du -sh "$OUT/e2e-$name"
  rm -rf "$OUT/e2e-$name"
}
if [ "$mode" = e2e ]; then
  {
    d=$PATHFLOW_DATASETS
    compute rome99-gpu -input "$d/rome99.gr" -backend gpu -sources 0-99 -paths 0-3352 -summary
    compute rome99-cpu -input "$d/rome99.gr" -backend cpu -sources 0-99 -paths 0-3352 -summary
    compute grid512-1024 -generate grid:side=512,lo=1,hi=1000,seed=1 -backend gpu -sources 0-1023 -parents=false
    compute grid4900 -generate grid:side=4900,lo=1,hi=1000,seed=1 -backend gpu -sources 0
    compute gnutella30-apsp -input "$d/p2p-Gnutella30.txt" -weights hash -backend gpu -algorithm floyd-warshall -sources all -output-format parquet
    bench sssp --graph=grid --side=512 --sources=corner,center --repeats=7
    bench sssp --graph=grid --side=512 --sources= --multi=1024 --repeats=4
    bench sssp --graph=grid --side=4900 --sources=corner,center --repeats=3
  } 2>&1 | tee "$OUT/e2e.log"
  exit 0
fi
# bandwidth: rows streamed to a sink that releases at once, by the wall
# clock (D2H GB/s) and by the copy stream's events (copy GB/s), next to the
# kernel time; compare with the page-locked device-to-host ceiling.
if [ "$mode" = bandwidth ]; then
  {
    bench fw --n=16384 --p=0.001 --seed=20261121 --variants=fast --parents=both --validate=none --ceiling=false --repeats=3
    g=$PATHFLOW_DATASETS/p2p-Gnutella30.txt
    [ -f "$g" ] && bench fw --graph="$g" --variants=fast --parents=both --validate=none --ceiling=false --warmup=1 --repeats=2
    [ -f "$g" ] && bench fw --graph="$g" --variants=fast --parents=none --validate=none --ceiling=false --warmup=1 --repeats=2 --staging-mib=256
  } 2>&1 | tee "$OUT/bandwidth.log" | grep -E "^(##|device|staging|variant|[a-z]+(/[a-z0-9]+)? (dist|parents))|rror"
  exit 0
fi
{
  bench ceiling
  if [ "$mode" = final ]; then
    bench fw --n=16384 --p=0.001 --seed=20261121 --variants=fast --parents=both --repeats=5
    for g in p2p-Gnutella04 p2p-Gnutella25; do
      [ -f "$PATHFLOW_DATASETS/$g.txt" ] && bench fw --graph="$PATHFLOW_DATASETS/$g.txt" --variants=fast --parents=with --validate=none --ceiling=false --repeats=3
    done
  elif [ "$mode" != quick ]; then
    er="--n=16384 --p=0.001 --seed=20261121"
    bench fw $er --variants=fast --parents=both --repeats=5
    bench fw $er --variants=fast --parents=none --lookahead=false --validate=none --ceiling=false --repeats=3
    bench fw $er --variants=fast --parents=with --strategy=track --validate=none --ceiling=false --repeats=2
    bench fw --n=16384 --p=0.05 --seed=7 --variants=fast --parents=with --validate=none --ceiling=false --repeats=3 --check-rows=4
    for g in p2p-Gnutella04 p2p-Gnutella25; do
      [ -f "$PATHFLOW_DATASETS/$g.txt" ] && bench fw --graph="$PATHFLOW_DATASETS/$g.txt" --variants=fast,blocked --parents=with --validate=none --ceiling=false --repeats=3
    done
    [ -f "$PATHFLOW_DATASETS/p2p-Gnutella30.txt" ] && bench fw --graph="$PATHFLOW_DATASETS/p2p-Gnutella30.txt" --variants=fast --parents=both --validate=none --ceiling=false --repeats=2
  fi
} 2>&1 | tee "$OUT/bench.log" | grep -E "^(##|device|add-min|reference|[a-z]+(/[a-z0-9]+)? (dist|parents))|rror"
RUN
chmod +x "$out/run.sh"
du -sh "$out"
