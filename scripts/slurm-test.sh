#!/usr/bin/env bash
# Sharded runs on a real Slurm: starts a one-node cluster on this machine
# (munged, slurmctld, slurmd as root, state under a temporary folder),
# submits deploy/slurm/submit.sh's array of 4 shards, kills one task's
# compute mid-write (kill -9, as a lost node would), resubmits that index,
# finalizes,
# and checks with DuckDB that the dataset equals a one-shot run of the same
# config row for row: 256 sources on a 512 x 512 grid, and all pairs of
# rome99 (from $PATHFLOW_DATASETS, default ../shared/datasets).
#
#   scripts/slurm-test.sh        (as root; installs slurm-wlm and munge from Debian if missing)
#
# Needs node and `npm ci --prefix scripts/duckdb`. Every daemon is stopped
# by pid on exit, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export PATH="$PATH:/usr/local/go/bin:/usr/sbin"
datasets=${PATHFLOW_DATASETS:-$repo/../shared/datasets}

step() { printf '\n== slurm-test: %s\n' "$*"; }
fail() { echo "slurm-test: FAIL: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  step "installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/pathflow-slurm.XXXXXX)
pids=()
stop() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ $rc -ne 0 ]; then
    for log in "$work"/log/*.log; do echo "--- $log"; tail -20 "$log"; done
  fi
  rm -rf "$work"
  exit $rc
}
trap stop EXIT

step "one-node cluster in $work"
mkdir -p "$work"/{munge,state,spool,log,out,jobs}
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
# --force: munged declines to run as root otherwise.
munged --foreground --force --key-file="$work/munge/munge.key" \
  --socket="$work/munge/munge.socket" --pid-file="$work/munge/munged.pid" \
  --seed-file="$work/munge/seed" --log-file="$work/log/munged.log" &
pids+=($!)

host=$(hostname -s)
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=pathflow-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=600
KillWait=5
GresTypes=gpu
NodeName=$host CPUs=2 Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Two stand-in "GPUs" (character devices like /dev/null): the deploy
# scripts' --gres=gpu:1 is scheduled as on a GPU node, and the tasks
# compute on the CPU.
mknod "$work/gpu0" c 1 3
mknod "$work/gpu1" c 1 3
echo "Name=gpu File=$work/gpu[0-1]" >"$work/gres.conf"
for i in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" &
pids+=($!)
for i in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  [ "$i" = 100 ] && fail "the node did not come up: $(sinfo 2>&1)"
  sleep 0.3
done
sinfo

step "compute built once"
go build -o "$work/compute" ./cmd/compute
export COMPUTE_BIN=$work/compute

# job_state JOB: the state scontrol reports for a job or array task.
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
# wait_gone JOBID: waits until no task of the job is pending or running.
wait_gone() {
  for i in $(seq 1200); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  fail "job $1 still queued after 10 minutes"
}

# duckdb_equal ONE_SHOT DATASET COLUMNS: the dataset's distances, read with
# hive partitioning, equal the one-shot run's row for row (as multisets,
# both ways) and have the same count.
duckdb_equal() {
  local one="read_parquet('$1/distances/*.parquet')"
  local ds="read_parquet('$2/distances/*/*.parquet', hive_partitioning = true)"
  local got
  got=$(node scripts/duckdb/query.mjs \
    "SELECT (SELECT count(*) FROM (SELECT $3 FROM $ds EXCEPT ALL SELECT $3 FROM $one)) AS only_dataset,
            (SELECT count(*) FROM (SELECT $3 FROM $one EXCEPT ALL SELECT $3 FROM $ds)) AS only_one_shot,
            (SELECT count(*) FROM $ds) AS rows_dataset,
            (SELECT count(*) FROM $one) AS rows_one_shot,
            (SELECT count(DISTINCT shard) FROM $ds) AS shards")
  echo "DuckDB: $got"
  echo "$got" | grep -q '"rows":\[\[0,0,\([0-9]*\),\1,4\]\]' || fail "the dataset in $2 differs from the one-shot run in $1"
}

# sharded_run NAME CONFIG: the Slurm flow for one config, checked against
# a one-shot run.
sharded_run() {
  local name=$1 config=$2 out=$work/out/$1
  step "$name: one-shot reference"
  "$COMPUTE_BIN" -config="$config" -out "$work/out/$name-one" -quiet

  step "$name: array of 4 shards, then finalize after them"
  local ids array final
  ids=$(cd "$work/jobs" && "$repo/deploy/slurm/submit.sh" "$config" "$out" 4 -quiet)
  read -r array final <<<"$ids"
  echo "array job $array, finalize job $final"

  step "$name: SIGKILL task 2 mid-write"
  for i in $(seq 1200); do
    compgen -G "$out/.shard=0002.tmp-*/distances/*.partial" >/dev/null && break
    sleep 0.05
  done
  [ "$(job_state "${array}_2")" = RUNNING ] || fail "task 2 is not writing (state $(job_state "${array}_2"))"
  # The temporary's name carries its writer's pid. (scancel, even with
  # --signal=KILL, lets compute see SIGTERM and clean up; a lost node
  # does not.) A lost node takes the supervising compute process with it:
  # it goes first, and the writer, its child, dies of the parent-death
  # signal, so nothing is left to remove the temporary.
  local pid ppid
  pid=$(compgen -G "$out/.shard=0002.tmp-*" | head -1 | sed 's/.*\.shard=0002\.tmp-\([0-9]*\)-.*/\1/')
  ppid=$(ps -o ppid= -p "$pid" | tr -d ' ')
  if [ "$(ps -o comm= -p "$ppid")" = "$(ps -o comm= -p "$pid")" ]; then
    kill -KILL "$ppid" "$pid"
  else
    kill -KILL "$pid"
  fi
  wait_gone "$array"
  for i in 0 1 3; do [ -f "$out/_shards/shard=000$i/_SUCCESS" ] || fail "shard $i did not complete"; done
  [ ! -e "$out/_shards/shard=0002/_SUCCESS" ] || fail "task 2 finished before it was killed: make the run longer"
  ls -a "$out" | grep -q '^\.shard=0002\.tmp-' || fail "the killed task left no temporary (it should have been mid-write)"
  if find "$out" -path '*/.shard=0002.tmp-*' -name '*.parquet' | grep -q .; then
    fail "the killed task's temporary holds files with the final .parquet extension"
  fi
  wait_gone "$final"
  [ ! -e "$out/_SUCCESS" ] || fail "finalize ran although a task failed"

  step "$name: resubmit index 2, finalize again"
  local redo
  redo=$(cd "$work/jobs" && sbatch --parsable --array=2 "$repo/deploy/slurm/pathflow-shard.sbatch" "$config" "$out" 4 -quiet)
  final=$(cd "$work/jobs" && sbatch --parsable --dependency=afterok:"${redo%%;*}" "$repo/deploy/slurm/pathflow-finalize.sbatch" "$config" "$out" 4)
  wait_gone "${redo%%;*}"
  wait_gone "${final%%;*}"
  [ -f "$out/_SUCCESS" ] || { cat "$work"/jobs/pathflow-finalize-*.log; fail "finalize did not complete the dataset"; }
  if compgen -G "$out/.*.tmp-*" >/dev/null; then fail "temporaries left in $out: $(ls -A "$out")"; fi
  grep -h "removed the temporary" "$work"/jobs/pathflow-"${redo%%;*}"_2.log || fail "the resubmitted task did not report removing the killed attempt"

  step "$name: DuckDB reads the dataset as the one-shot run"
  duckdb_equal "$work/out/$name-one" "$out" "$3"
}

cat >"$work/grid.yaml" <<YAML
input:
  generate: grid:side=512,lo=1,hi=1000,seed=1
compute:
  backend: cpu
  sources: ["0-255"]
  summary: true
YAML
sharded_run grid "$work/grid.yaml" "source, vertex, distance, parent"

if [ -f "$datasets/rome99.gr" ]; then
  # Parents off: the one-shot run is Floyd-Warshall and the shards run
  # Dijkstra, whose parents may differ where shortest paths tie.
  cat >"$work/rome99.yaml" <<YAML
input:
  path: $datasets/rome99.gr
compute:
  backend: cpu
  sources: [all]
  parents: false
YAML
  sharded_run rome99 "$work/rome99.yaml" "source, vertex, distance"
else
  echo "slurm-test: no $datasets/rome99.gr: the rome99 all-pairs part is skipped"
fi

step "passed"
