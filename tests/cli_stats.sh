#!/bin/sh
# cli_stats.sh — the command lines over the statistics and results layer: `ddlbench efficiency`
# (common/scaling.c) on two train CSVs, `ddlbench fidelity` (sim/fidelity.c) on synthetic runs,
# `ddlbench catalogue` (the published figures the reports read), and
# the one file reader behind them: a missing file, a FIFO (refused, not waited on) and a folder are
# one line and exit 2, a quoted CSV cell is one cell. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

H="model,algo,bucket_MB,ranks,batch,step_ms_median,step_ms_min,step_ms_max"
printf '%s\nresnet50,ddl,25,1,32,100,90,110\n' "$H" >"$tmp/one.csv"
printf '# 256 GPUs\n%s\n"resnet50",ddl,25,256,32,125,120,200\n' "$H" >"$tmp/many.csv"
out=$("$exe" efficiency "$tmp/one.csv" "$tmp/many.csv" 2>&1)
[ "$(echo "$out" | tail -n 1)" = "256,100.000,125.000,120.000,200.000,80.00,50.00,83.33" ] && ok ||
    bad "efficiency: $out"
mkfifo "$tmp/fifo"
expect_status 2 efficiency "$tmp/one.csv" "$tmp/fifo"
grep -q "fifo: not a regular file" "$tmp/err" && ok || bad "a FIFO: $(cat "$tmp/err")"
expect_status 2 efficiency "$tmp/one.csv" "$tmp/none.csv"
expect_status 2 efficiency "$tmp/one.csv" "$tmp"
expect_status 2 efficiency "$tmp/one.csv"
sed 's/,ddl,/,ring,/' "$tmp/one.csv" >"$tmp/ring.csv"
expect_status 2 efficiency "$tmp/ring.csv" "$tmp/many.csv" # no baseline row of the run's algo: one line

# fidelity: merge two runs (the mean of the two medians), report a point, the actions' refusals
A="size_B,algo,placement,ranks,time_us_median,time_us_min"
printf '%s\n1024,ring,out,2,10,9\n' "$A" >"$tmp/r1.csv"; printf '%s\n1024,ring,out,2,30,7\n' "$A" >"$tmp/r2.csv"
[ "$("$exe" fidelity merge "$tmp/r1.csv" "$tmp/r2.csv" | tail -n 1)" = "1024,ring,out,2,20,7,2" ] && ok ||
    bad "fidelity merge: $("$exe" fidelity merge "$tmp/r1.csv" "$tmp/r2.csv" 2>&1)"
printf 'kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct\n' >"$tmp/p.csv"
printf 'allreduce,1node,2,ring,1024,100,140,40.00,100,40.00\n' >>"$tmp/p.csv"
"$exe" fidelity report "$tmp/p.csv" | tail -n 1 |
    grep -q '(median/max %, \* = misses 15/35): allreduce-1node-2 40.0/40.0\*$' && ok ||
    bad "fidelity report: $("$exe" fidelity report "$tmp/p.csv" 2>&1 | tail -n 1)"
expect_status 2 fidelity comm-ratio "$tmp/r1.csv" "$tmp/r2.csv"
expect_status 2 fidelity nosuch "$tmp/p.csv"
expect_status 2 fidelity report
expect_status 2 fidelity report "$tmp/fifo"
expect_status 2 fidelity merge "$tmp/one.csv"
expect_status 2 fidelity join 1node "$tmp/none"
expect_status 0 fidelity --help

# catalogue: every entry, then only those comparable with a platform (a model and scale of which an
# entry runs on the platform's family); a catalogue entry with a comma in its label comes back quoted
"$exe" catalogue >"$tmp/cat.csv" &&
    [ "$(head -n 1 "$tmp/cat.csv")" = "entry,model,gpus,baseline,published_pct,hours,platforms,label" ] &&
    [ "$(grep -c . "$tmp/cat.csv")" -eq $(($(ls "$root/harness/sim/studies"/*.study | wc -l) + 1)) ] && ok ||
    bad "catalogue: $(head -n 2 "$tmp/cat.csv")"
"$exe" catalogue --platform bigbasin >"$tmp/bb.csv" &&
    grep -q '^01-ddl-resnet50,resnet50,256,4,95,0.833333,' "$tmp/bb.csv" &&
    grep -q '^03-goyal-resnet50,' "$tmp/bb.csv" && ! grep -q 'resnet101-22k\|horovod' "$tmp/bb.csv" && ok ||
    bad "catalogue --platform bigbasin: $(cat "$tmp/bb.csv")"
# the DGX family (dgxh200 beside dgxh100-mlperf): MLPerf's DGX runs only, none of the 2017 systems'
"$exe" catalogue --platform dgxh200 >"$tmp/dgx.csv" && [ "$(grep -vc '^entry,\|,MLPerf v[0-9.]* \(BERT \)\?DGX ' \
    "$tmp/dgx.csv")" -eq 0 ] &&
    grep -q '^13-mlperf30-dgxh100-8n,resnet50,64,8,65.7,' "$tmp/dgx.csv" &&
    grep -q '^17-mlperf30-bert-dgxh100-8n,bert-large,64,8,89.3,' "$tmp/dgx.csv" && ok ||
    bad "catalogue --platform dgxh200: MLPerf's DGX entries only: $(cat "$tmp/dgx.csv")"
mkdir -p "$tmp/cat" &&
    sed 's/^label = .*/label = A, "quoted" figure/' "$root/harness/sim/studies/03-goyal-resnet50.study" \
        >"$tmp/cat/x.study"
"$exe" catalogue --catalogue "$tmp/cat" | tail -n 1 | grep -q ',"A, ""quoted"" figure"$' && ok ||
    bad "catalogue: a label with a comma: $("$exe" catalogue --catalogue "$tmp/cat" 2>&1 | tail -n 1)"
expect_status 2 catalogue --catalogue "$tmp/none"
expect_status 2 catalogue --colour blue
report
