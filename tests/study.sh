#!/bin/sh
# study.sh — `ddlbench study`: bad options are one line and exit 2; every band is ordered and moves
# the right way with each unknown (overlap on >= off, 2 ports >= 1 port); report.md and study.csv
# are written; and the closed-form step model agrees with the simulator (SMPI) within 3% at 8 GPUs
# (2 Minsky nodes), overlap off and on; the time to train at each band's ends and centre (stdout,
# report.md, study.csv). Prints "N passed, N failed".
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
nfig=$(ls "$root"/harness/sim/studies/*.study | wc -l) # one band per catalogue entry
nttt=$(cat "$root"/harness/sim/studies/*.study | grep -c '^hours =') # a time to train per time-to-train run
[ -s "$tmp/s/report.md" ] && grep -q "published 95% inside the band\|published 95% OUTSIDE the band" \
    "$tmp/s/report.md" && ok || bad "report.md written"
grep '^# band' "$tmp/out" |
    awk \
    '{ split($3, b, "-"); sub(/%,/, "", b[2]); if (b[1] + 0 > b[2] + 0) bad = 1 } END { exit bad || NR != '"$nfig"' }' \
    && ok ||
    bad "$nfig bands, each low <= high: $(grep '^# band' "$tmp/out" | head -n 1)"
# time to train per band end and centre: three lines; the low end (lower efficiency) takes longest,
# the centre lies between; ResNet-50 and ResNet-101-22K against the study's 50 min and 7 h
grep '^# time to train' "$tmp/out" | awk '{ n++; t = $0; sub(/.*\): /, "", t); split(t, p, ", ")
        for (i = 1; i <= 3; i++) { split(p[i], w, " "); v[i] = w[1] * (w[2] == "h" ? 60 : w[2] == "d" ? 1440 : 1) }
        if (!(v[1] >= v[3] && v[3] >= v[2] && v[2] > 0)) bad = 1 }
    END { exit bad || n != '"$nttt"' }' && ok || bad "time to train, low end >= centre >= high end: $(grep \
        '^# time to train' "$tmp/out" | head -n 1)"
grep -q "^# time to train (90 epochs x 1281167 images of ImageNet-1K.*published: 50 min" "$tmp/out" &&
    grep -q "^# time to train (90 epochs x 7500000 images of ImageNet-22K.*published: about 7 h" "$tmp/out" && ok ||
    bad "ResNet-50 and ResNet-101-22K time-to-train lines: $(grep -c '^# time to train' "$tmp/out")"
[ "$(grep -c '^Projected time to train' "$tmp/s/report.md")" = "$nttt" ] && ok ||
    bad "report.md: a time-to-train line per time-to-train run"
# strong-scaling entries: a points-lost line each (report.md and stdout), compute + communication at the band's
# ends = 100 - the band's ends (to the lines' rounding)
nstrong=$(grep -l '^global_batch' "$root"/harness/sim/studies/*.study | wc -l)
[ "$nstrong" -gt 0 ] && [ "$(grep -c '^Points lost (of 100)' "$tmp/s/report.md")" = "$nstrong" ] &&
    [ "$(grep -c '^# Points lost (of 100)' "$tmp/out")" = "$nstrong" ] && ok ||
    bad "a points-lost line per strong-scaling entry ($nstrong): $(grep -c '^Points lost' "$tmp/s/report.md")"
# (compute + communication, + the epoch's padded last step where the entry gives epoch_examples)
awk 'function sum(t,   p, k, v) { k = split(t, p, " [+] "); v = 0; while (k) v += p[k--]; return v }
    /^# band/ { split($3, b, "-"); sub(/%,/, "", b[2]); lo = b[1]; hi = b[2] }
    /^# Points lost/ { t = $0; sub(/.*low end /, "", t); split(t, e, ", at its high end ")
        l = 100 - sum(e[1]); h = 100 - sum(e[2]); n++
        if (l - lo > 0.2 || lo - l > 0.2 || h - hi > 0.2 || hi - h > 0.2) bad = 1 }
    END { exit bad || n == 0 }' "$tmp/out" && ok || bad "points lost at the band's ends add up to 100 - the ends"
csv=$tmp/s/study.csv
# per corner: the points lost to compute, to exposed communication (Horovod's coordination a part of it) and to the
# epoch's padded last step and the efficiency add up to 100; the communication's at most a little below 0 (a
# scaled run whose exposed share of its step is below its baseline's: entry 16's SHARP corners, -0.03)
awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    { d = $c["eff_pct"] + $c["compute_lost_pts"] + $c["comm_lost_pts"] + $c["epoch_lost_pts"] - 100
      if (d > 0.02 || d < -0.02) bad = 1
      if ($c["comm_lost_pts"] < -0.1 || $c["sync_lost_pts"] < 0) bad = 1
      if ($c["sync_lost_pts"] > ($c["comm_lost_pts"] > 0 ? $c["comm_lost_pts"] : 0) + 0.01) bad = 1
      n++ }
    END { exit bad || n < 10 }' "$csv" && ok || bad "study.csv: eff_pct + compute, comm and epoch_lost_pts = 100"
# the MLPerf ResNet entries (10-15): Horovod's coordination costs points at every corner; v3.0's (13-15) come in
# median-epoch and mean-epoch twins of one step, v1.0's (12) has one reading that lowers its figure (99 steps of
# 64 x 204 an epoch where 393 of 8 x 408 process fewer images)
awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["entry"] ~ /^1[0-5]-mlperf/ { n++; if (!($c["sync_lost_pts"] > 0)) bad = 1 }
    $c["entry"] ~ /^1[345]-/ { k = $c["entry"] ":" $c["corner"]; r = k; sub(/\/(median|mean)-epoch$/, "", r)
        if (k == r) bad = 1; else { s[k] = $c["step_ms"]; t[r]++ } }
    $c["entry"] ~ /^12-/ { m++; if ($c["corner"] ~ /-epoch$/ || !($c["epoch_lost_pts"] > 0.5)) bad = 1 }
    END { for (r in t) { p++; if (t[r] != 2 || s[r "/median-epoch"] != s[r "/mean-epoch"]) bad = 1 }
          exit bad || n != 136 || m != 16 || p != 48 }' "$csv" && ok ||
    bad "entries 10-15: Horovod's coordination; 13-15 in epoch-reading twins, 12 with one reading"
# per corner: time_to_train_h = 90 x images x step / (GPUs x batch) / 3600
awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["published_h"] > 0 { img = $c["model"] == "resnet50" ? 1281167 : 7500000
      want = 90 * img * $c["step_ms"] / 1000 / ($c["gpus"] * $c["batch"]) / 3600; d = $c["time_to_train_h"] - want
      if (d < 0) d = -d; if (d > 0.001 + 0.001 * want) bad = 1; n++ }
    END { exit bad || n < 5 }' "$csv" && ok || bad "study.csv time_to_train_h = epochs x images x step / (GPUs x batch)"
awk -F, '!/^#/ && NR > 2 { e[$5 "," $6] = $12; fig[$5] = 1 }
    END { for (p in fig) if ((p ",on") in e && (p ",off") in e && e[p ",on"] + 0 < e[p ",off"] + 0) exit 1
          if (e["minsky2017-2port,off"] + 0 < e["minsky2017-1port,off"] + 0) exit 1 }' "$csv" && ok ||
    bad "overlap on >= off and 2 ports >= 1 port"

# SHARP (entries 14, 15: `algo = nccl-tree|nvls` on dgxh100-mlperf-sharp.platform; 16: nccl-ring|nccl-tree|nvls
# on dgxa100-mlperf-sharp.platform): each nvls corner exposes less communication than its tree twin (SHARP moves
# each byte across once: faster, not slower), and its efficiency is higher
awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["entry"] ~ /^1[456]-/ { k = $c["entry"] ":" $c["corner"]; a = $c["algo"]; sub("/" a "/", "/", k);
        x[a "," k] = $c["exposed_ms"]
        e[a "," k] = $c["eff_pct"]; if (a == "nvls") nv[k] = $c["platform"] }
    END { for (k in nv) { n++; if (nv[k] !~ /^dgx[ah]100-mlperf-sharp$/ || !(("nccl-tree," k) in x)) bad = 1
              else if (x["nvls," k] + 0 >= x["nccl-tree," k] + 0 || e["nvls," k] + 0 <= e["nccl-tree," k] + 0) bad = 1 }
          exit bad || n != 36 }' "$csv" && ok ||
              bad "entries 14-16: 36 SHARP (nvls) corners (16, 16 and 4), each faster than its tree twin"

# an entry may name a preset where the platform folder has no file of that name: entry 01 on dgxh100 is priced on
# an H100 (its 4-GPU step at batch 32 well under the P100's 200 ms), every corner on the preset
mkdir -p "$tmp/pc" && sed 's/^platforms = .*/platforms = dgxh100/' "$root/harness/sim/studies/01-ddl-resnet50.study" \
    >"$tmp/pc/01.study"
"$exe" study --catalogue "$tmp/pc" --out "$tmp/pco" >/dev/null 2>&1 &&
    awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; if ($c["platform"] != "dgxh100" || !($c["step_base_ms"] > 0 && $c["step_base_ms"] < 50)) bad = 1 }
        END { exit bad || n != 2 }' "$tmp/pco/study.csv" && ok || bad "an entry naming the preset dgxh100"

# the model against the simulator at 8 GPUs (2 nodes x 4), ResNet-50 batch 32, ddl, buckets 0 and 25
sim=$BUILD/sim/ddlbench-sim
# an entry's kernel_us a|b (entry 17, PyTorch's eager launch at scale): a corner each, named for it, every
# corner at the dearer cost below its twin at the cheaper one
awk -F, '$18 ~ /^17-mlperf30-bert/ { n++; c = $23; sub(/\/[0-9.]+us-eager$/, "", c); k = $23; sub(/.*\//, "", k)
        if (k !~ /us-eager$/) bad = 1; else if (k == "4us-eager") lo[c] = $12; else hi[c] = $12 }
    END { for (c in lo) { m++; if (!(c in hi) || hi[c] >= lo[c]) bad = 1 }; exit bad || n != 8 || m != 4 }' \
    "$tmp/s/study.csv" && ok || bad "entry 17: kernel_us 4.0|14.7 corners, the dearer below: $(grep -c 17-mlperf30 \
        "$tmp/s/study.csv")"
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    "$exe" study --gpus 8 --out "$tmp/s8" >/dev/null || bad "study --gpus 8"
    mkdir -p "$tmp/p" && "$exe" platform --preset "$root/harness/sim/platforms/minsky2017-1port.platform" --nodes 2 -o \
        "$tmp/p" >/dev/null
    DDL_RANKS_PER_NODE=4 sh "$root/harness/scripts/simlaunch.sh" 8 "$tmp/p" "$sim" train --model resnet50 --batch 32 \
        -a ddl --bucket-mb 0,25 --steps 1 --warmup 1 --profile p100 --csv "$tmp/sim.csv" >"$tmp/sim.out" 2>&1 ||
        bad "simulated 8-GPU run: $(tail -n 1 "$tmp/sim.out")"
    for b in 0 25; do
        ov=off; [ "$b" = 25 ] && ov=on
        s=$(awk -F, -v b="$b" '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i;
            next } $c["bucket_MB"] == b { print $c["step_ms_median"] }' "$tmp/sim.csv")
        m=$(awk -F, -v o="$ov" '$2 == "resnet50" && $4 == "ddl" && $5 == "minsky2017-1port" && $6 == o { print $10 }' \
            "$tmp/s8/study.csv")
        awk -v s="$s" -v m="$m" 'BEGIN { d = (m - s) / s; if (d < 0) d = -d; exit !(s > 0 && d <= 0.03) }' && ok ||
            bad "model vs simulator, overlap $ov: model $m ms, sim $s ms"
    done
else
    echo "SKIP: model against the simulator (no $sim or smpirun)"
fi
report
