#!/bin/sh
# cli_train.sh — `ddlbench train`'s comparisons from the outside (rounds.h): --rounds out of range is
# bad input; two configurations on real MPI run 3 interleaved rounds by default (a "round k of 3" line
# after each, naming both), one configuration 1; the table's and the CSV's breakdown adds up (step =
# gemm + nongemm + exposed + sgd + other; compute + exposed + sgd <= step); the CSV and JSON carry
# rounds, samples, quartiles, IQR, vs_best_pct and significant (best / yes / no, NA alone or under 3
# samples), with a '#' line per row against the fastest; time to train beside the study's figure only
# at the study's image size (224), a labelled projection elsewhere; under simulation (when built) one
# round by default. Checks correctness, never speed. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
dir=$(cd "$(dirname "$0")" && pwd)
launch="sh $dir/../harness/scripts/mpilaunch.sh"
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
command -v python3 >/dev/null || { bad "python3 not found (the JSON checks need it)"; report; exit 1; }
rows() { grep -v '^#' "$1"; }

for v in 0 -1 33 x "" 2.5; do expect_status 2 train --rounds "$v"; done

# strong scaling (gbatch.h) on 2 real ranks: 5 images a step are 2 a GPU, 1 dropped and said; the CSV's batch the share
$launch 2 "$exe" train --global-batch 5 --image-size 32 -a ring --steps 1 --warmup 0 --csv "$tmp/gb.csv" >"$tmp/run" \
    2>&1 </dev/null
[ $? -eq 0 ] &&
    grep -q '^# global batch 5 over 2 GPUs: 2 per GPU, 1 image dropped (5 does not divide by 2; 4 a step) (strong' \
    "$tmp/run" && grep -q '^# global_batch: global batch 5 over 2 GPUs' "$tmp/gb.csv" &&
        grep -q '^resnet50,2,32,2,ring,' "$tmp/gb.csv" &&
    ok || bad "--global-batch 5 on 2 ranks: $(tail -n 3 "$tmp/run")"
# mixed precision (wire.h): fp16 and bf16 gradients really reduced by libddl on 3 real ranks, every summed
# value checked (--check: small integers, exact in either type), the wire type in the header and the CSV
for d in fp16 bf16; do
    $launch 3 "$exe" train --batch 1 --image-size 32 -a ring,rhd,mpi --steps 1 --warmup 0 --rounds 1 --bucket-mb 1 \
        --grad-dtype $d --check --csv "$tmp/$d.csv" >"$tmp/run" 2>&1 </dev/null
    [ $? -eq 0 ] && [ "$(grep -cE '^ +(ring|rhd|mpi) .* 0$' "$tmp/run")" -eq 3 ] && ok ||
        bad "$d --check: $(tail -n 3 "$tmp/run")"
    grep -q "^# gradients on the wire: $d: " "$tmp/run" && grep -q "^# grad_dtype: $d: " "$tmp/$d.csv" && ok ||
        bad "$d: no wire line in the header or the CSV"
done
"$exe" train --help | grep -q -- '--rounds N' && ok || bad "--help has no --rounds"

# two configurations, real MPI: 3 interleaved rounds by default
$launch 2 "$exe" train --batch 1 --image-size 32 -a ring,ddl --steps 3 --warmup 0 --csv "$tmp/a.csv" --json \
    "$tmp/a.json" \
    >"$tmp/run" 2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "train -a ring,ddl: $(tail -n 2 "$tmp/run")"
grep -q '^# ddlbench train: .* 0 warm-up + 3 timed steps x 3 rounds (interleaved' "$tmp/run" && ok ||
    bad "header: no 3 rounds"
[ "$(grep -cE '^# round [1-3] of 3, median step: ring/25 [0-9.]+ ms, ddl/25 [0-9.]+ ms$' "$tmp/run")" -eq 3 ] &&
    [ "$(grep '^# round' "$tmp/run" | cut -c1-9 | tr '\n' ' ')" = "# round 1 # round 2 # round 3 " ] && ok ||
    bad "round lines: $(grep '^# round' "$tmp/run")"
# the table: step = gemm + nongemm + exposed + sgd + other to rounding (6 cells of 0.005), compute + exposed + sgd <=
# step
awk '$1 == "ring" || $1 == "ddl" { n++; s = $9 + $10 + $12 + $13 + $14;
    if ((s - $4)^2 > 0.04^2 || $8 + $12 + $13 > $4 + 0.02) b++ }
     END { exit b || n != 2 }' "$tmp/run" && ok || bad "table: the parts do not add up to the step: $(grep -E \
         '^ +(ring|ddl) ' "$tmp/run")"
grep -qE '^ +(ring|ddl) .* best +[0-9.]+ +N/A$' "$tmp/run" &&
    grep -qE '^ +(ring|ddl) .* \+[0-9.]+%(\((ns)\))? +[0-9.]+ +N/A$' "$tmp/run" &&
    ok || bad "table: no vs_best marks: $(grep -E '^ +(ring|ddl) ' "$tmp/run")"
grep -qE '^#   (ring|ddl) 25 MB vs (ring|ddl) 25 MB: \+[0-9.]+ ms \(\+[0-9.]+%\): (significant|not significant) \(' \
    "$tmp/run" && ok ||
    bad "no comparison line: $(grep -A1 'against the fastest' "$tmp/run")"
python3 - "$tmp/a.json" "$tmp/a.csv" 2>"$tmp/py" <<'PY' && ok || bad "CSV/JSON fields: $(tail -n 1 "$tmp/py")"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 2
for r in rows:
    assert r["rounds"] == 3 and r["samples"] == 9, r
    assert r["step_ms_min"] <= r["step_ms_q1"] <= r["step_ms_median"] <= r["step_ms_q3"] <= r["step_ms_max"], r
    assert abs(r["step_ms_iqr"] - (r["step_ms_q3"] - r["step_ms_q1"])) < 2e-4, r
    parts = r["gemm_ms"] + r["nongemm_ms"] + r["exposed_ms"] + r["sgd_ms"] + r["other_ms"]
    assert abs(parts - r["step_ms_median"]) < 5e-4, (parts, r["step_ms_median"])
    assert r["compute_ms"] + r["exposed_ms"] + r["sgd_ms"] <= r["step_ms_median"] + 1e-3, r
sig = sorted(r["significant"] for r in rows)
assert sig[0] == "best" and sig[1] in ("yes", "no"), sig
best = [r for r in rows if r["significant"] == "best"][0]
other = [r for r in rows if r["significant"] != "best"][0]
assert best["vs_best_pct"] == 0 and other["vs_best_pct"] >= 0, (best["vs_best_pct"], other["vs_best_pct"])
assert abs(other["vs_best_pct"] - 100 * (other["step_ms_median"] / best["step_ms_median"] - 1)) < 0.01
hdr = [l for l in open(sys.argv[2]) if not l.startswith("#")][0].strip().split(",")
assert hdr[-7:] == ["rounds", "samples", "step_ms_q1", "step_ms_q3", "step_ms_iqr", "vs_best_pct",
                    "significant"], hdr[-7:]
PY
python3 "$dir/lib/json_vs_csv.py" "$tmp/a.json" "$tmp/a.csv" train >"$tmp/jv" 2>&1 && ok ||
    bad "JSON vs CSV: $(head -n 2 "$tmp/jv")"

# --rounds 2 and 1 step each: 2 samples, not assessed; one configuration: 1 round, nothing compared
$launch 2 "$exe" train --batch 1 --image-size 32 -a ring --bucket-mb 0,25 --steps 1 --warmup 0 --rounds 2 --csv \
    "$tmp/b.csv" \
    >"$tmp/run" 2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "train --rounds 2: $(tail -n 2 "$tmp/run")"
[ "$(grep -c '^# round [12] of 2' "$tmp/run")" -eq 2 ] && ok ||
    bad "--rounds 2: $(grep -c '^# round' "$tmp/run") round lines"
grep -qE '^#   ring (0|25) MB vs ring (0|25) MB: .*: not assessed \(under 3 timed steps; run more --steps\)$' \
    "$tmp/run" &&
    grep -qE '^ +ring .* \+[0-9.]+%\(NA\) ' "$tmp/run" && ok ||
        bad "2 samples: not marked NA: $(grep -E 'vs ring|^ +ring' "$tmp/run")"
rows "$tmp/b.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; if ($c["rounds"] != 2 || $c["samples"] != 2) b++; s[$c["significant"]]++ } END { exit b || n != 2 ||
        s["best"] != 1 || s["NA"] != 1 }' &&
    ok || bad "--rounds 2 CSV: $(rows "$tmp/b.csv" | cut -d, -f28-)"
$launch 1 "$exe" train --batch 1 --image-size 224 -a ring --steps 1 --warmup 0 --csv "$tmp/c.csv" >"$tmp/run" \
    2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "train at 224: $(tail -n 2 "$tmp/run")"
grep -q '^# ddlbench train: .* 1 timed steps x 1 round, compute full$' "$tmp/run" &&
    ! grep -q '^# round' "$tmp/run" && ok ||
    bad "one configuration: not 1 round: $(grep '^# ddlbench train' "$tmp/run")"
rows "$tmp/c.csv" | awk -F, 'NR == 2 { exit !($(NF - 1) == "NA" && $NF == "NA" && $(NF - 6) == 1) }' && ok ||
    bad "one configuration: vs_best_pct, significant not NA: $(rows "$tmp/c.csv" | tail -n 1 | cut -d, -f28-)"
grep -q '^# time to train: resnet50, 90 epochs of ImageNet-1K' "$tmp/run" &&
    grep -q '^#   ring   bucket   25 MB: .* GPU-hours   (study: 50 min on 256 GPUs)$' "$tmp/run" &&
        ! grep -q projection "$tmp/run" &&
    ok || bad "image 224: time to train not beside the study's: $(grep -A1 'time to train' "$tmp/run")"

# simulation: deterministic, one round by default
sim=$BUILD/sim/ddlbench-sim
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    mkdir -p "$tmp/p" && "$exe" platform --preset minsky --nodes 1 -o "$tmp/p" >/dev/null &&
        DDL_RANKS_PER_NODE=4 sh "$dir/../harness/scripts/simlaunch.sh" 4 "$tmp/p" "$sim" train --batch 1 \
            --image-size 32 \
            -a ring,ddl --steps 3 --warmup 0 --profile p100 --csv "$tmp/s.csv" >"$tmp/run" 2>&1 </dev/null
    [ $? -eq 0 ] && ok || bad "sim train: $(tail -n 2 "$tmp/run")"
    grep -q '^# ddlbench train: .* 3 timed steps x 1 round, compute full$' "$tmp/run" &&
        ! grep -q '^# round' "$tmp/run" && ok ||
        bad "simulation: not 1 round: $(grep '^# ddlbench train' "$tmp/run")"
else
    echo "# $sim or smpirun missing: the simulated run skipped"
fi
report
