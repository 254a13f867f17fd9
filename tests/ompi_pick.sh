#!/bin/sh
# ompi_pick.sh — harness/scripts/ompi_pick.sh: bad options are one line and exit 2; with Open MPI 4.1
# the algorithms coll/tuned really runs at 2 and 4 ranks, 1 KiB..1 MiB, are the table the simulated
# `mpi` follows (collectives/ompi_decision.c; tests/test_cost.c checks that table at its boundaries).
# Another MPI or another Open MPI series: one SKIP line. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
pick="sh $root/harness/scripts/ompi_pick.sh --build $BUILD"
for args in "--ranks 1" "--ranks x" "--colour blue" "-b"; do
    $pick $args >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "ompi_pick.sh $args: exit $got, $(cat "$tmp/err")"
done
if ! "${MPIRUN:-mpirun}" --version 2>&1 | grep -q 'Open MPI.* 4\.1\.'; then
    echo "SKIP: the installed MPI is not Open MPI 4.1 (the table of collectives/ompi_decision.c)"; report; exit $?
fi
$pick --ranks "2 4" -b 1K -e 1M >"$tmp/out" 2>"$tmp/err" </dev/null || bad "ompi_pick.sh: $(cat "$tmp/err")"
cat >"$tmp/want" <<'EOT'
2 1024 recursive_doubling
2 2048 recursive_doubling
2 4096 ring
2 8192 recursive_doubling
2 16384 ring
2 32768 ring
2 65536 segmented_ring
2 131072 segmented_ring
2 262144 rabenseifner
2 524288 rabenseifner
2 1048576 rabenseifner
4 1024 recursive_doubling
4 2048 recursive_doubling
4 4096 recursive_doubling
4 8192 rabenseifner
4 16384 rabenseifner
4 32768 rabenseifner
4 65536 rabenseifner
4 131072 rabenseifner
4 262144 rabenseifner
4 524288 rabenseifner
4 1048576 rabenseifner
EOT
grep -v '^#' "$tmp/out" | diff "$tmp/want" - >"$tmp/diff" && ok || { bad "Open MPI's picks differ from the table:"
    cat "$tmp/diff"; }
report
