#!/bin/sh
# repro.sh — the same options and seed give the same values: every non-timing column of two identical
# `ddlbench train --check` and `ddlbench allreduce` runs (2 ranks), the whole output of `model`,
# `model --algo` (cost model) and `platform`, and — simulation being deterministic, timings included —
# two `make run NODES=2` sweeps' scaling.csv apart from its # metadata lines, one launch at a time
# (JOBS=1) and two at once (JOBS=2), so parallel launches change nothing (skipped when the simulation
# build is absent). Prints "N passed, N failed".
BUILD=${BUILD:-build}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$root/$BUILD;; esac
exe=$BUILD/ddlbench
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
same() { # description file1 file2
    if cmp -s "$2" "$3" && [ -s "$2" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1"
        diff "$2" "$3" | head -n 6; fi
}
cols() { grep -v '^#' "$1" | cut -d, -f"$2"; } # CSV columns without the # metadata lines

for i in 1 2; do
    sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" train --batch 2 --image-size 32 -a ring,rhd,ddl --bucket-mb 0,1 \
        --steps 2 --warmup 1 --check --csv "$tmp/train$i.csv" >/dev/null 2>&1 </dev/null
    cols "$tmp/train$i.csv" 1-7,20 >"$tmp/train$i.cols" # 20: wrong
    sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -b 1K -e 1M -f 16 -n 3 -w 1 --csv "$tmp/ar$i.csv" \
        >/dev/null 2>&1 </dev/null
    cols "$tmp/ar$i.csv" 1-8,16 >"$tmp/ar$i.cols"
    "$exe" model --model resnet101-22k --batch 20 >"$tmp/model$i.txt" 2>&1
    "$exe" model --algo ring,rhd,ddl,mpi --bytes 100M --preset minsky --nodes 64 >"$tmp/cost$i.txt" 2>&1
    mkdir -p "$tmp/pf$i" && "$exe" platform --preset bigbasin --nodes 4 -o "$tmp/pf$i" >/dev/null 2>&1
done
same "train --check: non-timing columns (model..buckets, wrong) differ between two runs" "$tmp/train1.cols" \
    "$tmp/train2.cols"
[ "$(awk -F, 'NR > 1 && $NF != 0' "$tmp/train1.cols" | wc -l)" -eq 0 ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL train --check: wrong != 0"; }
same "allreduce: non-timing columns (size..iters, wrong) differ between two runs" "$tmp/ar1.cols" "$tmp/ar2.cols"
same "model output differs between two runs" "$tmp/model1.txt" "$tmp/model2.txt"
same "model --algo (cost) output differs between two runs" "$tmp/cost1.txt" "$tmp/cost2.txt"
same "platform.xml differs between two runs" "$tmp/pf1/platform.xml" "$tmp/pf2/platform.xml"
same "hostfile differs between two runs" "$tmp/pf1/hostfile" "$tmp/pf2/hostfile"

if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    for i in 1 2; do
        make -s -C "$root" run NODES=2 BUILD="$BUILD" OUT="$tmp/run$i" JOBS=$i SWEEP_FLAGS=-q >/dev/null 2>&1 </dev/null
        grep -v '^#' "$tmp/run$i/scaling.csv" >"$tmp/run$i.csv" 2>/dev/null
    done
    same "make run NODES=2 JOBS=1 and JOBS=2 (sim): scaling.csv differs (timings included)" "$tmp/run1.csv" \
        "$tmp/run2.csv"
else
    echo "# no simulation build: the sweep comparison is skipped (make sim)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
