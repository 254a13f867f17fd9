#!/bin/sh
# fidelity_report.sh OUT — the table, chart and summary of `make fidelity` from OUT/points.csv
# (harness/scripts/fidelity.sh writes it): per point the real and simulated time and the relative
# error; OUT/fidelity.png and .svg (plots/fidelity.gp; skipped without gnuplot); OUT/summary.txt;
# the last line is
#   fidelity: median |error| X%, max Y% over N points; per group (median/max %, * = misses 15/35): G m/M, ...
# (errors on the median real time; the same over the fastest real iteration is printed above it).
set -eu
[ $# -eq 1 ] && [ -f "$1/points.csv" ] || { echo "usage: fidelity_report.sh OUT (with OUT/points.csv)" >&2; exit 2; }
out=$1 root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"; rm -f "$out"/*.png.tmp "$out"/*.svg.tmp' EXIT
stats() { # column of points.csv -> "median max n"
    awk -F, -v c="$1" 'NR > 1 { v = $c < 0 ? -$c : $c; a[++n] = v }
        END { if (!n) { print "NA NA 0"; exit }
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
              m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
              printf "%.1f %.1f %d\n", m, a[n], n }' "$out/points.csv"
}
{
    printf "# %-9s %-6s %5s %-5s %16s %12s %12s %8s %12s %8s\n" kind setup ranks algo size real_us sim_us err% real_min_us err_min%
    awk -F, 'NR > 1 { printf "  %-9s %-6s %5s %-5s %16s %12.1f %12.1f %8.1f %12.1f %8.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$out/points.csv"
    echo "# per group (kind, setup, ranks): |error| on the median real time: median, max; on the fastest real iteration: median"
    awk -F, 'NR > 1 { k = $1 " " $2 " " $3 " ranks"; e[k, ++n[k]] = $8 < 0 ? -$8 : $8; f[k, n[k]] = $10 < 0 ? -$10 : $10 }
        function med(a, k, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[k, i]
            for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            top = v[m]; return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
        END { for (k in n) { a = med(e, k, n[k]); b = top
                             printf "#   %-32s %6.1f%% %6.1f%%   %6.1f%%  (%d points)\n", k, a, b, med(f, k, n[k]), n[k] } }' "$out/points.csv" | sort
    echo "# nothing fitted to these points: the platform and profile come from separate calibration runs"
    echo "# (calibrate --network's p2p, working-set, burst, fresh-page and whole-message sweeps; the kernel timings), made before them"
    set -- $(stats 10)
    echo "fidelity (fastest real iteration): median |error| $1%, max $2% over $3 points"
    set -- $(stats 8)
    # the per-group figures on the summary line too (group: median/max), and the goal's verdict
    groups=$(awk -F, 'NR > 1 { k = $1 "-" $2 "-" $3; v = $8 < 0 ? -$8 : $8; e[k, ++n[k]] = v }
        END { for (k in n) { m = n[k]; for (i = 1; i <= m; i++) w[i] = e[k, i]
                  for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                  printf "%s %.1f/%.1f%s\n", k, m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2, w[m],
                         (m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2) <= 15 && w[m] <= 35 ? "" : "*" } }' "$out/points.csv" |
        sort | paste -sd, - | sed 's/,/, /g')
    echo "fidelity: median |error| $1%, max $2% over $3 points; per group (median/max %, * = misses 15/35): $groups"
} >"$out/summary.txt.tmp" && mv "$out/summary.txt.tmp" "$out/summary.txt"
if command -v gnuplot >/dev/null 2>&1; then
    series=$(awk -F, -v d="$tmp" 'NR > 1 { s = $1 "-" $2 "-" $3 "r"; print $6, $7 >> (d "/series_" s ".dat"); if (!(s in seen)) { seen[s] = 1; printf "%s ", s } }' "$out/points.csv")
    for term in png svg; do
        gnuplot -e "term='$term'; out='$out/fidelity.$term.tmp'; datadir='$tmp'; series='$series'; plotsdir='$root/plots'" \
            "$root/plots/fidelity.gp" && mv "$out/fidelity.$term.tmp" "$out/fidelity.$term"
    done
else
    echo "# gnuplot not found: no chart" >>"$out/summary.txt"
fi
cat "$out/summary.txt"
