#!/bin/sh
# jitter.sh — `train --jitter`: bad values are one line and exit 2; under simulation (deterministic
# time) the same seed gives the same step times, another seed other ones, and jitter only ever slows a
# step; the real build runs with it and records it in the CSV's provenance; `make jitter`'s script
# runs (1 node, jitter 0 and 5). Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
col() { awk -F, -v k="$1" '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[k] }' "$2"
    }

for v in -1 abc 2000 "" 5x; do expect_status 2 train --jitter "$v"; done
expect_status 2 train --jitter-seed -3

sim=$BUILD/sim/ddlbench-sim
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    mkdir -p "$tmp/p" && "$exe" platform --preset minsky --nodes 2 -o "$tmp/p" >/dev/null
    T="train --model resnet50 --batch 8 --image-size 64 -a ring --steps 6 --warmup 0 --profile p100"
    run() { # name args...
        n=$1; shift
        # shellcheck disable=SC2086
        DDL_RANKS_PER_NODE=4 sh "$root/harness/scripts/simlaunch.sh" 8 "$tmp/p" "$sim" $T "$@" --csv "$tmp/$n.csv" \
            >"$tmp/$n.out" 2>&1 || bad "sim run $n: $(tail -n 1 "$tmp/$n.out")"
    }
    run j0; run a --jitter 20; run b --jitter 20; run c --jitter 20 --jitter-seed 9
    [ -n "$(col step_ms_median "$tmp/a.csv")" ] && [ "$(col step_ms_median "$tmp/a.csv")" = \
        "$(col step_ms_median "$tmp/b.csv")" ] &&
        [ "$(col step_ms_max "$tmp/a.csv")" = "$(col step_ms_max "$tmp/b.csv")" ] && ok ||
            bad "same seed, same step times"
    [ -n "$(col step_ms_max "$tmp/c.csv")" ] && [ "$(col step_ms_max "$tmp/a.csv")" != \
        "$(col step_ms_max "$tmp/c.csv")" ] && ok || bad "another seed, other step times"
    awk -v a="$(col step_ms_min "$tmp/a.csv")" -v z="$(col step_ms_max "$tmp/j0.csv")" \
        'BEGIN { exit !(a > z) }' && ok ||
        bad "jitter slows every step: min $(col step_ms_min "$tmp/a.csv") vs $(col step_ms_max "$tmp/j0.csv") without"
    grep -q '^# jitter: 20% mean' "$tmp/a.csv" && ! grep -q '^# jitter' "$tmp/j0.csv" && ok ||
        bad "jitter in the provenance"
    # `make jitter`'s script, small: its 1-GPU baseline platform (1 of a minsky node's 4 GPUs) is made
    sh "$root/harness/scripts/jitter.sh" --build "$BUILD" --out "$tmp/mj" --nodes 1 --pcts "0 5" --steps 1 \
        >"$tmp/mj.out" 2>&1 &&
        [ "$(awk -F, '!/^jitter_pct/ && NF == 9' "$tmp/mj/jitter.csv" | wc -l)" -eq 2 ] && ok ||
        bad "harness/scripts/jitter.sh: $(tail -n 1 "$tmp/mj.out")"
else
    echo "SKIP: simulated jitter runs (no $sim or smpirun)"
fi
if sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" train --batch 1 --image-size 32 -a ring --steps 2 --warmup 0 \
    --jitter 10 --csv "$tmp/real.csv" >"$tmp/real.out" 2>&1 && grep -q '^# jitter: 10% mean' "$tmp/real.csv"; then ok
else bad "real 2-rank run with --jitter: $(tail -n 1 "$tmp/real.out")"; fi
report
