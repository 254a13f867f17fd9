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
# per entry its band and the published figure (bands.csv), drawn as study.png / study.svg
awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    { e = $c["entry"]; if (!(e in lo)) { order[++n] = e; lo[e] = 1e9; hi[e] = -1e9 }
      v = $c["eff_pct"] + 0; if (v < lo[e]) lo[e] = v; if (v > hi[e]) hi[e] = v; pub[e] = $c["published_pct"] }
    END { print "n,entry,lo,hi,centre,published"
          for (i = 1; i <= n; i++) { e = order[i]; printf "%d,%s,%.2f,%.2f,%.2f,%s\n", i, e, lo[e], hi[e], (lo[e] + hi[e]) / 2, pub[e] } }' \
    "$out/study.csv" >"$out/bands.csv.tmp" && mv "$out/bands.csv.tmp" "$out/bands.csv"
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
sim_step() { # model batch platform bucket gpus -> step ms (median) of a simulated run
    d=$out/spots/$3-$5; mkdir -p "$d"
    "$exe" platform --preset "harness/sim/platforms/$3.platform" --nodes $(($5 / 4)) --gpus-per-node 4 -o "$d" >/dev/null || return 1
    sh "$here/launch.sh" -b simulated -n "$5" -g 4 -p "$d" "$sim" train --model "$1" --batch "$2" -a ddl --bucket-mb "$4" \
        --steps 1 --warmup 1 --profile p100 --csv "$d/$1-$4.csv" >"$d/$1-$4.log" 2>&1 || return 1
    awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["step_ms_median"] }' "$d/$1-$4.csv"
}
{
    echo
    echo "## Simulator spot checks"
    echo
    echo "SMPI runs of the same corners (\`harness/scripts/study.sh\`: ddl, p100 profile, one warm-up + one timed step),"
    echo "efficiency against 4 GPUs, beside the closed-form model's:"
    echo
    echo "| model | platform | overlap | sim step 4 GPUs (ms) | sim step 256 GPUs (ms) | sim efficiency | model efficiency |"
    echo "|---|---|---|---|---|---|---|"
} >"$out/spots.md.tmp"
for spot in resnet50:32:minsky2017-1port:0 resnet50:32:minsky2017-1port:25 resnet101-22k:20:minsky2017-1port:0; do
    IFS=: read -r m b p k <<EOF2
$spot
EOF2
    echo "# spot check: $m on $p, bucket $k MiB, 4 and 256 simulated GPUs" >&2
    s4=$(sim_step "$m" "$b" "$p" "$k" 4) && s256=$(sim_step "$m" "$b" "$p" "$k" 256) || { echo "study.sh: spot check $spot failed (see $out/spots/)" >&2; exit 1; }
    ov=off; [ "$k" != 0 ] && ov=on
    meff=$(awk -F, -v m="$m" -v p="$p" -v o="$ov" '$2 == m && $5 == p && $6 == o { print $12 }' "$out/study.csv")
    awk -v m="$m" -v p="$p" -v o="$ov" -v a="$s4" -v z="$s256" -v e="$meff" \
        'BEGIN { printf "| %s | %s | %s | %.1f | %.1f | %.1f%% | %.1f%% |\n", m, p, o, a, z, 100 * a / z, e }' >>"$out/spots.md.tmp"
done
cat "$out/spots.md.tmp" >>"$out/report.md" && rm -f "$out/spots.md.tmp"
tail -n 6 "$out/report.md"
