#!/bin/sh
# pmpi.sh — build/libddl_mpi.so under unmodified MPI programs (LD_PRELOAD), at 2 and 3 ranks:
#   - it exports the four MPI_* entry points and nothing of libddl, and libddl inside it calls
#     PMPI_* (no relocation against MPI_Allreduce, MPI_Allgather, MPI_Reduce_scatter_block); a
#     program linked with -lddl_mpi (instead of LD_PRELOAD) routes alike;
#   - tests/pmpi/client.c (plain MPI, exact data): correct with and without the library, through
#     DDL_ALGO auto, mpi (whose own MPI_Allreduce must not re-enter the library) and ring; libddl
#     takes the calls it should and no others (long, user op, derived type, intercommunicator: MPI);
#     a libddl failure comes back as an MPI error code through the communicator's handler;
#   - bad DDL_ALGO, DDL_MPI_THRESHOLD, a context that fails on one rank (DDL_TEST_FAIL): one line
#     on rank 0, everything goes to MPI, the program still right; MPI_THREAD_MULTIPLE passes through
#     unless DDL_MPI_MULTIPLE=1;
#   - tests/pmpi/check.py (mpi4py + numpy) with and without the library: the same results (ints and
#     MAX/MIN exact, float sums within their type's tolerance), and libddl took exactly the calls
#     check.py predicts (DDL_MPI_VERBOSE's per-communicator counts), so the test cannot pass with
#     nothing routed;
#   - ddlbench allreduce, reduce-scatter and allgather -a mpi preloaded: the mpi rows run through
#     libddl, #wrong 0.
# PMPI_MPICH=1 (make check-mpich): BUILD's MPICH build, the client and ddlbench at 2 ranks (mpi4py is
# built for Open MPI). Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
dir=$(dirname "$0")
launch="$dir/../harness/scripts/mpilaunch.sh"
client=$BUILD/tests/pmpi_client
so=$(cd "$BUILD" 2>/dev/null && pwd)/libddl_mpi.so
[ -f "$so" ] && [ -x "$client" ] || { echo "no $so or $client (build first)"; echo "0 passed, 1 failed"; exit 1; }
mpich=${PMPI_MPICH:-0}
# a SANITIZE=1 build's library needs the sanitizer runtime first in every process it is preloaded into
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then echo "SKIP: $so is a sanitizer build"; report; exit 0; fi
PY=/usr/bin/python3

# ranks NP OUT COMMAND...: each rank's output into its own file, then all of them into OUT, rank by
# rank (the launcher may cut lines of ranks writing at once and splice them)
ranks() {
    np=$1; out=$2; shift 2
    sh "$launch" "$np" sh -c 'r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-x}}; exec "$@" >"$0.rank$r" 2>&1' "$out" "$@" \
        >"$out.launcher" 2>&1 </dev/null
    st=$?
    cat "$out".rank* "$out.launcher" >"$out"; rm -f "$out".rank* "$out.launcher"
    return $st
}
# run NP OUT ENV... -- ARGS: the client under the library with ENV, output in OUT
run() {
    np=$1; out=$2; shift 2
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done; shift
    # shellcheck disable=SC2086
    ranks "$np" "$out" env LD_PRELOAD="$so" $envs "$client" "$@"
}
passes() { grep -q '^[0-9]* passed, 0 failed$' "$1" && ! grep -q '^[0-9]* passed, [1-9]' "$1"; }

# Symbols.
exports=$(nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort | tr '\n' ' ')
[ "$exports" = "MPI_Allgather MPI_Allreduce MPI_Finalize MPI_Reduce_scatter_block " ] && ok ||
    bad "exports: $exports"
n=$(readelf -rW "$so" | grep -Ec '(^|[^P])MPI_(Allreduce|Allgather|Reduce_scatter_block)\b')
[ "$n" -eq 0 ] && ok || bad "$n relocations against MPI_Allreduce/Allgather/Reduce_scatter_block: re-entry"

nps="2 3"; [ "$mpich" = 1 ] && nps=2
for np in $nps; do
    ranks "$np" "$tmp/plain" "$client"
    passes "$tmp/plain" && ! grep -q ddl_mpi "$tmp/plain" && ok ||
        { bad "np=$np: client without the library"; tail -n 5 "$tmp/plain"; }
    run "$np" "$tmp/auto" DDL_MPI_VERBOSE=1 -- --errors
    world="^ddl_mpi: comm MPI_COMM_WORLD: $np ranks, DDL_ALGO=auto threshold=65536 B -> libddl auto"
    if passes "$tmp/auto" && grep -q "$world" "$tmp/auto" &&
        grep -q '^ddl_mpi: comm dup freed: libddl took allreduce=0 reduce_scatter_block=2 allgather=2$' "$tmp/auto" &&
        grep -q '^ddl_mpi: comm split0 freed: libddl took allreduce=4 ' "$tmp/auto" &&
        grep -q '^ddl_mpi: comm MPI_COMM_WORLD freed: libddl took allreduce=4 reduce_scatter_block=2 allgather=2$' \
            "$tmp/auto" && ! grep -q 'comm inter' "$tmp/auto" &&
        grep -q '^# error string: libddl (ddl_mpi): ' "$tmp/auto"; then ok
    else bad "np=$np: client under the library (auto)"; cat "$tmp/auto"; fi
    for algo in mpi ring; do
        run "$np" "$tmp/$algo" DDL_MPI_VERBOSE=1 DDL_ALGO=$algo -- --errors
        passes "$tmp/$algo" && grep -q "DDL_ALGO=$algo threshold=65536 B -> libddl $algo " "$tmp/$algo" && ok ||
            { bad "np=$np: client under the library, DDL_ALGO=$algo"; tail -n 8 "$tmp/$algo"; }
    done
done

# Linked instead of preloaded: the client built against the library, before the MPI library.
cc=mpicc; [ "$mpich" = 1 ] && cc=mpicc.mpich
if "$cc" -std=c11 -o "$tmp/linked" "$dir/pmpi/client.c" -L"${so%/*}" -lddl_mpi -Wl,-rpath,"${so%/*}" 2>"$tmp/cc"; then
    ranks 2 "$tmp/link" env DDL_MPI_VERBOSE=1 "$tmp/linked" --errors
    passes "$tmp/link" && grep -q '^ddl_mpi: comm MPI_COMM_WORLD freed: libddl took allreduce=4 ' "$tmp/link" && ok ||
        { bad "client linked with -lddl_mpi"; cat "$tmp/link"; }
else bad "$cc: cannot link the client with -lddl_mpi: $(head -n 3 "$tmp/cc")"; fi

# Bad settings and failures: one line on rank 0, then MPI, and the program still right.
one_line() { # OUT PATTERN WHAT
    c=$(grep -c "$2" "$1")
    passes "$1" && [ "$c" -eq 1 ] && ! grep -q -- '-> libddl' "$1" && ok || { bad "$3: $c lines"; cat "$1"; }
}
run 2 "$tmp/algo" DDL_ALGO=nosuch DDL_MPI_VERBOSE=1 --
one_line "$tmp/algo" '^ddl_mpi: DDL_ALGO: expected mpi|ring|.*, got "nosuch"; every collective goes to MPI$' \
    "DDL_ALGO=nosuch"
run 2 "$tmp/thr" DDL_MPI_THRESHOLD=64Q --
one_line "$tmp/thr" '^ddl_mpi: DDL_MPI_THRESHOLD: expected a size' "DDL_MPI_THRESHOLD=64Q"
run 2 "$tmp/multi" DDL_MPI_VERBOSE=1 -- --multiple
one_line "$tmp/multi" '^ddl_mpi: MPI_THREAD_MULTIPLE: every collective goes to MPI' "MPI_THREAD_MULTIPLE"
run 2 "$tmp/multi1" DDL_MPI_VERBOSE=1 DDL_MPI_MULTIPLE=1 -- --multiple --errors
passes "$tmp/multi1" && grep -q -- '-> libddl' "$tmp/multi1" && ok || { bad "DDL_MPI_MULTIPLE=1"; cat "$tmp/multi1"; }
# rank 1 of each communicator fails its setup (world, dup; the splits have one rank at np 2): every
# rank of the communicator learns it, its rank 0 says it
run 2 "$tmp/fail" DDL_TEST_FAIL=setup:1 --
c=$(grep -c '^ddl_mpi: comm .*: no libddl context, its collectives go to MPI: .*injected on rank 1' "$tmp/fail")
passes "$tmp/fail" && [ "$c" -eq 2 ] && ok ||
    { bad "DDL_TEST_FAIL=setup:1: $c lines, want 2 (world, dup)"; cat "$tmp/fail"; }
# DDL_GRID applies to every communicator: those it does not fit (all four here) stay with MPI
run 2 "$tmp/grid" DDL_ALGO=ddl DDL_GRID=3x5 --
c=$(grep -c '^ddl_mpi: comm .*: no libddl context, its collectives go to MPI: ddl: grid 3x5 has 15 ranks' "$tmp/grid")
passes "$tmp/grid" && [ "$c" -eq 4 ] && ok || { bad "DDL_GRID=3x5: $c lines, want 4"; cat "$tmp/grid"; }

# mpi4py + numpy, with and without the library (Open MPI: Debian's mpi4py is built for it).
if [ "$mpich" != 1 ]; then
    if ! "$PY" -c 'import mpi4py, numpy' 2>"$tmp/imp"; then
        bad "mpi4py/numpy not importable by $PY ($(tail -n 1 "$tmp/imp")): apt-get install python3-mpi4py python3-numpy"
    else
        for case in "2 65536 " "3 1024 DDL_MPI_THRESHOLD=1K"; do
            set -- $case; np=$1; thr=$2; extra=${3:-}
            mkdir -p "$tmp/py0" "$tmp/py1"; rm -f "$tmp"/py0/* "$tmp"/py1/*
            ranks "$np" "$tmp/py0.out" "$PY" "$dir/pmpi/check.py" run "$tmp/py0" "$thr"
            st0=$?
            # shellcheck disable=SC2086
            ranks "$np" "$tmp/py1.out" env LD_PRELOAD="$so" DDL_MPI_VERBOSE=1 $extra "$PY" "$dir/pmpi/check.py" run \
                "$tmp/py1" "$thr"
            st1=$?
            [ "$st0" -eq 0 ] && [ "$st1" -eq 0 ] && grep -q ', 0 failed$' "$tmp/py1.out" && ok ||
                { bad "mpi4py np=$np: runs exit $st0, $st1"; tail -n 5 "$tmp/py0.out" "$tmp/py1.out"; }
            "$PY" "$dir/pmpi/check.py" compare "$tmp/py0" "$tmp/py1" >"$tmp/cmp" 2>&1 && ok ||
                { bad "mpi4py np=$np: results differ"; tail -n 5 "$tmp/cmp"; }
            want=$(sed -n 's/^expect \([^ ]*\) /\1 /p' "$tmp/py1.out" | sort)
            got=$(sed -n 's/^ddl_mpi: comm \([^ ]*\) freed: libddl took /\1 /p' "$tmp/py1.out" | sort)
            routed=$(echo "$got" | grep -c 'allreduce=[1-9]')
            [ -n "$want" ] && [ "$want" = "$got" ] && [ "$routed" -ge 3 ] && ok ||
                { bad "mpi4py np=$np: routed calls: want [$want], got [$got]"; }
        done
    fi
fi

# ddlbench's own mpi rows, preloaded: MPI_Allreduce, MPI_Reduce_scatter_block and MPI_Allgather
# become libddl's; their checks still pass (#wrong 0).
if [ -x "$exe" ]; then
    np=2
    for sub in allreduce:allreduce reduce-scatter:reduce_scatter_block allgather:allgather; do
        cmd=${sub%%:*}; coll=${sub#*:}
        ranks 2 "$tmp/bench" env LD_PRELOAD="$so" DDL_MPI_VERBOSE=1 "$exe" "$cmd" -a mpi -b 64K -e 1M -f 4 -w 1 -n 3
        st=$?
        rows=$(grep -c '^ *[0-9].* mpi ' "$tmp/bench")
        wrong=$(grep -v '^#' "$tmp/bench" | grep -v '^ddl_mpi' | awk '$NF != 0' | wc -l)
        took=$(sed -n "s/^ddl_mpi: comm .* freed: libddl took.* $coll=\([0-9]*\).*/\1/p" "$tmp/bench" |
            awk '{ s += $1 } END { print s + 0 }')
        [ "$st" -eq 0 ] && [ "$rows" -ge 3 ] && [ "$wrong" -eq 0 ] && [ "$took" -gt 0 ] && ok ||
            { bad "ddlbench $cmd -a mpi preloaded: exit $st, $rows rows, $wrong wrong, libddl took $took"
              cat "$tmp/bench"; }
    done
fi
report
