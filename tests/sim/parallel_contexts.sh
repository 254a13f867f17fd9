#!/bin/sh
# parallel_contexts.sh [RUNS] — builds tests/sim/parallel_contexts.c with smpicc and runs it RUNS times
# (default 10) on 16 simulated hosts with --cfg=contexts/nthreads:1 and :2, counting runs that abort
# and runs whose end time is wrong (expected 0.300 s). Not part of `make test`: it shows a SimGrid
# 3.32 race (nondeterministic by nature), the reason simlaunch.sh refuses contexts/nthreads > 1.
# docs/BENCHMARKS.md ("SimGrid's parallel contexts") records a run.
cd "$(dirname "$0")/../.." || exit 1
runs=${1:-10}
command -v smpicc >/dev/null 2>&1 || { echo "smpicc not found (apt-get install simgrid libsimgrid-dev)"; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/pc" tests/sim/parallel_contexts.c || exit 1
build/ddlbench platform --preset minsky --nodes 4 -o "$tmp" >/dev/null 2>&1 ||
    { echo "build/ddlbench not built (make)"; exit 2; }
for n in 1 2; do
    aborted=0 wrong=0 right=0
    for _ in $(seq 1 "$runs"); do
        out=$(smpirun -np 16 -platform "$tmp/platform.xml" -hostfile "$tmp/hostfile" --cfg=contexts/nthreads:$n \
              --log=root.thres:critical "$tmp/pc" 2>&1)
        case $out in *"end 0.300 s"*) right=$((right + 1));; *"end "*) wrong=$((wrong + 1));;
            *) aborted=$((aborted + 1));; esac
    done
    echo "contexts/nthreads:$n: $runs runs: $right right, $wrong wrong end time, $aborted aborted"
done
