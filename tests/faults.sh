#!/bin/sh
# faults.sh — crashes and hangs end the job quickly with a non-zero status and lose nothing.
# Faults: a rank raising SIGKILL on itself mid-run (DDL_FAULT_INJECT=RANK:STEP, harness/common/guard.h), a
# rank killed from outside (kill -9 on a pid found with pgrep), a rank that hangs (SIGSTOP: only the
# watchdog can end that job), in `ddlbench train` and `ddlbench allreduce`; then a simulated sweep
# killed mid-way and finished with --resume. Checks: exit status non-zero, ended within the
# watchdog timeout plus launch slack, the watchdog's one line names what hung, no CSV and no NAME.tmp
# (the rows stay in memory until a run ends well), and the resumed sweep equals an uninterrupted one.
# tests/resilience.sh adds 1 GiB runs, Ctrl-C, and a sweep resumed after each of its launches. 38 s here. Prints "N
# passed, N failed".
BUILD=${BUILD:-build}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$root/$BUILD;; esac
exe=$BUILD/ddlbench
launch="sh $root/harness/scripts/mpilaunch.sh"
passed=0; failed=0; injected=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
TO=5      # --timeout for these runs, seconds
SLACK=40  # launch, MPI_Abort and teardown on a loaded 2-core machine

check() { # description condition...
    d=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $d"; fi
}
no_files() { ! ls "$tmp"/out*.csv* >/dev/null 2>&1; } # neither NAME nor NAME.tmp: rows are kept in memory

# run_fault NAME ENV CMD...: runs under 2 ranks, records status in $st, seconds in $secs
run_fault() {
    name=$1 envv=$2; shift 2
    rm -f "$tmp"/out*
    t0=$(date +%s)
    env $envv timeout $((TO + SLACK + 60)) $launch 2 "$exe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
    st=$?
    secs=$(($(date +%s) - t0))
    injected=$((injected + 1))
    echo "# $name: exit $st after $secs s"
}
T="train --batch 2 --image-size 32 -a ring,rhd --steps 4 --warmup 1 --timeout $TO --csv $tmp/out.csv"
A="allreduce -e 256K -n 3 -w 1 --timeout $TO --csv $tmp/out.csv"

run_fault train-kill DDL_FAULT_INJECT=1:2 $T
check "train, rank 1 SIGKILL at step 2: exit non-zero" [ "$st" -ne 0 ]
check "train kill: ended within $((TO + SLACK)) s (took $secs)" [ "$secs" -le $((TO + SLACK)) ]
check "train kill: no CSV and no .tmp left" no_files

run_fault train-hang DDL_FAULT_INJECT=1:2:stop $T
check "train, rank 1 SIGSTOP at step 2: exit non-zero" [ "$st" -ne 0 ]
check "train hang: ended within $((TO + SLACK)) s (took $secs)" [ "$secs" -le $((TO + SLACK)) ]
check "train hang: the watchdog line names algorithm and step" grep -q \
    "watchdog: rank 0: train ring bucket-mb 25 step 2 not finished after $TO s" "$tmp/train-hang.err"
check "train hang: no CSV and no .tmp left" no_files

run_fault allreduce-kill DDL_FAULT_INJECT=0:9 $A
check "allreduce, rank 0 SIGKILL at iteration 9: exit non-zero" [ "$st" -ne 0 ]
check "allreduce kill: ended within $((TO + SLACK)) s (took $secs)" [ "$secs" -le $((TO + SLACK)) ]
check "allreduce kill: no CSV and no .tmp left" no_files

run_fault allreduce-hang DDL_FAULT_INJECT=1:9:stop $A
check "allreduce, rank 1 SIGSTOP at iteration 9: exit non-zero" [ "$st" -ne 0 ]
check "allreduce hang: ended within $((TO + SLACK)) s (took $secs)" [ "$secs" -le $((TO + SLACK)) ]
check "allreduce hang: the watchdog line names algorithm, iteration and bytes" \
    grep -Eq "watchdog: rank 0: allreduce [a-z]+ (in|out)-place iteration [0-9]+, [0-9]+ bytes not finished" \
        "$tmp/allreduce-hang.err"
check "allreduce hang: no CSV and no .tmp left" no_files

# a rank killed from outside: the launcher (or the peers' watchdogs) must end the job
rm -f "$tmp"/out*
t0=$(date +%s)
timeout $((TO + SLACK + 60)) $launch 2 "$exe" train --batch 2 --image-size 32 -a ring --steps 100000 --warmup 0 \
    --timeout $TO --csv "$tmp/out-extkill.csv" >"$tmp/ext.out" 2>"$tmp/ext.err" </dev/null &
bg=$!
pid=""
for _ in $(seq 1 100); do
    grep -q '^# ddlbench train' "$tmp/ext.out" 2>/dev/null && pid=$(pgrep -f "out-extkill.csv" | while read -r p; do
        [ "$(cat /proc/"$p"/comm 2>/dev/null)" = ddlbench ] && echo "$p"; done | tail -n 1)
    [ -n "$pid" ] && break
    sleep 0.2
done
[ -n "$pid" ] && kill -9 "$pid"
wait "$bg"; st=$?; secs=$(($(date +%s) - t0)); injected=$((injected + 1))
echo "# external kill -9 of rank pid ${pid:-none}: exit $st after $secs s"
check "kill -9 from outside: a rank pid was found" [ -n "$pid" ]
check "kill -9 from outside: exit non-zero" [ "$st" -ne 0 ]
check "kill -9 from outside: ended within $((TO + SLACK)) s of start (took $secs)" [ "$secs" -le $((TO + SLACK)) ]
check "kill -9 from outside: no CSV and no .tmp left" no_files

# a sweep killed at its second configuration keeps the first whole; --resume finishes it, and the
# result equals an uninterrupted sweep (simulation: deterministic, timings included)
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    S="--backend sim --nodes 2 --gpus-per-node 2 --models resnet50:4 --algos ring,ddl --build $BUILD -q"
    sh "$root/harness/scripts/sweep.sh" $S --out "$tmp/clean" >/dev/null 2>&1
    check "clean sweep finished" [ -s "$tmp/clean/scaling.csv" ]
    DDL_FAULT_INJECT=1:0 sh "$root/harness/scripts/sweep.sh" $S --out "$tmp/cut" >/dev/null 2>"$tmp/cut.err"; st=$?
    injected=$((injected + 1))
    echo "# sweep with rank 1 killed at its first 2-rank launch: exit $st"
    check "killed sweep: exit non-zero" [ "$st" -ne 0 ]
    check "killed sweep: the 1-GPU configuration is complete" \
        sh -c "grep -v '^#' '$tmp/clean/raw/resnet50-1.csv' >'$tmp/a'
               grep -v '^#' '$tmp/cut/raw/resnet50-1.csv' >'$tmp/b'; cmp -s '$tmp/a' '$tmp/b'"
    check "killed sweep: no raw CSV of the killed configuration, no .tmp" \
        sh -c "! ls '$tmp/cut/raw/resnet50-2.csv' '$tmp/cut/raw/'*.tmp '$tmp/cut/'*.tmp 2>/dev/null | grep -q ."
    sh "$root/harness/scripts/sweep.sh" $S --out "$tmp/cut" --resume >/dev/null 2>&1; st=$?
    check "resumed sweep: exit 0" [ "$st" -eq 0 ]
    check "resumed sweep: scaling.csv equals the uninterrupted sweep's (apart from # lines)" \
        sh -c "grep -v '^#' '$tmp/clean/scaling.csv' >'$tmp/a'; grep -v '^#' '$tmp/cut/scaling.csv' >'$tmp/b'
               cmp -s '$tmp/a' '$tmp/b'"
else
    echo "# no $BUILD/sim/ddlbench-sim or smpirun: sweep --resume test skipped"
fi
echo "# $injected faults injected"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
