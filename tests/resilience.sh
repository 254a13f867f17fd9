#!/bin/sh
# resilience.sh — big runs stop when told, leaving nothing behind; interrupted sweeps resume exactly.
# (`make faults` runs it with tests/faults.sh; tests/run.sh leaves it out of `make test`: ~4 min here.)
# 1. A 1 GiB allreduce at 2 ranks: completes and writes its CSV whole; a rank hung (SIGSTOP) in it is
#    ended by --timeout S (exactly S per iteration) within the clean run's time + S + launch slack;
# Ctrl-C (SIGINT to the launcher's process group, as a terminal sends it) ends it within a minute. After a stop:
# non-zero exit, no ddlbench process
#    left, no CSV and no .tmp.
# 2. An allreduce sweep to 1G (-b 1K -e 1G -f 32): the same for a hang at its 1 GiB size and for Ctrl-C
#    while it runs there.
# 3. A simulated scaling sweep (harness/scripts/sweep.sh, 3 launches) interrupted by Ctrl-C at each
#    launch in turn, then resumed with --resume: scaling.csv equals an uninterrupted sweep's (data rows;
#    the # provenance lines name dates and commands), no process and no .tmp left.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$root/$BUILD;; esac
exe=$BUILD/ddlbench
launch="sh $root/harness/scripts/mpilaunch.sh"
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
SLACK=40  # launch, MPI_Abort and teardown on a loaded 2-core machine

check() { # description condition...
    d=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $d"; fi
}
# nothing of run NAME left: no process whose command line names its CSV, no CSV, no .tmp
left() { pgrep -f "$tmp/$1" >/dev/null 2>&1 || ls "$tmp/$1".csv* >/dev/null 2>&1; }
none_with() { ! pgrep -f "$1" >/dev/null 2>&1; }
clean() { sleep 1; ! left "$1"; }

# start NAME ENV ARGS...: a 2-rank allreduce in its own process group (as a shell's foreground job;
# SIGINT back to its default: a script's background jobs start with it ignored), CSV $tmp/NAME.csv;
# sets $pg (the group) and $t0
start() {
    name=$1 envv=$2; shift 2
    t0=$(date +%s)
    env --default-signal=INT $envv setsid $launch 2 "$exe" allreduce "$@" --csv "$tmp/$name.csv" >"$tmp/$name.out" \
        2>"$tmp/$name.err" </dev/null &
    pg=$!
}
# finish: waits for the group leader (at most LIMIT s, then kills the group); sets $st and $secs
finish() {
    limit=$1 n=0
    while kill -0 "$pg" 2>/dev/null && [ $n -lt $((limit * 5)) ]; do sleep 0.2; n=$((n + 1)); done
    kill -0 "$pg" 2>/dev/null && { kill -KILL -"$pg" 2>/dev/null; echo "# group $pg killed after $limit s"; }
    wait "$pg"; st=$?; secs=$(($(date +%s) - t0))
}
# ctrl_c NAME PATTERN: once NAME's output shows PATTERN (a row of the size to interrupt), SIGINT to the group
ctrl_c() {
    n=0
    until grep -q "$2" "$tmp/$1.out" 2>/dev/null || ! kill -0 "$pg" 2>/dev/null || [ $n -ge 1500 ]; do sleep 0.2
        n=$((n + 1)); done
    sleep 1
    kill -INT -"$pg" 2>/dev/null
}

# 1. one message of 1 GiB. The hang runs get --timeout TOB = the whole clean run's time (at least 20 s):
# far above one iteration on this machine at its present load, so only the injected hang fires it.
BIG="-b 1G -e 1G -n 2 -w 0 -a ring"
start big-ok "" $BIG --timeout 600
finish 900
ok_secs=$secs; TOB=$((secs > 20 ? secs : 20))
echo "# 1 GiB allreduce, 2 ranks: exit $st after $secs s"
check "1 GiB: exit 0 ($(tail -n 1 "$tmp/big-ok.err"))" [ "$st" -eq 0 ]
check "1 GiB: the CSV whole (header, 2 rows, #wrong 0), no .tmp" \
    sh -c "[ \$(grep -c '^1073741824,.*,0\$' '$tmp/big-ok.csv') -eq 2 ] && ! [ -e '$tmp/big-ok.csv.tmp' ]"

start big-hang DDL_FAULT_INJECT=1:1:stop $BIG --timeout $TOB
finish $((ok_secs + TOB + SLACK + 120))
echo "# 1 GiB, rank 1 stopped at its 2nd iteration, --timeout $TOB: exit $st after $secs s"
check "1 GiB hang: exit non-zero" [ "$st" -ne 0 ]
check "1 GiB hang: ended within the clean run + --timeout + $SLACK s (took $secs)" [ "$secs" -le \
    $((ok_secs + TOB + SLACK)) ]
check "1 GiB hang: the watchdog names the iteration" \
    grep -q "watchdog: rank 0: allreduce ring out-place iteration 1, 1073741824 bytes not finished after $TOB s" \
        "$tmp/big-hang.err"
check "1 GiB hang: no process, CSV or .tmp left" clean big-hang

start big-int "" $BIG --timeout 600
ctrl_c big-int "^# *size_B"
finish 60
echo "# 1 GiB, Ctrl-C during the run: exit $st after $secs s"
check "1 GiB Ctrl-C: exit non-zero" [ "$st" -ne 0 ]
check "1 GiB Ctrl-C: no process, CSV or .tmp left" clean big-int

# 2. a sweep of sizes to 1 GiB: iterations 4 per size (2 placements x 2), the 1 GiB size from 16
SWEEP="-b 1K -e 1G -f 32 -n 2 -w 0 -a ring"
start sweep-hang DDL_FAULT_INJECT=1:17:stop $SWEEP --timeout $TOB
finish $((ok_secs + TOB + SLACK + 120))
echo "# sweep to 1G, rank 1 stopped in the 1 GiB size, --timeout $TOB: exit $st after $secs s"
check "sweep to 1G hang: exit non-zero" [ "$st" -ne 0 ]
check "sweep to 1G hang: the watchdog fired at 1 GiB, iteration 1" \
    grep -q "watchdog: rank 0: allreduce ring out-place iteration 1, 1073741824 bytes not finished after $TOB s" \
        "$tmp/sweep-hang.err"
check "sweep to 1G hang: ended within the clean 1 GiB run + --timeout + $SLACK s (took $secs)" [ "$secs" -le \
    $((ok_secs + TOB + SLACK)) ]
check "sweep to 1G hang: no process, CSV or .tmp left" clean sweep-hang

start sweep-int "" $SWEEP --timeout 600
ctrl_c sweep-int "^ *33554432 "
finish 60
echo "# sweep to 1G, Ctrl-C once 32M is done: exit $st after $secs s"
check "sweep to 1G Ctrl-C: exit non-zero" [ "$st" -ne 0 ]
check "sweep to 1G Ctrl-C: no process, CSV or .tmp left" clean sweep-int

# 3. a simulated sweep interrupted at each launch, then resumed
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    S="--backend sim --nodes 2 --gpus-per-node 2 --models resnet50:4 --algos ring,ddl --build $BUILD -q"
    sh "$root/harness/scripts/sweep.sh" $S --train-args "--steps 3" --out "$tmp/sw-clean" >/dev/null 2>&1
    grep -v '^#' "$tmp/sw-clean/scaling.csv" >"$tmp/want" 2>/dev/null
    check "uninterrupted sweep: 3 configurations x 2 algorithms" [ "$(wc -l <"$tmp/want")" -eq 7 ]
    i=0
    for g in 1 2 4; do
        i=$((i + 1)); o=$tmp/sw-cut$i
        t0=$(date +%s)
        env --default-signal=INT setsid sh "$root/harness/scripts/sweep.sh" $S --train-args "--steps 3" --out "$o" \
            >/dev/null 2>"$tmp/cut$i.err" </dev/null &
        pg=$!
        n=0
        until [ -e "$o/raw/resnet50-$g.log" ] || ! kill -0 "$pg" 2>/dev/null || [ $n -ge 600 ]; do sleep 0.1
            n=$((n + 1)); done
        kill -INT -"$pg" 2>/dev/null
        finish 120
        echo "# sweep interrupted at launch $i ($g GPUs): exit $st"
        sleep 1
        check "sweep cut at launch $i: no simulator left" none_with "$o/"
        check "sweep cut at launch $i: no .tmp left" sh -c "! ls '$o'/*.tmp '$o'/raw/*.tmp >/dev/null 2>&1"
        sh "$root/harness/scripts/sweep.sh" $S --train-args "--steps 3" --out "$o" --resume >/dev/null \
            2>"$tmp/resume$i.err"; st=$?
        check "sweep cut at launch $i: --resume exit 0 ($(tail -n 1 "$tmp/resume$i.err"))" [ "$st" -eq 0 ]
        grep -v '^#' "$o/scaling.csv" >"$tmp/got" 2>/dev/null
        check "sweep cut at launch $i: resumed scaling.csv equals the uninterrupted one" cmp -s "$tmp/want" "$tmp/got"
    done
    sh "$root/harness/scripts/sweep.sh" $S --train-args "--steps 2" --out "$tmp/sw-cut1" --resume >/dev/null \
        2>"$tmp/err"; st=$?
    check "--resume with other options refused (exit $st: $(cat "$tmp/err"))" sh -c \
        "[ $st -eq 2 ] && grep -q 'other options' '$tmp/err'"
    sh "$root/harness/scripts/sweep.sh" $S --train-args "--steps 3" --out "$tmp/sw-cut1" >/dev/null 2>"$tmp/err"; st=$?
    check "a finished --out without --resume refused (exit $st: $(cat "$tmp/err"))" [ "$st" -eq 2 ]
else
    echo "# no $BUILD/sim/ddlbench-sim or smpirun: sweep --resume checks skipped"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
