#!/usr/bin/env bash
# Submits a sharded pathflow run to Slurm: an array of N tasks, one GPU
# each, then finalize as a job that runs only if every task succeeded.
#
#   deploy/slurm/submit.sh CONFIG OUT N [compute flags...]
#
# Prints the array's job id and the finalize job's id. COMPUTE_BIN names
# the compute binary the tasks run (default: compute on PATH); it
# and OUT must be on a file system every node sees. Extra sbatch options
# (partition, account, time) go in SBATCH_* environment variables or the
# .sbatch files.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 CONFIG OUT N [compute flags...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
shards=$3
array=$(sbatch --parsable --array=0-$((shards - 1)) "$here/pathflow-shard.sbatch" "$@")
array=${array%%;*}
final=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
  "$here/pathflow-finalize.sbatch" "$@")
echo "$array ${final%%;*}"
