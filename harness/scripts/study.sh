#!/bin/sh
# study.sh — `make study`: the 2017 study reproduced with bands. `ddlbench study --out OUT` prices
# every corner of the unknowns with the closed-form step model (OUT/study.csv, OUT/report.md); then
# the simulator re-runs spot corners at the baseline and at 256 GPUs (SMPI, the same platform file and
# profile) and their efficiencies are appended to the report beside the model's, so the band's
# arithmetic is checked by the simulator where a full 256-GPU band sweep would be slow here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "study.sh: $*" >&2; exit 2; }
build=build out=results/study spots=1
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) echo "usage: study.sh [--build DIR] [--out DIR] [--no-spots]"; exit 0;;
    --no-spots) spots=0; shift; continue;;
    esac
    [ $# -ge 2 ] || die "$1: expected a value"
    case $1 in --build) build=$2;; --out) out=$2;; *) die "unknown option \"$1\"";; esac
    shift 2
done
exe=$build/ddlbench sim=$build/sim/ddlbench-sim
[ -x "$exe" ] || die "$exe not built (make)"
mkdir -p "$out" || die "cannot create $out"
"$exe" study --out "$out" || exit $?
# per entry its band and the published figure (bands.csv, written by ddlbench study), drawn as study.png / study.svg
if command -v gnuplot >/dev/null 2>&1; then
    for term in png svg; do
        gnuplot -e "term='$term'; out='$out/study.$term.tmp'; csv='$out/bands.csv'; plotsdir='$here/../../plots'" \
            "$here/../../plots/study.gp" && mv "$out/study.$term.tmp" "$out/study.$term"
    done
fi
[ "$spots" = 1 ] || exit 0
if ! [ -x "$sim" ] || ! command -v smpirun >/dev/null 2>&1; then
    echo "SKIP: simulator spot checks ($sim or smpirun missing)"; exit 0
fi
sim_step() { # model batch platform bucket gpus -> the simulated run's train CSV (its path)
    d=$out/spots/$3-$5; mkdir -p "$d"
    "$exe" platform --preset "harness/sim/platforms/$3.platform" --nodes $(($5 / 4)) --gpus-per-node 4 -o "$d" \
        >/dev/null || return 1
    sh "$here/launch.sh" -b simulated -n "$5" -g 4 -p "$d" "$sim" train --model "$1" --batch "$2" -a ddl \
        --bucket-mb "$4" \
        --steps 1 --warmup 1 --profile p100 --csv "$d/$1-$4.csv" >"$d/$1-$4.log" 2>&1 || return 1
    echo "$d/$1-$4.csv"
}
{
    echo
    echo "## Simulator spot checks"
    echo
    echo \
        "SMPI runs of the same corners (\`harness/scripts/study.sh\`: ddl, p100 profile, one warm-up + one timed step),"
    echo "efficiency against 4 GPUs, beside the closed-form model's:"
    echo
    echo "| model | platform | overlap | sim step 4 GPUs (ms) | sim step 256 GPUs (ms) | sim efficiency |" \
        "model efficiency |"
    echo "|---|---|---|---|---|---|---|"
} >"$out/spots.md.tmp"
for spot in resnet50:32:minsky2017-1port:0 resnet50:32:minsky2017-1port:25 resnet101-22k:20:minsky2017-1port:0; do
    IFS=: read -r m b p k <<EOF2
$spot
EOF2
    echo "# spot check: $m on $p, bucket $k MiB, 4 and 256 simulated GPUs" >&2
    s4=$(sim_step "$m" "$b" "$p" "$k" 4) && s256=$(sim_step "$m" "$b" "$p" "$k" 256) ||
        { echo "study.sh: spot check $spot failed (see $out/spots/)" >&2; exit 1; }
    ov=off; [ "$k" != 0 ] && ov=on
    # the model's efficiency of the same corner (study.csv by column name); the simulation's through
    # scaling.c (ddlbench efficiency: gpus,step_ms_base,step_ms_median,...,eff_median_pct)
    meff=$(awk -F, -v m="$m" -v p="$p" -v o="$ov" '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["model"] == m && $c["platform"] == p && $c["overlap"] == o { print $c["eff_pct"] }' "$out/study.csv")
    "$exe" efficiency "$s4" "$s256" | awk -F, -v m="$m" -v p="$p" -v o="$ov" -v e="$meff" \
        'NR == 2 { printf "| %s | %s | %s | %.1f | %.1f | %.1f%% | %.1f%% |\n", m, p, o, $2, $3, $6, e }' \
        >>"$out/spots.md.tmp" || { echo "study.sh: ddlbench efficiency failed for $spot" >&2; exit 1; }
done
cat "$out/spots.md.tmp" >>"$out/report.md" && rm -f "$out/spots.md.tmp"
tail -n 6 "$out/report.md"
