#!/bin/sh
# phase.sh NAME COMMAND [ARGS...] — runs COMMAND, then says on stderr what it cost:
#   # phase NAME: W s wall, C s CPU
# C is the user + system time of COMMAND and everything it started (the shell's `times`, children's
# line), which a loaded machine does not inflate as it does the wall time: `make run` prints one line per
# part (the sweep, the run's allreduce sweep, the report, the charts), the figures docs/BENCHMARKS.md
# records. Nothing when COMMAND fails (a refusal stays one line). Exit status: COMMAND's.
[ $# -ge 2 ] || { echo "usage: phase.sh NAME COMMAND [ARGS...]" >&2; exit 2; }
name=$1; shift
tf=$(mktemp) || exit 2
trap 'rm -f "$tf"' EXIT
trap 'exit 130' INT TERM
# children's user + system seconds so far: the second line of `times` ("XmY.Zs XmY.Zs"), which a
# pipe or $(...) would run in a subshell that has no children
cpu() { awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] }
    printf "%.2f\n", s }' "$tf"; }
now() { date +%s.%N 2>/dev/null | sed 's/N$/0/'; }
times >"$tf"; c0=$(cpu) t0=$(now)
"$@"
st=$?
times >"$tf"; c1=$(cpu) t1=$(now)
[ $st -eq 0 ] || exit $st # a refusal stays its one line
awk -v n="$name" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" \
    'BEGIN { printf "# phase %s: %.1f s wall, %.1f s CPU\n", n, t1 - t0, c1 - c0 }' >&2
exit $st
