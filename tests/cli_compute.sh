#!/bin/sh
# cli_compute.sh — the compute model from the outside (issue 47): the linear model of the fp32 profiles
# prices compute in proportion to the batch, the per-layer roofline of h100-amp makes a small batch
# dearer per image; --images-per-s R@B pins one GPU's step at batch B to R images/s in `model train` and
# in the simulation; the simulation and the model price the same step (both call perf_layer); NAME-x
# profiles run on NAME's platform; bad pins and another GPU's profile exit 2 with one line.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"

[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

# get CSV COLUMN: the first row's value
get() { awk -F, -v k="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[k]; exit }' "$1"
    }
# one ARGS...: model train on one H100 (dgxh100, 1 GPU): "compute_ms images_per_s" of its row
one() {
    rm -f "$tmp/one.csv"
    "$exe" model train --platform dgxh100 --nodes 1 --gpus-per-node 1 --override-platform -a ring --csv "$tmp/one.csv" \
        "$@" >/dev/null 2>&1 && echo "$(get "$tmp/one.csv" compute_ms) $(get "$tmp/one.csv" images_per_s)"
}
# within A B TOL: |A - B| <= TOL x B
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b) }'; }

# linear (h100, fp32): compute at batch 400 is 8 x batch 50's
c50=$(one --profile h100 --batch 50 | cut -d' ' -f1); c400=$(one --profile h100 --batch 400 | cut -d' ' -f1)
if within "$c400" "$(awk -v c="$c50" 'BEGIN { print 8 * c }')" 0.002; then ok
else bad "h100 linear: compute $c400 ms at batch 400, want 8 x $c50"; fi
"$exe" model train --platform dgxh100 --nodes 1 --profile h100 2>/dev/null | grep -q '^# compute model: linear, fp32' &&
    ok || bad "h100: '# compute model: linear, fp32' line"

# roofline (h100-amp): batch 50 at least 5% dearer per image than batch 400, and faster than fp32
a50=$(one --profile h100-amp --batch 50 | cut -d' ' -f1); a400=$(one --profile h100-amp --batch 400 | cut -d' ' -f1)
if awk -v a="$a50" -v b="$a400" 'BEGIN { exit !(a > 0 && b > 0 && a * 8 > 1.05 * b) }'; then ok
else bad "h100-amp: batch 50 ($a50 ms) not dearer per image than batch 400 ($a400 ms)"; fi
if awk -v a="$a400" -v b="$c400" 'BEGIN { exit !(a > 0 && a < b / 2) }'; then ok
else bad "h100-amp ($a400 ms) not at least twice as fast as h100 fp32 ($c400 ms) at batch 400"; fi
"$exe" model train --platform dgxh100 --nodes 1 --profile h100-amp 2>/dev/null |
    grep -q '^# compute model: per-layer roofline, fp16 .* normconv (bn backward apart).*CUDA graphs.* 132 SMs' && ok ||
    bad "h100-amp: its '# compute model:' line"

# --images-per-s: one GPU at batch 400 runs 7008 images/s; at another batch the scale holds, not the rate
ips=$(one --profile h100-amp --batch 400 --images-per-s 7008@400 | cut -d' ' -f2)
within "$ips" 7008 0.0005 && ok || bad "pinned 7008@400: $ips images/s at batch 400"
ips=$(one --profile h100 --batch 400 --images-per-s 7008@400 | cut -d' ' -f2)
within "$ips" 7008 0.0005 && ok || bad "pinned 7008@400 on the linear h100 profile: $ips images/s"
p50=$(one --profile h100-amp --batch 50 --images-per-s 7008@400 | cut -d' ' -f1)
if within "$(awk -v p="$p50" -v a="$a400" -v b="$a50" 'BEGIN { print p / b }')" \
    "$(awk -v c="$(one --profile h100-amp --batch 400 --images-per-s 7008@400 | cut -d' ' -f1)" -v a="$a400" \
        'BEGIN { print c / a }')" 0.001; then ok
else bad "pinned: batch 50's compute not scaled as batch 400's"; fi
"$exe" model train --platform dgxh100 --nodes 1 --profile h100-amp --images-per-s 7008@400 2>/dev/null |
    grep -q 'pinned by --images-per-s 7008@400 .*an input, not a prediction' && ok || bad "the pinned line"

# bad input: one line, exit 2
for v in 0@400 -5@400 7008 7008@0 7008@ @400 7008@4x inf@4; do
    expect_status 2 model train --platform dgxh100 --nodes 1 --images-per-s "$v"
done
expect_status 2 train --images-per-s 7008@400   # the real run measures its own
expect_status 2 model train --platform dgxh100 --nodes 1 --profile a100-amp  # another GPU's profile
expect_status 0 model train --platform dgxh100 --nodes 1 --profile h100-amp  # NAME-x: the platform's GPU
expect_status 0 model train --platform dgxa100 --nodes 1 --profile a100-amp

# the simulation prices the same step (one node of 8 H100s, ResNet-50 batch 50, one step)
SIM=$BUILD/sim/ddlbench-sim
if [ -x "$SIM" ] && command -v smpirun >/dev/null 2>&1; then
    mkdir -p "$tmp/p" && "$exe" platform --preset dgxh100 --nodes 1 -o "$tmp/p" >/dev/null
    for pin in "" "--images-per-s 7008@400"; do
        DDL_RANKS_PER_NODE=8 sh harness/scripts/simlaunch.sh 8 "$tmp/p" "$SIM" train --model resnet50 --batch 50 \
            -a ring --profile h100-amp --platform dgxh100 --steps 1 --warmup 0 --csv "$tmp/s.csv" $pin \
            >"$tmp/s.log" 2>&1 </dev/null
        "$exe" model train --platform dgxh100 --nodes 1 --profile h100-amp --batch 50 -a ring --csv "$tmp/m.csv" \
            $pin >/dev/null 2>&1
        for k in compute_ms gemm_ms nongemm_ms sgd_ms; do
            if within "$(get "$tmp/s.csv" $k)" "$(get "$tmp/m.csv" $k)" 0.001; then ok
            else bad "sim vs model ${pin:-unpinned}: $k $(get "$tmp/s.csv" $k) vs $(get "$tmp/m.csv" $k)"; fi
        done
        if within "$(get "$tmp/s.csv" step_ms_median)" "$(get "$tmp/m.csv" step_ms_median)" 0.005; then ok
        else bad "sim vs model ${pin:-unpinned}: step"; fi
    done
    grep -q '^# compute model: per-layer roofline' "$tmp/s.log" && ok || bad "sim: its '# compute model:' line"
fi
report
