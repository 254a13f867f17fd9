#!/bin/sh
# jitter.sh — `make jitter`: stragglers and noise at scale. ResNet-50 (batch 32, ddl, 25 MiB buckets)
# on the minsky preset with the p100 profile, simulated at 1 GPU and at 256 GPUs (64 nodes x 4), for
# `train --jitter PCT` in 0 1 2 5 10 (every rank's GEMMs stretched by PCT/100 x Exp(1) per step,
# seeded: harness/train/trainer.h), STEPS timed steps each. Efficiency against 1 GPU at the same
# jitter: median = t1 / t256 on the median steps, min-max = t1 / t256 on the slowest and fastest of
# the 256-GPU steps (`ddlbench efficiency`, common/scaling.c). Writes OUT/jitter.csv and
# OUT/jitter.png/.svg; prints the table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "jitter.sh: $*" >&2; exit 2; }
build=build out=results/jitter pcts="0 1 2 5 10" steps=5 nodes=64
while [ $# -gt 0 ]; do
    case $1 in -h|--help) echo \
        "usage: jitter.sh [--build DIR] [--out DIR] [--pcts \"0 1 2 5 10\"] [--steps N] [--nodes N]"; exit 0;; esac
    [ $# -ge 2 ] || die "$1: expected a value"
    case $1 in --build) build=$2;; --out) out=$2;; --pcts) pcts=$2;; --steps) steps=$2;; --nodes) nodes=$2;;
    *) die "unknown option \"$1\"";; esac
    shift 2
done
exe=$build/ddlbench sim=$build/sim/ddlbench-sim
[ -x "$exe" ] && [ -x "$sim" ] || die "$exe and $sim must be built (make all sim)"
mkdir -p "$out/p1" "$out/pN" || die "cannot create $out"
g=$((nodes * 4))
# the 1-GPU baseline: one minsky node with 1 of its 4 GPUs (a shape the preset refuses unless overridden)
"$exe" platform --preset minsky --nodes 1 --gpus-per-node 1 --override-platform -o "$out/p1" >/dev/null &&
    "$exe" platform --preset minsky --nodes "$nodes" -o "$out/pN" >/dev/null || exit 2
T="train --model resnet50 --batch 32 -a ddl --bucket-mb 25 --warmup 1 --steps $steps --profile p100"
echo "jitter_pct,gpus,step_ms_1gpu,step_ms_median,step_ms_min,step_ms_max,eff_median_pct,eff_min_pct,eff_max_pct" \
    >"$out/jitter.csv.tmp"
for j in $pcts; do
    echo "# jitter $j%: 1 and $g simulated GPUs" >&2
    # shellcheck disable=SC2086
    sh "$here/launch.sh" -b simulated -n 1 -p "$out/p1" "$sim" $T --jitter "$j" --csv "$out/j$j-1.csv" \
        >"$out/j$j-1.log" 2>&1 &&
        sh "$here/launch.sh" -b simulated -n "$g" -g 4 -p "$out/pN" "$sim" $T --jitter "$j" --csv "$out/j$j-$g.csv" \
            >"$out/j$j-$g.log" 2>&1 || { echo "jitter.sh: the jitter $j run failed; see $out/j$j-*.log" >&2; exit 1; }
    # efficiency against 1 GPU at the same jitter (common/scaling.c): median, slowest and fastest step
    row=$("$exe" efficiency "$out/j$j-1.csv" "$out/j$j-$g.csv" | sed 1d) && [ -n "$row" ] ||
        { echo "jitter.sh: no efficiency for jitter $j (see above)" >&2; exit 1; }
    echo "$j,$row" >>"$out/jitter.csv.tmp"
done
mv "$out/jitter.csv.tmp" "$out/jitter.csv"
if command -v gnuplot >/dev/null 2>&1; then
    for term in png svg; do
        gnuplot -e \
            "term='$term'; out='$out/jitter.$term.tmp'; csv='$out/jitter.csv'; gpus='$g'; plotsdir='$root/plots'" \
            "$root/plots/jitter.gp" && mv "$out/jitter.$term.tmp" "$out/jitter.$term"
    done
fi
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "# %-7s %6s %10s %10s %8s %16s\n",
                      "jitter%", "gpus", "1gpu_ms", "step_ms", "eff%", "eff min-max%"
                  next }
    { printf "  %-7s %6s %10.1f %10.1f %8.1f %7.1f-%-7.1f\n", $c["jitter_pct"], $c["gpus"], $c["step_ms_1gpu"],
             $c["step_ms_median"], $c["eff_median_pct"], $c["eff_min_pct"], $c["eff_max_pct"] }' "$out/jitter.csv"
