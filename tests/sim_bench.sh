#!/bin/sh
# sim_bench.sh (test) — harness/scripts/sim_bench.sh, the simulated allreduce against its link bound:
# on one simulated DGX H200 node at 1-4 MB it prints a ratio row per algorithm, size and placement,
# nccl-tests' "Avg bus bandwidth" line and the lowest ratio, each row beside its bound (one node: a GPU's
# NVLink) and busbw / bound, writes its CSV with --out, and the
# libddl context it ran used segments sized from the links (ddl_config.machine: 4 MiB on NVSwitch);
# bad options are one line and exit 2. Prints "N passed, N failed".
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0
ok() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    sh harness/scripts/sim_bench.sh --build "$BUILD" --nodes 1 --min-bytes 1M --max-bytes 4M --out "$tmp/o" \
        >"$tmp/out" 2>&1
    ok $? "sim_bench.sh --nodes 1 runs"
    [ "$(grep -cE '^ +1 +8 (ring|rhd|ddl) ' "$tmp/out")" = 12 ]
    ok $? "12 ratio rows (3 algorithms x 2 sizes x 2 placements)"
    grep -Eq '^# Avg bus bandwidth +: [0-9]+\.[0-9]+' "$tmp/out"; ok $? "nccl-tests' Avg bus bandwidth line"
    grep -Eq '^# lowest ratio at >= 64 MB' "$tmp/out"; [ $? -ne 0 ]
    ok $? "no >= 64 MB verdict when no size reached 64 MB"
    awk -F, 'NR > 1 { n++; if (!($8 > 0.5 && $8 < 2)) bad++ } END { exit n != 12 || bad }' "$tmp/o/sim_bench.csv"
    ok $? "sim_bench.csv: 12 rows with ratios between 0.5 and 2"
    awk -F, 'NR > 1 { n++; d = $11 - $9 / $10; if ($10 != 450 || d > 0.001 || d < -0.001) bad++ }
        END { exit n != 12 || bad }' "$tmp/o/sim_bench.csv"
    ok $? "sim_bench.csv: each row's bound is one node's NVLink (dgxh200's 450 GB/s) and of_bound = busbw / bound"
    grep -q '^# bound: busbw of a GPU.s link on one node (450 GB/s)' "$tmp/out"; ok $? "the bound is printed"
    mkdir -p "$tmp/p" && "$BUILD/ddlbench" platform --platform h200 --nodes 1 -o "$tmp/p" >/dev/null &&
        DDL_RANKS_PER_NODE=8 sh harness/scripts/simlaunch.sh 8 "$tmp/p" "$BUILD/sim/ddlbench-sim" allreduce -a ring \
            -b 1M -e 1M -w 0 -n 1 -c 0 --profile h200 --platform h200 >"$tmp/d" 2>&1
    grep -q 'segment=4194304' "$tmp/d" || grep -q 'segment=4194304' "$tmp/o/allreduce-1.csv"
    ok $? "the context's segment is sized from the NVSwitch links (4 MiB)"
    # the platform folder carries the machine (issue 48): sim.env names it, so the same run without
    # --platform sizes its segment from the same links and gives the same busbw; a platform file by path
    grep -qx 'DDL_SIM_PLATFORM=h200' "$tmp/p/sim.env" && grep -qx 'DDL_SIM_GPUS_PER_NODE=8' "$tmp/p/sim.env"
    ok $? "sim.env names the machine ($(tr '\n' ' ' <"$tmp/p/sim.env"))"
    DDL_RANKS_PER_NODE=8 sh harness/scripts/simlaunch.sh 8 "$tmp/p" "$BUILD/sim/ddlbench-sim" allreduce -a ring \
        -b 1M -e 1M -w 0 -n 1 -c 0 --profile h200 >"$tmp/d2" 2>&1
    grep -q 'segment=4194304' "$tmp/d2" && [ "$(grep -v '^#' "$tmp/d" | tail -n 1)" = "$(grep -v '^#' "$tmp/d2" | \
        tail -n 1)" ]
    ok $? "without --platform: the folder's links (segment 4 MiB, the same row)"
    "$BUILD/ddlbench" platform --export h200 -o "$tmp/m.platform" && mkdir -p "$tmp/pf" &&
        (cd "$tmp" && "$OLDPWD/$BUILD/ddlbench" platform --platform m.platform --nodes 1 -o pf >/dev/null)
    grep -qx "DDL_SIM_PLATFORM=$(cd "$tmp" && pwd -P)/m.platform" "$tmp/pf/sim.env" ||
        grep -qx "DDL_SIM_PLATFORM=$tmp/m.platform" "$tmp/pf/sim.env"
        ok $? "a platform file: its absolute path in sim.env"
    out=$(DDL_SIM_GPUS_PER_NODE=x DDL_SIM_PLATFORM=h200 "$BUILD/ddlbench" allreduce -b 1K -e 1K 2>&1); st=$?
    [ $st -eq 0 ]; ok $? "the real build ignores DDL_SIM_PLATFORM ($st)"
    printf 'DDL_SIM_PLATFORM=nosuch\n' >"$tmp/p/sim.env"
    out=$(DDL_RANKS_PER_NODE=8 sh harness/scripts/simlaunch.sh 2 "$tmp/p" "$BUILD/sim/ddlbench-sim" allreduce -a ring \
        -b 1K -e 1K -w 0 -n 1 -c 0 --profile h200 2>&1 | grep -v '^\[' | grep -c 'DDL_SIM_PLATFORM')
    [ "$out" -ge 1 ]; ok $? "an unknown platform in sim.env: refused, named"
else
    echo "# no $BUILD/sim/ddlbench-sim or smpirun: the simulated checks are skipped (make sim)"
fi
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --nodes 0 2>&1); st=$?
[ "$st" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- '--nodes'
ok $? "--nodes 0: one line, exit 2 ($out)"
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --bogus 1 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'unknown option'; ok $? "unknown option: exit 2"
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --platform nosuch 2>&1); st=$?
[ "$st" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ]; ok $? "unknown platform: one line, exit 2 ($out)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
