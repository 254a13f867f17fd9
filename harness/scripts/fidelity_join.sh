#!/bin/sh
# fidelity_join.sh — the two joins of fidelity.sh, apart so that it stays short:
#   fidelity_join.sh merge CSV...   repeated real allreduce runs -> one CSV: per point the median of
#                                   the runs' medians and the min of their mins
#   fidelity_join.sh join LABEL DIR the rows of points.csv for one setup (DIR's allreduce_real.csv,
#                                   allreduce_sim.csv, train_real.csv, train_sim.csv): kind,setup,ranks,
#                                   algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct with
#                                   error = (sim - real) / real (allreduce: out-of-place; train: the step)
set -eu
[ $# -ge 2 ] || { echo "usage: fidelity_join.sh merge CSV... | join LABEL DIR" >&2; exit 2; }
mode=$1; shift
case $mode in
merge)
    awk -F, -v OFS=, 'FNR == 1 { hdr = 0 } /^#/ { next } !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $c["size_B"] OFS $c["algo"] OFS $c["placement"] OFS $c["ranks"]
          if (!(k in n)) order[++m] = k
          v[k, ++n[k]] = $c["time_us_median"]; if (!(k in lo) || $c["time_us_min"] < lo[k]) lo[k] = $c["time_us_min"] }
        END { print "size_B,algo,placement,ranks,time_us_median,time_us_min,runs"
              for (j = 1; j <= m; j++) { k = order[j]; r = n[k]
                  for (a = 1; a <= r; a++) for (b = a + 1; b <= r; b++) if (v[k, b] < v[k, a]) { t = v[k, a]; v[k, a] = v[k, b]; v[k, b] = t }
                  med = r % 2 ? v[k, (r + 1) / 2] : (v[k, r / 2] + v[k, r / 2 + 1]) / 2
                  print k, med, lo[k], r } }' "$@"
    ;;
join)
    [ $# -eq 2 ] || { echo "usage: fidelity_join.sh join LABEL DIR" >&2; exit 2; }
    awk -F, -v OFS=, -v setup="$1" '
        FNR == 1 { f++; hdr = 0 }
        /^#/ { next }
        !hdr { hdr = 1; delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
        f <= 2 && $c["placement"] != "out" { next }
        f <= 2 { k = "allreduce" SUBSEP $c["ranks"] SUBSEP $c["algo"] SUBSEP $c["size_B"]
                 t = $c["time_us_median"]; m = $c["time_us_min"] }
        f > 2  { k = "train" SUBSEP $c["ranks"] SUBSEP $c["algo"] SUBSEP "resnet50-b2-32px-bucket" $c["bucket_MB"]
                 t = 1000 * $c["step_ms_median"]; m = 1000 * $c["step_ms_min"] }
        f == 1 || f == 3 { real[k] = t; rmin[k] = m; order[++n] = k; next }
        { simt[k] = t }
        END { for (i = 1; i <= n; i++) { k = order[i]; if (!(k in simt) || real[k] <= 0) continue
                  split(k, p, SUBSEP)
                  printf "%s,%s,%s,%s,%s,%.3f,%.3f,%.2f,%.3f,%.2f\n", p[1], setup, p[2], p[3], p[4], real[k], simt[k],
                         100 * (simt[k] - real[k]) / real[k], rmin[k], 100 * (simt[k] - rmin[k]) / rmin[k] } }' \
        "$2/allreduce_real.csv" "$2/allreduce_sim.csv" "$2/train_real.csv" "$2/train_sim.csv"
    ;;
*) echo "fidelity_join.sh: expected merge or join, got \"$mode\"" >&2; exit 2;;
esac
