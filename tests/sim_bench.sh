#!/bin/sh
# sim_bench.sh (test) — harness/scripts/sim_bench.sh, the simulated allreduce against its link bound:
# on one simulated DGX H200 node at 1-4 MB it prints a ratio row per algorithm, size and placement,
# nccl-tests' "Avg bus bandwidth" line and the lowest ratio, each row beside its bound (one node: a GPU's
# NVLink) at line and achieved rates and busbw / each, writes its CSV with --out; on 2 custom nodes of 2
# GPUs the per-node NIC bounds (nic_bw and inter_bw platforms) and the best line at 256 MB; and the
# libddl context it ran used segments sized from the links (ddl_config.machine: 4 MiB on NVSwitch);
# bad options are one line and exit 2. Prints "N passed, N failed".
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0
ok() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# bounds_ok CSV ROWS LINE ACHIEVED: ROWS rows, each with bound_GBps LINE, achieved_bound_GBps ACHIEVED, and
# of_bound, of_achieved_bound busbw's fractions of them (columns found by name)
bounds_ok() {
    awk -F, -v rows="$2" -v bl="$3" -v ba="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; bw = $c["busbw_GBps"]; d1 = $c["of_bound"] - bw / bl; d2 = $c["of_achieved_bound"] - bw / ba
          if ($c["bound_GBps"] != bl || $c["achieved_bound_GBps"] != ba || d1 * d1 > 1e-6 || d2 * d2 > 1e-6) bad++ }
        END { exit n != rows || bad || !c["achieved_bound_GBps"] || !c["of_achieved_bound"] }' "$1"
}
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
    bounds_ok "$tmp/o/sim_bench.csv" 12 450 370
    ok $? "sim_bench.csv: each row's bounds are one node's NVLink (dgxh200: 450 GB/s line, 370 achieved), busbw / each"
    grep -q '^#   allreduce, NICs .* at line rates (GPU link 450 GB/s, NICs 400 GB/s)' "$tmp/out" &&
        grep -q 'at achieved rates (GPU link 370 GB/s, NICs 384 GB/s)' "$tmp/out"; ok $? "both rates are printed"
    awk '/^ +1 +8 / { n++; if (NF != 13 || $12 != "370.0") bad++ } END { exit n != 12 || bad }' "$tmp/out"
    ok $? "the table: the achieved bound and busbw's fraction of it beside each row"
    # across nodes (2 x 2 GPUs): NICs x N/(N-1) x (p-1)/p, 2 x 12.5 GB/s line and 2 x 10 achieved -> 37.5 and 30;
    # a platform whose node has one pipe (inter_bw) and no line rates: one bound, 20 x 2 x 3/4 = 30, twice; and the
    # best line at >= 256 MB names both fractions
    printf 'name = rl\ngpus_per_node = 2\nintra_lat = 2us\nintra_bw = 80GB/s\nintra_line_bw = 100GB/s\ninter_lat = 5us
nics = 2\nnic_bw = 10GB/s\nnic_line_bw = 12.5GB/s\n' >"$tmp/rl.platform"
    printf 'name = pipe\ngpus_per_node = 2\nintra_lat = 2us\nintra_bw = 80GB/s\ninter_lat = 5us\ninter_bw = 20GB/s\n' \
        >"$tmp/pipe.platform"
    for f in rl:37.5:30:256M pipe:30:30:1M; do
        set -- $(echo "$f" | tr : ' ')
        sh harness/scripts/sim_bench.sh --build "$BUILD" --platform "$tmp/$1.platform" --profile h100 --nodes 2 \
            --algos ring --min-bytes "$4" --max-bytes "$4" --out "$tmp/$1" >"$tmp/$1.out" 2>&1
        ok $? "sim_bench.sh --platform $1 --nodes 2 runs"
        bounds_ok "$tmp/$1/sim_bench.csv" 2 "$2" "$3"
        ok $? "$1: 2 nodes x 2 GPUs, the NIC bounds $2 (line) and $3 (achieved)"
    done
    re='^# best at >= 256 MB, 2 nodes: ring 268435456 B (in|out): busbw [0-9.]+ of bound 37.5 = [0-9.]+, '
    grep -Eq "${re}of achieved 30.0 = [0-9.]+$" "$tmp/rl.out"; ok $? "the best at >= 256 MB against both bounds"
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
out=$(sh harness/scripts/sim_bench.sh --help 2>&1); st=$?
[ "$st" = 0 ] && echo "$out" | grep -q -- '--partial-leaf' && echo "$out" | grep -q 'of_achieved_bound'
ok $? "--help: the options and the CSV's columns, exit 0"
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --nodes 0 2>&1); st=$?
[ "$st" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- '--nodes'
ok $? "--nodes 0: one line, exit 2 ($out)"
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --bogus 1 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'unknown option'; ok $? "unknown option: exit 2"
out=$(sh harness/scripts/sim_bench.sh --build "$BUILD" --platform nosuch 2>&1); st=$?
[ "$st" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ]; ok $? "unknown platform: one line, exit 2 ($out)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
