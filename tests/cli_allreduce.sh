#!/bin/sh
# cli_allreduce.sh — `ddlbench allreduce`, `reduce-scatter`, `allgather` and `kernels` from the outside:
# bad options exit 2 with one line on stderr; a tiny real run at 2 ranks succeeds with #wrong 0
# everywhere and writes a complete CSV (and no .tmp); an unwritable CSV path is refused before the run
# (status 2); reduce-scatter and allgather at 3 ranks: every algorithm, #wrong 0, sizes rounded to whole
# elements per rank, busbw = algbw·(p-1)/p, the command in the CSV. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
dir=$(dirname "$0")

[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
expect_status 2 allreduce -b 0
expect_status 2 allreduce -b 4K -e 1K
expect_status 2 allreduce -d float8
expect_status 2 allreduce -o prod
expect_status 2 allreduce -a ring,nosuch
expect_status 2 allreduce -a ring,,rhd
expect_status 2 allreduce -e 99999999999G
expect_status 2 allreduce -n 5x
expect_status 2 allreduce -n 0
expect_status 2 allreduce -w -1
expect_status 2 allreduce -f 1
expect_status 2 allreduce -c 2
expect_status 2 allreduce -n
expect_status 2 allreduce --csv
expect_status 2 allreduce --bogus 1
expect_status 2 allreduce -a ring,rhd --label x
expect_status 2 allreduce --place sideways
expect_status 2 allreduce --place
expect_status 2 kernels -r 0
expect_status 2 kernels -s 1Q
expect_status 0 allreduce --help
expect_status 2 reduce-scatter -a ring,nosuch
expect_status 2 allgather -b 4K -e 1K
expect_status 0 reduce-scatter --help
expect_status 0 allgather --help
expect_status 0 kernels -s 4K -r 1

# A tiny real run at 2 ranks.
csv=$tmp/ar.csv
sh "$dir/../harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -b 1K -e 64K -f 8 -w 1 -n 3 --csv "$csv" \
    >"$tmp/run" 2>&1 </dev/null
st=$?
[ "$st" -eq 0 ] && ok || { bad "2-rank run: exit $st"; tail -n 5 "$tmp/run"; }
rows=$(grep -vc '^#' "$tmp/run")
want=$(( $("$exe" list | wc -l) * 2 * 3 )) # algorithms x placements x sizes {1K, 8K, 64K}
[ "$rows" -eq "$want" ] && ok || bad "2-rank run: $rows table rows, want $want"
wrong=$(grep -v '^#' "$tmp/run" | awk '$NF != 0' | wc -l)
[ "$wrong" -eq 0 ] && ok || bad "2-rank run: $wrong rows with #wrong != 0"
[ -f "$csv" ] && [ ! -e "$csv.tmp" ] && ok || bad "2-rank run: no $csv, or $csv.tmp left behind"
head -n 1 "$csv" 2>/dev/null | grep -q '^# commit: ' && grep -q '^# command: ddlbench allreduce ' "$csv" && ok ||
    bad "CSV: expected # provenance lines first (results/README.md), got: $(head -n 1 "$csv" 2>/dev/null)"
body=$(grep -v '^#' "$csv" 2>/dev/null)
echo "$body" | head -n 1 | grep -q '^size_B,count,type,op,algo,placement,.*busbw_GBps.*,wrong$' && ok ||
    bad "CSV header: $(echo "$body" | head -n 1)"
[ "$(($(echo "$body" | wc -l) - 1))" -eq "$want" ] && ok || bad "CSV: rows differ from the table"
echo "$body" | awk -F, 'NR > 1 && ($NF != 0 || $9 <= 0 || $13 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9]$/) { b++ }
    END { exit b > 0 }' && ok ||
    bad "CSV: wrong != 0, time <= 0 or busbw not a number >= 0 (a 1 KB allreduce slower than 10 ms under load" \
        "prints 0.0000)"

# -c 0: nothing checked, so #wrong reads N/A (nccl-tests), the CSV NA, and the exit status is 0
sh "$dir/../harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -a ring -b 1K -e 1K -w 0 -n 2 -c 0 --csv "$tmp/nc.csv" \
    >"$tmp/nc" 2>&1 </dev/null; st=$?
[ "$st" -eq 0 ] && [ "$(grep -v '^#' "$tmp/nc" | awk '$NF != "N/A"' | wc -l)" -eq 0 ] &&
    [ "$(grep -v '^#' "$tmp/nc.csv" | awk -F, 'NR > 1 && $NF != "NA"' | wc -l)" -eq 0 ] && ok ||
    bad "-c 0: #wrong N/A, CSV NA, exit 0 (exit $st)"

# --place: only the placement named is timed (out: what make fidelity compares), both rows otherwise
for pl in out in; do
    sh "$dir/../harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -a ring,rhd --place $pl -b 1K -e 4K -f 4 -n 2 -w 0 \
        >"$tmp/pl" 2>&1 </dev/null; st=$?
    got=$(grep -v '^#' "$tmp/pl" | awk -v p=$pl '$6 == p { n++ } END { print n + 0 }')
    [ "$st" -eq 0 ] && [ "$got" -eq 4 ] && [ "$(grep -vc '^#' "$tmp/pl")" -eq 4 ] && ok ||
        bad "--place $pl: exit $st, $got rows $pl-place of $(grep -vc '^#' "$tmp/pl"), want 4 of 4"
done

# --label names the rows; an unwritable CSV is bad input (2, checked before MPI starts) and leaves nothing.
sh "$dir/../harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -a mpi --label mpi-x -b 1K -e 1K -n 2 -w 0 >"$tmp/run" \
    2>&1 </dev/null
grep -v '^#' "$tmp/run" | grep -q ' mpi-x ' && ok || bad "--label: no mpi-x rows"
sh "$dir/../harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -a ring -b 1K -e 1K -n 2 -w 0 --csv "$tmp/no/such.csv" \
    >"$tmp/run" 2>&1 </dev/null
st=$?
[ "$st" -eq 2 ] && [ ! -e "$tmp/no/such.csv" ] && ok || bad "unwritable --csv: exit $st, want 2"

# reduce-scatter and allgather at 3 ranks: sizes are the whole vector, rounded down to whole elements
# per rank (1K of float32 at 3 ranks = 255 elements = 1020 bytes); busbw/algbw = 2/3.
for coll in reduce-scatter allgather; do
    sh "$dir/../harness/scripts/mpilaunch.sh" 3 "$exe" $coll -b 1K -e 4M -f 64 -w 1 -n 3 --csv "$tmp/$coll.csv" \
        >"$tmp/run" 2>&1 </dev/null
    st=$?
    [ "$st" -eq 0 ] && ok || { bad "3-rank $coll: exit $st"; tail -n 5 "$tmp/run"; }
    rows=$(grep -vc '^#' "$tmp/run")
    # algorithms with it x placements x sizes {1K, 64K, 4M}
    want=$(( $("$exe" list | grep -vc '(allreduce only)$') * 2 * 3 ))
    [ "$rows" -eq "$want" ] && ok || bad "3-rank $coll: $rows table rows, want $want"
    grep -v '^#' "$tmp/run" | awk '$NF != 0 { b++ } END { exit b > 0 }' && ok || bad "3-rank $coll: #wrong != 0"
    grep -v '^#' "$tmp/run" | awk '$1 == 1020 && $2 == 255 { n++ } END { exit n == 0 }' && ok ||
        bad "3-rank $coll: 1K not rounded to 1020 bytes (255 elements)"
    grep -q "^# command: ddlbench $coll " "$tmp/$coll.csv" && ok || bad "$coll CSV: no command line naming it"
    grep -v '^#' "$tmp/$coll.csv" | awk -F, 'NR > 1 && $12 > 0.05 { n++; r = $13 / $12; if (r < 0.66 || r > 0.67) b++ }
        END { exit n == 0 || b > 0 }' && ok || bad "$coll CSV: busbw/algbw is not (p-1)/p = 2/3"
done

report
