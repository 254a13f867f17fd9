#!/bin/sh
# cli_merge.sh — `ddlbench merge` and `ddlbench sweep-check` (harness/cli/cli_merge.c, cli_sweep.c): a
# sweep folder of raw CSVs (from `ddlbench model --train`) merged into scaling.csv and scaling.json,
# the efficiencies against 1 GPU and 1 node, provenance; a malformed raw CSV refused with one line,
# exit 2 and nothing written; sweep-check's limits, make names and plan. Prints "N passed, N failed".
BUILD=${BUILD:-build}
exe=$BUILD/ddlbench
passed=0; failed=0
ok() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
S="--backend model --nodes 2 --gpus-per-node 2 --models resnet50:8 --algos ring,ddl"

mkdir -p "$tmp/s/raw"
for g in 1 2 4; do
    nn=$(( g > 2 ? g / 2 : 1 )); gp=$(( g > 2 ? 2 : g ))
    "$exe" model --train --model resnet50 --batch 8 -a ring,ddl --preset minsky --nodes "$nn" --gpus-per-node "$gp" \
        --override-platform \
        --csv "$tmp/s/raw/resnet50-$g.csv" >/dev/null || ok 1 "model --train at $g GPUs"
done
"$exe" merge $S --command "sh harness/scripts/sweep.sh $S" "$tmp/s" 2>"$tmp/err"
ok $? "merge: exit 0 ($(cat "$tmp/err"))"
csv=$tmp/s/scaling.csv
[ "$(head -n 1 "$csv")" = "# run: s" ] &&
    grep -q '^# sweep_command: sh harness/scripts/sweep.sh --backend model' "$csv" &&
    grep -q '^# launch_command: ddlbench model --train .*resnet50-4.csv' "$csv"
    ok $? "provenance: the sweep's, then the largest launch's"
rows=$(grep -v '^#' "$csv")
[ "$(echo "$rows" | wc -l)" -eq 7 ]; ok $? "a header and 6 rows"
echo "$rows" | grep -q '^model,minsky,resnet50,8,224,1,1,1,ring,25,.*,1\.0000,NA,NA,NA,NA,' 
ok $? "1 GPU: eff 1, no node efficiency, nothing checked (wrong NA)"
echo "$rows" | grep -q '^model,minsky,resnet50,8,224,2,1,2,ddl,25,.*,0\.[0-9]\{4\},1\.0000,NA,' 
ok $? "1 node: eff_vs_1node 1"
echo "$rows" | grep -q '^model,minsky,resnet50,8,224,4,2,2,ring,25,.*,0\.[0-9]\{4\},0\.[0-9]\{4\},NA,' ; ok $? "2 nodes"
# the efficiency by hand: images_per_s at 4 GPUs over 4 x images_per_s at 1 (column 23)
want=$(echo "$rows" | awk -F, '$9 == "ring" && $6 == 1 { x1 = $23 } $9 == "ring" && $6 == 4 { x4 = $23; e = $24 }
    END { printf "%s %.4f\n", e, x4 / (4 * x1) }')
[ "${want% *}" = "${want#* }" ]; ok $? "eff_vs_1gpu = X(4) / (4 X(1)) ($want)"
[ -s "$tmp/s/scaling.json" ] && grep -q '"kind":[[:space:]]*"scaling"' "$tmp/s/scaling.json"
ok $? "scaling.json beside it"

# placement (issue 48): on an allocation (DDL_LAUNCHER not mpilaunch.sh) each launch's "# placement:"
# against its intended nodes x GPUs per node; a launch placed otherwise is flagged (stderr and a
# placement_check line); on this machine (mpilaunch.sh) nothing is compared
M="--backend mpi --nodes 2 --gpus-per-node 2 --models resnet50:8 --algos ring,ddl"
place() { # 1-GPU 2-GPU 4-GPU placements -> $tmp/p/raw
    rm -rf "$tmp/p"; mkdir -p "$tmp/p/raw"; i=0
    for g in 1 2 4; do i=$((i + 1)); eval "pl=\${$i}"
        sed "2i # placement: $pl" "$tmp/s/raw/resnet50-$g.csv" >"$tmp/p/raw/resnet50-$g.csv"; done
}
place "1 host x 1 rank" "1 host x 2 ranks" "2 hosts x 2 ranks"
DDL_LAUNCHER=srun "$exe" merge $M "$tmp/p" 2>"$tmp/err"; st=$?
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^# placement_check: 3 launches as intended$' "$tmp/p/scaling.csv"
ok $? "placement as intended: no warning, placement_check says so ($st: $(cat "$tmp/err"))"
place "1 host x 1 rank" "2 hosts x 1 rank" "4 hosts x 1 rank"
mismatch='^# placement_check: MISMATCH 2 of 3 launches: resnet50-2.csv 2 hosts x 1 rank, intended 1 host x 2 ranks; '
DDL_LAUNCHER=srun "$exe" merge $M "$tmp/p" 2>"$tmp/err"; st=$?
[ $st -eq 0 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] &&
    grep -q '^ddlbench merge: resnet50-4.csv: ranks on 4 hosts x 1 rank, intended 2 hosts x 2 ranks' "$tmp/err" &&
    grep -q "$mismatch"'resnet50-4.csv 4 hosts x 1 rank, intended 2 hosts x 2 ranks$' "$tmp/p/scaling.csv"
ok $? "placement spread one rank a node: flagged ($st: $(cat "$tmp/err"))"
# a platform given under mpi (issue 48 item 2): scaling.csv names it; GPUs per node other than its own refused
DDL_LAUNCHER=srun "$exe" merge $M --platform minsky --override-platform "$tmp/p" 2>/dev/null
grep -q "^# platform: minsky (real MPI: its links drive auto and libddl's segments), launcher: srun$" \
    "$tmp/p/scaling.csv"; ok $? "mpi with a platform: scaling.csv names it"
"$exe" merge $M --platform minsky "$tmp/p" 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q 'platform minsky has 4 GPUs per node, got 2' "$tmp/err"
ok $? "mpi: minsky's 4 GPUs vs 2: exit 2 ($st)"
DDL_LAUNCHER=mpilaunch.sh "$exe" merge $M "$tmp/p" 2>"$tmp/err"; st=$?
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && ! grep -q placement_check "$tmp/p/scaling.csv"
ok $? "this machine: nothing compared"

# bad input: a malformed raw CSV, a missing folder, no CSVs: exit 2, one line, nothing written
mkdir -p "$tmp/b/raw" "$tmp/e/raw"
cp "$tmp/s/raw/resnet50-1.csv" "$tmp/b/raw/" && echo "resnet50,8,224" >>"$tmp/b/raw/resnet50-1.csv"
for d in "$tmp/b" "$tmp/nosuch" "$tmp/e"; do
    "$exe" merge $S "$d" 2>"$tmp/err"; st=$?
    [ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ! ls "$d"/scaling.* >/dev/null 2>&1
    ok $? "merge $d: exit $st, $(cat "$tmp/err")"
done
"$exe" merge $S "$tmp/b" 2>&1 | grep -q 'resnet50-1.csv: line [0-9]*: 3 cells, expected [0-9]* (the header'"'"'s)$'
ok $? "the message names the file, the line and the cells"
"$exe" merge $S 2>/dev/null; [ $? -eq 2 ]; ok $? "merge without DIR: exit 2"

# sweep-check: quiet when fine; one line naming the option (the make variable with --make)
out=$("$exe" sweep-check $S 2>&1); ok $? "sweep-check of a good sweep: exit 0"
[ -z "$out" ]; ok $? "... and silent"
out=$("$exe" sweep-check --nodes 4097 2>&1); st=$?
[ $st -eq 2 ] && [ "$out" = 'ddlbench sweep-check: --nodes: expected an integer in 1..4096, got "4097"' ]
ok $? "--nodes 4097: $out"
out=$("$exe" sweep-check --make --algos ring,nosuch 2>&1); st=$?
[ $st -eq 2 ] && [ "$out" = 'ddlbench sweep-check: ALGOS: unknown algorithm "nosuch" (see ddlbench list)' ]
ok $? "--make: $out"
"$exe" sweep-check --backend model --nodes 65536 --gpus-per-node 1 >/dev/null 2>&1; ok $? "model: 65536 nodes of 1"
plan=$("$exe" sweep-check --plan $S); ok $? "--plan"
[ "$(echo "$plan" | head -n 1 | cut -d' ' -f1,3-)" = "0 resnet50 8 1 1 1 0" ] && [ "$(echo "$plan" | wc -l)" -eq 3 ]
ok $? "--plan: the baseline first, 3 launches ($(echo "$plan" | tr '\n' ';'))"
"$exe" sweep-check --usage | grep -q -- '--nodes N .*1\.\.4096'; ok $? "--usage: sweep.sh's options with the limits"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
