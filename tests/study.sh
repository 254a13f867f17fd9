#!/bin/sh
# study.sh — `ddlbench study`: bad options are one line and exit 2; every band is ordered and moves
# the right way with each unknown (overlap on >= off, 2 ports >= 1 port); report.md and study.csv
# are written; and the closed-form step model agrees with the simulator (SMPI) within 3% at 8 GPUs
# (2 Minsky nodes), overlap off and on. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

expect_status 2 study --gpus 7
expect_status 2 study --gpus x
expect_status 2 study --profile nosuch
expect_status 2 study --platform-dir /nonexistent
expect_status 2 study --out /nonexistent/dir/x
expect_status 0 study --help
expect_status 0 study --out "$tmp/s"
[ -s "$tmp/s/report.md" ] && grep -q "published 95% inside the band\|published 95% OUTSIDE the band" "$tmp/s/report.md" && ok || bad "report.md written"
grep '^# band' "$tmp/out" | awk '{ split($3, b, "-"); sub(/%,/, "", b[2]); if (b[1] + 0 > b[2] + 0) bad = 1 } END { exit bad || NR != 3 }' && ok ||
    bad "three bands, each low <= high: $(grep '^# band' "$tmp/out" | head -n 1)"
csv=$tmp/s/study.csv
awk -F, '!/^#/ && NR > 2 { e[$5 "," $6] = $12; fig[$5] = 1 }
    END { for (p in fig) if (e[p ",on"] + 0 < e[p ",off"] + 0) exit 1
          if (e["minsky2017-2port,off"] + 0 < e["minsky2017-1port,off"] + 0) exit 1 }' "$csv" && ok ||
    bad "overlap on >= off and 2 ports >= 1 port"

# the model against the simulator at 8 GPUs (2 nodes x 4), ResNet-50 batch 32, ddl, buckets 0 and 25
sim=$BUILD/sim/ddlbench-sim
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    "$exe" study --gpus 8 --out "$tmp/s8" >/dev/null || bad "study --gpus 8"
    mkdir -p "$tmp/p" && "$exe" platform --preset "$root/harness/sim/platforms/minsky2017-1port.platform" --nodes 2 -o "$tmp/p" >/dev/null
    DDL_RANKS_PER_NODE=4 sh "$root/harness/scripts/simlaunch.sh" 8 "$tmp/p" "$sim" train --model resnet50 --batch 32 \
        -a ddl --bucket-mb 0,25 --steps 1 --warmup 1 --profile p100 --csv "$tmp/sim.csv" >"$tmp/sim.out" 2>&1 ||
        bad "simulated 8-GPU run: $(tail -n 1 "$tmp/sim.out")"
    for b in 0 25; do
        ov=off; [ "$b" = 25 ] && ov=on
        s=$(awk -F, -v b="$b" '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } $c["bucket_MB"] == b { print $c["step_ms_median"] }' "$tmp/sim.csv")
        m=$(awk -F, -v o="$ov" '$2 == "resnet50" && $4 == "ddl" && $5 == "minsky2017-1port" && $6 == o { print $10 }' "$tmp/s8/study.csv")
        awk -v s="$s" -v m="$m" 'BEGIN { d = (m - s) / s; if (d < 0) d = -d; exit !(s > 0 && d <= 0.03) }' && ok ||
            bad "model vs simulator, overlap $ov: model $m ms, sim $s ms"
    done
else
    echo "SKIP: model against the simulator (no $sim or smpirun)"
fi
report
