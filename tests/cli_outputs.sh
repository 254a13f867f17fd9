#!/bin/sh
# cli_outputs.sh — the machine-readable outputs from the outside: `allreduce --json` (and reduce-scatter's,
# allgather's: kind = the collective) and `train --json`
# parsed with python3's json module and checked value by value against the CSV of the same run
# (tests/lib/json_vs_csv.py); --per-rank rows (one per rank under an "all" row); an unwritable --json
# path refused before any work (exit 2, one line); `ddlbench json` on good and bad input; a straggler
# injected with DDL_FAULT_INJECT=slow:RANK:MS flagged by train --per-rank and, through a 3-rank real
# sweep, in report.md, with scaling.json matching scaling.csv; the time-to-train lines and columns.
# The slow rank sleeps 5 s per step: on 2 shared cores at load 20-35 (and under ASan) a 32-pixel step's
# compute varies by a second or more between ranks, and the flag must not depend on a quiet machine. Prints "N passed, N
# failed".
. "$(dirname "$0")/lib/cli.sh"
dir=$(cd "$(dirname "$0")" && pwd)
launch="sh $dir/../harness/scripts/mpilaunch.sh"
check_json() { # JSON CSV KIND what
    if python3 "$dir/lib/json_vs_csv.py" "$1" "$2" "$3" >"$tmp/jv" 2>&1; then ok
        else bad "$4: $(head -n 3 "$tmp/jv")"; fi
}
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
command -v python3 >/dev/null || { bad "python3 not found (the JSON checks need it)"; report; exit 1; }

# allreduce: JSON = CSV, with and without --per-rank
$launch 2 "$exe" allreduce -a ring,mpi -b 1K -e 16K -f 4 -w 1 -n 3 --csv "$tmp/a.csv" --json "$tmp/a.json" >"$tmp/run" \
    2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "allreduce --json: $(tail -n 2 "$tmp/run")"
check_json "$tmp/a.json" "$tmp/a.csv" allreduce "allreduce JSON vs CSV"
[ ! -e "$tmp/a.json.tmp" ] && [ ! -e "$tmp/a.csv.tmp" ] && ok || bad "allreduce: .tmp left behind"
for coll in reduce-scatter allgather; do # the same schema; the kind names the collective
    $launch 2 "$exe" $coll -a rhd,ddl -b 1K -e 16K -f 4 -w 1 -n 3 --csv "$tmp/$coll.csv" --json "$tmp/$coll.json" \
        >"$tmp/run" 2>&1 </dev/null
    [ $? -eq 0 ] && ok || bad "$coll --json: $(tail -n 2 "$tmp/run")"
    check_json "$tmp/$coll.json" "$tmp/$coll.csv" $coll "$coll JSON vs CSV"
done
$launch 3 "$exe" allreduce -a ring -b 1K -e 4K -f 4 -w 1 -n 3 --per-rank --json "$tmp/p.json" --csv "$tmp/p.csv" \
    >"$tmp/run" 2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "allreduce --per-rank: $(tail -n 2 "$tmp/run")"
check_json "$tmp/p.json" "$tmp/p.csv" allreduce "allreduce --per-rank JSON vs CSV"
n=$(grep -v '^#' "$tmp/p.csv" | awk -F, 'NR > 1 { n[$17]++ } END { printf "%d %d %d %d", n["all"], n[0], n[1], n[2] }')
[ "$n" = "4 4 4 4" ] && ok || bad "allreduce --per-rank: rows per rank (all 0 1 2) = $n, want 4 each"
c=$(grep -c "^#   ranks' own medians: .*slowest rank [0-2] " "$tmp/run")
[ "$c" -eq 4 ] && ok || bad "allreduce --per-rank: $c spread lines, want 4"

# an unwritable --json path: exit 2, one line, before MPI (nothing written, no run)
$launch 2 "$exe" allreduce -a ring -b 1K -e 1K -n 2 -w 0 --json "$tmp/no/such.json" --csv "$tmp/ok.csv" >"$tmp/run" \
    2>"$tmp/err" </dev/null
st=$?
[ "$st" -eq 2 ] && [ ! -e "$tmp/ok.csv" ] && ! grep -q '^ ' "$tmp/run" && ok ||
    bad "allreduce unwritable --json: exit $st, want 2 and no run"
expect_status 2 train --json "$tmp/no/such.json"
expect_status 2 train --json
expect_status 2 allreduce --json

# train: JSON = CSV; a slow rank flagged by --per-rank; time to train
DDL_FAULT_INJECT=slow:1:5000 $launch 3 "$exe" train --batch 2 --image-size 32 --steps 3 --warmup 1 -a ring --per-rank \
    --csv "$tmp/t.csv" --json "$tmp/t.json" >"$tmp/run" 2>&1 </dev/null
[ $? -eq 0 ] && ok || bad "train --per-rank: $(tail -n 2 "$tmp/run")"
check_json "$tmp/t.json" "$tmp/t.csv" train "train JSON vs CSV"
grep -q "^#   ranks' own compute: .* slowest rank 1 .*; stragglers: 1$" "$tmp/run" && ok ||
    bad "train: slow rank 1 not flagged: $(grep ranks "$tmp/run")"
what="train JSON: per-rank rows, straggler flag or time to train"
python3 - "$tmp/t.json" 2>"$tmp/py" <<'PY' && ok || bad "$what: $(tail -n 1 "$tmp/py")"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
s = [r for r in rows if r["rank"] == "all"][0]
per = {r["rank"]: r for r in rows if r["rank"] != "all"}
assert sorted(per) == ["0", "1", "2"], per.keys()  # one type a column: rank holds "all", so text
assert s["slowest_rank"] == 1 and s["stragglers"] == 1 and per["1"]["stragglers"] == 1 and per["0"]["stragglers"] == 0
assert per["1"]["compute_ms"] > per["0"]["compute_ms"] + 2500, (per["1"]["compute_ms"], per["0"]["compute_ms"])
for k in rows[0]:  # every column one JSON type (null aside)
    assert len({"num" if type(r[k]) in (int, float) else type(r[k]).__name__ for r in rows if r[k] is not None}) <= 1, k
assert s["dataset"] == "ImageNet-1K" and s["epochs"] == 90 and s["dataset_images"] == 1281167
h = 90 * 1281167 / s["images_per_s"] / 3600
# images_per_s is printed to 0.01: the projection, made from the unrounded rate, agrees to that rounding
assert abs(s["time_to_train_h"] - h) <= (0.006 / s["images_per_s"] + 1e-4) * h, (s["time_to_train_h"], h)
assert abs(s["gpu_hours"] - 3 * s["time_to_train_h"]) <= 1e-3 * s["gpu_hours"]
PY
# a 32-pixel run: its time to train is labelled a projection of this configuration, not set beside the study's
grep -q '^# time to train, a projection of this configuration only (image 32, not the study.s 224' "$tmp/run" &&
    grep -q \
        '^# the study.s time): resnet50, 90 epochs of ImageNet-1K (1281167 images; .*no data loading, no evaluation' \
        "$tmp/run" &&
    grep -q '^#   ring   bucket   25 MB: .* GPU-hours   (projection at image 32)$' "$tmp/run" &&
        ! grep -q 'study: 50 min' "$tmp/run" && ok ||
    bad "train: time-to-train lines: $(grep 'time to train' -A2 "$tmp/run")"

# ddlbench json
expect_status 0 json "$tmp/t.csv" "$tmp/c.json"
check_json "$tmp/c.json" "$tmp/t.csv" t "ddlbench json (kind from the file name)"
printf 'a,b\n1,2,3\n' >"$tmp/bad.csv"
expect_status 2 json "$tmp/bad.csv" "$tmp/bad.json"
expect_status 2 json "$tmp/none.csv" "$tmp/x.json"
expect_status 2 json "$tmp/t.csv"
expect_status 2 json "$tmp/t.csv" "$tmp/no/such.json" # a bad output path is bad input (issue 48)
[ ! -e "$tmp/bad.json" ] && ok || bad "json: a bad CSV left bad.json"

# the sweep (real MPI, 1 and 3 ranks) with a slow rank: scaling.json = scaling.csv, report.md flags it
DDL_FAULT_INJECT=slow:2:5000 sh "$dir/../harness/scripts/sweep.sh" --backend mpi --nodes 1 --gpus-per-node 3 --models \
    resnet50:2 \
    --algos ring --build "$BUILD" --train-args "--image-size 32 --steps 3 --warmup 1" --out "$tmp/sw" -q \
        >"$tmp/run" 2>&1
[ $? -eq 0 ] && ok || bad "sweep: $(tail -n 3 "$tmp/run")"
check_json "$tmp/sw/scaling.json" "$tmp/sw/scaling.csv" scaling "scaling.json vs scaling.csv"
sh "$dir/../harness/scripts/report.sh" "$tmp/sw" >/dev/null 2>&1
grep -q '^| resnet50 | 3 | ring | 25 | \*\*1 flagged\*\* | 2 | ' "$tmp/sw/report.md" && ok ||
    bad "report.md: no straggler row for rank 2: $(sed -n '/## Stragglers/,/## Hardware/p' "$tmp/sw/report.md" | \
        tail -n 4)"
grep -q '^| resnet50 | 90 x ImageNet-1K | 3 | [0-9.]* [hd] ([0-9]*) | - (image 32) |$' "$tmp/sw/report.md" &&
    grep -q '^\*\*A projection of this configuration only:\*\* its images are 32x32' "$tmp/sw/report.md" && ok ||
    bad "report.md: time to train row: $(grep -A 8 '## Time to train' "$tmp/sw/report.md" | tail -n 2)"
[ "$(grep -vc '^#' "$tmp/sw/scaling.csv")" -eq 3 ] && ok || bad "scaling.csv: per-rank rows leaked into the merge"
report
