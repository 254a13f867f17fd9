#!/bin/sh
# fidelity_report.sh OUT EXE — the table, chart and summary of `make fidelity` from OUT/points.csv
# (harness/scripts/fidelity.sh writes it): `EXE fidelity report` (harness/sim/fidelity.c) computes
# the errors, the groups and the 15/35 pass rule into OUT/summary.txt; this script only draws
# OUT/fidelity.png and .svg (plots/fidelity.gp; skipped without gnuplot). The last line is
#   fidelity: median |error| X%, max Y% over N points; per group (median/max %, * = misses 15/35): G m/M, ...
set -eu
[ $# -eq 2 ] && [ -f "$1/points.csv" ] && [ -x "$2" ] ||
    { echo "usage: fidelity_report.sh OUT EXE (with OUT/points.csv and the ddlbench executable EXE)" >&2; exit 2; }
out=$1 exe=$2 root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"; rm -f "$out"/*.png.tmp "$out"/*.svg.tmp "$out/summary.txt.tmp"' EXIT
"$exe" fidelity report "$out/points.csv" >"$out/summary.txt.tmp" && mv "$out/summary.txt.tmp" "$out/summary.txt"
if command -v gnuplot >/dev/null 2>&1; then # one data file per series (kind-setup-ranks): real_us sim_us
    series=$(awk -F, -v d="$tmp" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { s = $c["kind"] "-" $c["setup"] "-" $c["ranks"] "r"
          print $c["real_us"], $c["sim_us"] >> (d "/series_" s ".dat")
          if (!(s in seen)) { seen[s] = 1; printf "%s ", s } }' "$out/points.csv")
    for term in png svg; do
        gnuplot -e "term='$term'; out='$out/fidelity.$term.tmp'; datadir='$tmp'; series='$series'" \
            -e "plotsdir='$root/plots'" \
            "$root/plots/fidelity.gp" && mv "$out/fidelity.$term.tmp" "$out/fidelity.$term"
    done
else
    echo "# gnuplot not found: no chart" >>"$out/summary.txt"
fi
cat "$out/summary.txt"
