#!/bin/sh
# run.sh — run every test binary in $BUILD/tests: unit tests directly, MPI tests under mpilaunch.sh at
# the rank counts below. Each prints "N passed, N failed"; this adds them up and prints the total last.
# MPI tests run without LeakSanitizer (the MPI runtime's own allocations are unloaded with its
# plugins and cannot be suppressed); valgrind covers leaks in our code.
# A binary that crashes, hangs (timeout) or prints no count counts as one failure.
# TEST_SUBSET=REGEX runs only the tests whose name (test_x, script.sh) matches (extended regex).
BUILD=${BUILD:-build}
TIMEOUT=${TEST_TIMEOUT:-600}
SUBSET=${TEST_SUBSET:-.}
dir=$(dirname "$0")
passed=0; failed=0

# name: rank counts [: extra arguments]
MPI_TESTS="
test_allreduce:1 2 3 4 5 6 7 8
test_allreduce:12 16:--rpn 4
test_allreduce:8:--rpn 2
test_allreduce:3:--rpn 1 --quick
test_collectives:1 2 3 4 5 6 7 8
test_collectives:12 16:--rpn 4
test_collectives:8:--rpn 2
test_allreduce:4 6:--rpn 2 --net 2:1000
test_allreduce:6:--net 3:4000
test_collectives:4 6:--rpn 2 --net 2:1000
test_collectives:6:--net 3:4000
test_api:1 3 4
test_engine:1 2 3
test_cuda:1 2 3
test_link:1 2
test_link_cuda:1
test_rdb:1 2 3 4 5 6 7 8
test_shard_step:1 2 3 4 5 8
test_shard_train:1 2 3 4
"

record() { # label logfile status
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$1: no result (exit $3)"; tail -n 5 "$2"; failed=$((failed + 1)); return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    [ "$3" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    passed=$((passed + p)); failed=$((failed + f))
    echo "$1: $p passed, $f failed"
    [ "$f" -ne 0 ] && grep -m 20 FAIL "$2"
    return 0
}

log=$(mktemp); trap 'rm -f "$log"' EXIT
mpi_names=$(echo "$MPI_TESTS" | cut -d: -f1 | sort -u)
for bin in "$BUILD"/tests/test_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    echo "$mpi_names" | grep -qx "$name" && continue
    echo "$name" | grep -Eq "$SUBSET" || continue
    timeout "$TIMEOUT" "$bin" >"$log" 2>&1; record "$name" "$log" $?
done
echo "$MPI_TESTS" | while IFS=: read -r name nps args; do
    [ -n "$name" ] && echo "$name:$nps:$args"
done >"$log.list"
while IFS=: read -r name nps args; do
    [ -x "$BUILD/tests/$name" ] || continue
    echo "$name" | grep -Eq "$SUBSET" || continue
    for np in $nps; do
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout "$TIMEOUT" sh "$dir/../harness/scripts/mpilaunch.sh" \
            "$np" "$BUILD/tests/$name" $args >"$log" 2>&1 </dev/null
        record "$name np=$np${args:+ $args}" "$log" $?
    done
done <"$log.list"
rm -f "$log.list"
for script in "$dir"/*.sh; do # shell tests of the CLI and scripts, each printing "N passed, N failed"
    case $(basename "$script") in run.sh|resilience.sh) continue;; esac # resilience.sh: `make faults` (minutes)
    basename "$script" | grep -Eq "$SUBSET" || continue
    BUILD=$BUILD MPIRUN=${MPIRUN:-mpirun} timeout "$TIMEOUT" sh "$script" >"$log" 2>&1 </dev/null
    record "$(basename "$script")" "$log" $?
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
