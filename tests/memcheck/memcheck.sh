#!/bin/sh
# memcheck.sh — `make memcheck`: a tiny 2-rank `ddlbench train` and `ddlbench allreduce` (with --csv, --json and
# --per-rank: the CSV text in memory, libcjson, the per-rank gather) with every rank
# under valgrind memcheck. Errors in our code and definite leaks fail the run; Open MPI's own noise
# (the runtime's one-time allocations and uninitialised padding in its wire protocol) is suppressed
# with the suppression file Open MPI ships. Prints "N passed, N failed".
BUILD=${BUILD:-build}
VALGRIND=${VALGRIND:-valgrind}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
exe=$BUILD/ddlbench
case $exe in /*) ;; *) exe=$root/$exe;; esac
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v "$VALGRIND" >/dev/null 2>&1 || { echo "no valgrind (apt-get install valgrind)"
    echo "0 passed, 1 failed"; exit 1; }
supp=""
for s in ${SUPP:-/usr/share/openmpi/openmpi-valgrind.supp}; do [ -f "$s" ] && supp="$supp --suppressions=$s"; done
# shellcheck disable=SC2086
vg="$VALGRIND --tool=memcheck --leak-check=full --show-leak-kinds=definite --track-origins=no \
    --num-callers=30 $supp --log-file=$tmp/vg.%p.log"
ours=$(cd "$root" && ls harness/*/*.c collectives/*.c kernels/*.c | xargs -n1 basename | tr '\n' '|' | sed 's/|$//')

# ours LOGS: records (errors, definite leaks) whose first frame outside valgrind's and libc's
# allocation/copy functions is one of our source files; Open MPI's own records are not ours.
ours_records() {
    sed 's/^==[0-9]*== \{0,1\}//' "$@" | awk -v ours="\\((${ours}):[0-9]+\\)" '
        function flush() { if (rec != "" && hit) { print rec; n++ } rec = ""; hit = 0; first = 0 }
        /^$/ { flush(); next }
        /^(Invalid|Conditional|Use of|Syscall param|Mismatched|Source and destination|Argument)/ ||
        /^[0-9,]+ bytes in [0-9,]+ blocks are definitely/ {
            flush(); rec = $0; first = 1; next }
        rec != "" { rec = rec "\n" $0
            if (first && /^ *(at|by) 0x/) {
                if ($0 ~ /vgpreload|libc\.so|strdup\.c|memmove|memcpy|memset/ ||
                    $0 ~ /\((malloc|calloc|realloc|strdup|memcpy|memmove|memset|free)\)/) next
                if ($0 ~ ours) hit = 1
                first = 0
            } }
        END { flush() }'
}

run() { # name args...
    name=$1; shift
    rm -f "$tmp"/vg.*.log
    OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
        timeout 900 sh "$root/harness/scripts/mpilaunch.sh" 2 $vg "$exe" "$@" >"$tmp/$name.out" 2>&1 </dev/null
    st=$?
    ours_records "$tmp"/vg.*.log >"$tmp/$name.ours"
    total=$(grep -h 'ERROR SUMMARY' "$tmp"/vg.*.log | sed 's/.*ERROR SUMMARY: \([0-9,]*\).*/\1/' | tr -d , | awk \
        '{ s += $1 } END { print s + 0 }')
    if [ "$st" -eq 0 ] && ! [ -s "$tmp/$name.ours" ]; then
        passed=$((passed + 1))
        echo "# $name: exit 0; valgrind records in our code: 0 (all records, MPI runtime included: ${total:-?})"
    else
        failed=$((failed + 1)); echo "FAIL $name: exit $st; records in our code:"
        head -n 80 "$tmp/$name.ours"; tail -n 5 "$tmp/$name.out"
    fi
}
run train train --batch 1 --image-size 32 -a ring,ddl --steps 1 --warmup 0 --check --csv "$tmp/t.csv" --json \
    "$tmp/t.json" --per-rank
run allreduce allreduce -b 1K -e 64K -f 8 -n 2 -w 0 -a ring,rhd,ddl,mpi --csv "$tmp/a.csv" --json \
    "$tmp/a.json" --per-rank
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
