#!/bin/sh
# run_outputs.sh — a run's outputs fit the run (issue 24): on today's platform (dgxh200, modelled) the
# run's own allreduce sweep (harness/scripts/run_allreduce.sh: allreduce.csv, in- and out-of-place per
# algorithm, busbw = algbw x 2(p-1)/p) is what the busbw chart draws; the 2017 study's figures appear
# only on a 2017 platform at 256 GPUs (summary.sh, report.md, the efficiency chart's points); GPUs per
# node and the profile come from the platform (scaling.csv's provenance); a simulated run's sweep too;
# REALISM=study (issue 25): the second sweep with the catalogue's effects and both tables in report.md.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
sweep() { sh "$root/harness/scripts/sweep.sh" --build "$BUILD" --models resnet50:32 -q "$@" >"$tmp/log" 2>&1; }

# today's platform, modelled: 2 nodes of 8 H200, the platform's own shape and GPU
sweep --backend model --platform dgxh200 --nodes 2 --algos ring,rhd,ddl --out "$tmp/h" && ok ||
    bad "model sweep: $(tail -n 1 "$tmp/log")"
grep -q '^# gpus_per_node: 8$' "$tmp/h/scaling.csv" && grep -q '^# profile: h200$' "$tmp/h/scaling.csv" && ok ||
    bad "dgxh200: 8 GPUs per node and profile h200 from the platform"
BUILD=$BUILD sh "$root/harness/scripts/run_allreduce.sh" "$tmp/h" >"$tmp/o" 2>&1 && ok ||
    bad "run_allreduce: $(cat "$tmp/o")"
csv=$tmp/h/allreduce.csv
[ "$(grep -vc '^#' "$csv")" -eq $((1 + 3 * 6 * 2)) ] && ok ||
    bad "allreduce.csv: a header and 3 algos x 6 sizes x in/out"
awk -F, '!/^#/ && !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } !/^#/ {
    if ($c["ranks"] != 16) bad = 1
    want = $c["size_B"] / ($c["time_us_median"] * 1e3) * 2 * 15 / 16
    d = $c["busbw_GBps"] - want; if (d < 0) d = -d; if (d > 1e-3 + 1e-3 * want) bad = 1 }
    END { exit bad }' "$csv" && ok || bad "allreduce.csv: 16 ranks, busbw = algbw x 2(p-1)/p"
# the cost model's own time at one size
want=$("$exe" model cost --algo ddl --platform dgxh200 --nodes 2 --bytes 4194304 | awk '!/^#/ { print $2 }')
grep -q "^4194304,ddl,out,16,$(printf '%.3f' "$want")," "$csv" && ok ||
    bad "allreduce.csv: ddl at 4 MiB is model cost's $want us"
sh "$root/plots/plots.sh" "$tmp/h" >"$tmp/o" 2>&1; st=$?
if command -v gnuplot >/dev/null 2>&1; then
    [ $st -eq 0 ] && [ -s "$tmp/h/busbw.svg" ] && grep -q "allreduce.csv" "$tmp/h/busbw.svg" &&
        ! grep -q "make bench" "$tmp/h/busbw.svg" &&
        ok || bad "busbw chart: the run's allreduce.csv, no make-bench caveat ($(tail -n 1 "$tmp/o"))"
    ! grep -q "DDL ResNet" "$tmp/h/efficiency.svg" && ok || bad "efficiency chart of dgxh200: no published points"
fi
sh "$root/harness/scripts/summary.sh" "$tmp/h/scaling.csv" "$exe" | grep -v '^#' | grep -q 'DDL ResNet' &&
    bad "summary: the study on dgxh200" || ok
sh "$root/harness/scripts/report.sh" "$tmp/h" "$exe" >/dev/null &&
    ! grep -q '% | DDL ResNet' "$tmp/h/report.md" && ok ||
    bad "report.md of dgxh200: no study figures in the table"
grep -q '^Compute mode: full: GEMMs' "$tmp/h/report.md" && ok ||
    bad "report.md of a model run: the compute mode it ran (full)"
# issue 47: today's platform gets advise --limit 90's table, weak scaling said; a strong-scaling sweep says so,
# each point at its share of the global batch, per-GPU efficiency against the smallest run in the table
grep -q "^## How far it scales (today's platform" "$tmp/h/report.md" && grep -qE '^ +rhd +(>=)?[0-9]+ \(' \
    "$tmp/h/report.md" &&
    grep -q '^Scaling: weak' "$tmp/h/report.md" && ok || bad "report.md of dgxh200: no advise --limit table"
sweep --backend model --platform dgxh100 --nodes 2 --algos rhd --global-batch 64 --out "$tmp/g" && ok ||
    bad "GLOBAL_BATCH: $(tail -n 1 "$tmp/log")"
grep -q '^model,dgxh100,resnet50,4,224,16,2,8,rhd,' "$tmp/g/scaling.csv" &&
    grep -q '^model,dgxh100,resnet50,64,224,1,1,1,rhd,' "$tmp/g/scaling.csv" && ok ||
        bad "GLOBAL_BATCH 64: 4 a GPU at 16"
sh "$root/harness/scripts/report.sh" "$tmp/g" "$exe" >/dev/null && grep -q '^Scaling: strong (global batch 64 over 16' \
    "$tmp/g/report.md" && grep -q 'advise --limit 90: resnet50, global batch 64 (strong' "$tmp/g/report.md" && ok ||
    bad "report.md of a strong-scaling run"

# the 2017 platform at 256 GPUs: the study beside the run, and at 8 GPUs not
sweep --backend model --platform minsky --nodes 64 --algos ddl --out "$tmp/m" && ok ||
    bad "minsky 256: $(tail -n 1 "$tmp/log")"
sh "$root/harness/scripts/summary.sh" "$tmp/m/scaling.csv" "$exe" |
    grep -q 'resnet50 .* 256 .*DDL ResNet-50 (Caffe) 95%, Facebook ResNet-50 (Goyal) 89%; 50 min, 1.0 h (256 GPUs)$' &&
    ok || bad "summary: minsky at 256 GPUs shows the catalogue's figures"
sh "$root/harness/scripts/report.sh" "$tmp/m" "$exe" >/dev/null &&
    grep -q '| resnet50 | 256 | ddl (α-β-γ model) | .* | DDL ResNet-50 (Caffe) 95%, Facebook ResNet-50 (Goyal) 89% |$' \
        "$tmp/m/report.md" && ok || bad "report.md of minsky at 256 GPUs: the catalogue's figures in the table"
sweep --backend model --platform minsky --nodes 2 --algos ddl --out "$tmp/m2" && ok ||
    bad "minsky 8: $(tail -n 1 "$tmp/log")"
sh "$root/harness/scripts/summary.sh" "$tmp/m2/scaling.csv" "$exe" | grep -q 'DDL ResNet' &&
    bad "summary: the study at 8 GPUs" || ok

# bad input: GPUs per node or a profile other than the platform's, one line and exit 2, nothing run
sweep --backend model --platform dgxh200 --nodes 2 --gpus-per-node 4 --algos ddl --out "$tmp/x"; st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$tmp/log")" -eq 1 ] && grep -q 'platform dgxh200 has 8 GPUs per node' "$tmp/log" &&
    [ ! -e "$tmp/x" ] && ok || bad "--gpus-per-node 4 on dgxh200: exit $st, $(cat "$tmp/log")"
sweep --backend model --platform dgxh200 --nodes 2 --profile h100 --algos ddl --out "$tmp/x"; st=$?
[ $st -eq 2 ] && grep -q 'has h200 GPUs' "$tmp/log" && ok ||
    bad "--profile h100 on dgxh200: exit $st, $(cat "$tmp/log")"
sweep --backend model --platform dgxh200 --nodes 2 --gpus-per-node 4 --override-platform --algos ddl --out "$tmp/o4" &&
    grep -q '^# gpus_per_node: 4$' "$tmp/o4/scaling.csv" && grep -q 'gpus_per_node_from: --override' \
        "$tmp/o4/scaling.csv" &&
    ok || bad "--override-platform: 4 per node, recorded ($(tail -n 1 "$tmp/log"))"

# a simulated run's own sweep: 1 node of 4 GPUs of a rail-aligned file
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    "$exe" platform --export dgxh100 -o "$tmp/d.platform" >/dev/null && sed -i 's/^leaf_nodes = 32/leaf_nodes = 1/' \
        "$tmp/d.platform"
    sweep --backend sim --platform "$tmp/d.platform" --nodes 1 --gpus-per-node 4 --override-platform --algos ring,ddl \
        --train-args "--steps 1 --warmup 0 --image-size 32" --out "$tmp/s" && ok ||
            bad "sim sweep: $(tail -n 1 "$tmp/log")"
    BUILD=$BUILD sh "$root/harness/scripts/run_allreduce.sh" "$tmp/s" >"$tmp/o" 2>&1 &&
        [ "$(grep -vc '^#' "$tmp/s/allreduce.csv")" -eq $((1 + 2 * 6 * 2)) ] &&
        awk -F, '!/^#/ && !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } !/^#/ &&
            ($c["ranks"] != 4 || $c["wrong"] != "NA") { b = 1 } END { exit b }' \
            "$tmp/s/allreduce.csv" && ok || bad "simulated run_allreduce: $(cat "$tmp/o")"
    awk -F, '!/^#/ && !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        !/^#/ && ($c["copy_GBps"] != "NA" || $c["busbw_over_copy"] != "NA") { b = 1 } END { exit b }' \
        "$tmp/s/allreduce.csv" && ok || bad "simulated: copy and bus/copy NA (a simulated memcpy takes no time)"
    # above AR_SIM_MAX ranks the model's rows, said so (issue 48 item 4: the 256-rank simulation cost minutes)
    AR_SIM_MAX=2 BUILD=$BUILD sh "$root/harness/scripts/run_allreduce.sh" "$tmp/s" >"$tmp/o" 2>&1 &&
        grep -q '^# source: ddlbench model cost (alpha-beta-gamma model, not simulated: 4 ranks is over AR_SIM_MAX=2' \
            "$tmp/s/allreduce.csv" && [ "$(grep -vc '^#' "$tmp/s/allreduce.csv")" -eq $((1 + 2 * 6 * 2)) ] &&
        ok || bad "AR_SIM_MAX=2: the model's rows, said so ($(cat "$tmp/o"))"
    AR_SIM_MAX=x BUILD=$BUILD sh "$root/harness/scripts/run_allreduce.sh" "$tmp/s" >"$tmp/o" 2>&1; st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$tmp/o")" -eq 1 ] && ok || bad "AR_SIM_MAX=x: exit $st ($(cat "$tmp/o"))"
    grep -v '^#' "$tmp/s/raw/resnet50-4.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["wrong"] != "NA" { b = 1 } END { exit b }' && ok || bad "train without --check: wrong NA"
fi
# a sweep explains itself (issue 27): each failed launch's one-line reason on the screen and at the end
# of its log, the launches that fit still run, a table of failures last, exit 1
if [ -x "$BUILD/sim/ddlbench-sim" ] && command -v smpirun >/dev/null 2>&1; then
    sh "$root/harness/scripts/sweep.sh" --build "$BUILD" --models resnet50:32 --nodes 3 --algos ddl \
        --train-args "--grid 4x2 --steps 1 --warmup 0 --image-size 32" --out "$tmp/f" >"$tmp/log" 2>&1; st=$?
    [ $st -eq 1 ] && ok || bad "a sweep with failed launches: exit 1 (got $st)"
    reason='^sweep.sh: resnet50 at 4 GPUs failed (exit 2): ddlbench train: ddl: grid 4x2 has 8 ranks but the '
    grep -q "$reason"'communicator has 4' "$tmp/log" && ok ||
        bad "the failed launch's reason on the screen: $(head -n 3 "$tmp/log")"
    tail -n 1 "$tmp/f/raw/resnet50-1.log" | grep -q '^# sweep.sh: failed (exit 2): ddlbench train: ddl: grid 4x2' &&
        ok ||
        bad "the reason at the end of raw/resnet50-1.log"
    [ -s "$tmp/f/raw/resnet50-8.csv" ] && grep -q '^sim,minsky,resnet50,32,32,8,' "$tmp/f/scaling.csv" && ok ||
        bad "the 8-GPU launch, which fits, still ran"
    grep -A3 '^sweep.sh: 3 of 4 launches failed:' "$tmp/log" | awk 'NR > 1 { print $2 }' | tr '\n' ' ' |
        grep -qx '1 4 12 ' &&
        ok || bad "the table of failures, by GPU count: $(grep -A3 'launches failed' "$tmp/log")"
fi
# issue 25: REALISM=study runs the sweep again with the catalogue's effects into RUN/realism; report.md
# shows the closest catalogue entries and both tables; the values are the Horovod entries' own
cyc=$(sed -n 's/^real_train="--cycle-ms \([0-9.]*\) --jitter \([0-9.]*\).*/\1 \2/p' \
    "$root/harness/scripts/make_run.sh")
for f in "$root"/harness/sim/studies/*.study; do
    c=$(sed -n 's/^cycle_ms = //p' "$f"); j=$(sed -n 's/^jitter_pct = //p' "$f")
    [ -z "$c$j" ] || [ "$c $j" = "$cyc" ] || bad "make_run.sh's real_train ($cyc) against $(basename "$f") ($c $j)"
done
[ -n "$cyc" ] && ok || bad "real_train in make_run.sh: --cycle-ms and --jitter"
make -s -C "$root" run BACKEND=model NODES=4 MODELS=resnet50:32 ALGOS=ring,ddl REALISM=study OUT="$tmp/real" \
    BUILD="$BUILD" >"$tmp/log" 2>&1 && ok || bad "make run REALISM=study: $(tail -n 2 "$tmp/log")"
grep -q '^# framework: cycles of 5 ms' "$tmp/real/realism/scaling.csv" &&
    grep -q '^# jitter: 0.2%' "$tmp/real/realism/scaling.csv" &&
    ! grep -q '^# framework' "$tmp/real/scaling.csv" && ok ||
        bad "the realism sweep carries its effects, the ideal one none"
grep -q '^## With the non-ideal effects (REALISM=study)' "$tmp/real/report.md" &&
    grep -q '^| resnet50 | 16 | ring | [0-9.]*% | [0-9.]*% |' "$tmp/real/report.md" && ok ||
    bad "report.md: ideal beside the run with effects"
grep -q '^| resnet50 | DDL ResNet-50 (Caffe) 95% (01-ddl-resnet50) | minsky | 256 | 4 | 95% | [0-9.]*-[0-9.]*% | - |' \
    "$tmp/real/report.md" && ok || bad "report.md: the closest catalogue entry (minsky family)"
make -s -C "$root" run BACKEND=mpi REALISM=study OUT="$tmp/realmpi" BUILD="$BUILD" >"$tmp/log" 2>&1; st=$?
[ $st -ne 0 ] && grep -q '^REALISM=study: the modelled effects are for BACKEND=sim or model' "$tmp/log" &&
    [ ! -e "$tmp/realmpi" ] &&
    ok || bad "REALISM=study with BACKEND=mpi: refused before any work (exit $st: $(tail -n 1 "$tmp/log"))"
report
