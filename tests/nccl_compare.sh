#!/bin/sh
# nccl_compare.sh (test) — make nccl-compare's script at few points: the Azure A100 entry simulated at
# 1 and 2 MiB (8 simulated ranks, seconds), every larger point the model's and said so; compare.csv,
# report.md and the machine's gnuplot script written; the simulation and the α-β-γ model agree within
# 10% at the simulated points; err_pct is predicted / published - 1. Bad options: one line, exit 2.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0
ok() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
E=azure-nd-a100-v4
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    sh harness/scripts/nccl_compare.sh --build "$BUILD" --entries $E --min-bytes 1M --max-bytes 2M \
        --out "$tmp/o" >"$tmp/out" 2>&1
    ok $? "nccl_compare.sh runs ($(tail -1 "$tmp/out"))"
    for f in compare.csv report.md dgxa100.gp sim/dgxa100-1n-nccl-ring.csv; do
        [ -s "$tmp/o/$f" ]; ok $? "$f written"
    done
    c=$tmp/o/compare.csv
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { b = $c["size_B"]; by = $c["predicted_by"]
          if ((b <= 2097152) != (by == "simulated")) bad++
          e = 100 * ($c["predicted_GBps"] / $c["published_GBps"] - 1);
              if (e - $c["err_pct"] > 0.05 || $c["err_pct"] - e > 0.05) bad++
          n++ }
        END { exit n != 14 || bad }' "$c"
    ok $? "14 points from 1 MiB, 1-2 MiB simulated, the rest the model's; err_pct = predicted / published - 1"
    "$BUILD/ddlbench" nccl-compare --entries $E --min-bytes 1M --out "$tmp" >/dev/null 2>&1 &&
        mv "$tmp/compare.csv" "$tmp/m.csv"
    ok $? "the model's comparison"
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        FNR == NR { m[$c["size_B"]] = $c["predicted_GBps"]; next }
        $c["predicted_by"] == "simulated" { n++; r = $c["predicted_GBps"] / m[$c["size_B"]];
            if (r < 0.9 || r > 1.1) bad++ }
        END { exit n != 2 || bad }' "$tmp/m.csv" "$c"
    ok $? "simulation and model agree within 10% at the simulated points"
    grep -q '^\*\*Summary\*\*: >= 1 MiB: [0-9]* of 14 points within 15%' "$tmp/o/report.md"; ok $? "report.md's summary"
else
    echo "# no $BUILD/sim/ddlbench-sim or smpirun: the simulated checks are skipped (make sim)"
fi
for bad in "--max-bytes 0" "--max-bytes x" "--bogus 1"; do
    out=$(sh harness/scripts/nccl_compare.sh --build "$BUILD" $bad 2>&1); st=$?
    [ "$st" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ]; ok $? "$bad: one line, exit 2 ($out)"
done
out=$(sh harness/scripts/nccl_compare.sh --build "$BUILD" --entries nosuch --out "$tmp/x" 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q -- '--entries' && [ ! -e "$tmp/x" ]
ok $? "--entries nosuch: exit 2, nothing made ($out)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
