#!/bin/sh
# plots.sh RUN_DIR [OVERLAY_DIR] — the four charts of a run, as PNG and SVG, into RUN_DIR; with
# OVERLAY_DIR (e.g. a --backend model run over a simulated one) its rows are drawn on the same charts.
# Rows whose backend column is "model" (alpha-beta-gamma, not simulated) are their own series, named
# "ALGO-model", drawn dashed with open markers in their algorithm's colour; measured or simulated
# rows are solid with filled markers.
#   efficiency  scaling efficiency vs GPUs per model and algorithm (the run's own axis), ideal line,
#               the published figures of the catalogue comparable with the run (`ddlbench catalogue
#               --platform P`: the run's model, a scale within its axis, a platform of its family; the
#               executable: $DDLBENCH, else $BUILD/ddlbench, else build/ddlbench)
#   throughput  images/s vs GPUs (log-log) with ideal scaling
#   busbw       allreduce bus bandwidth vs message size per algorithm: RUN_DIR/allreduce.csv, the
#               run's own platform or allocation (run_allreduce.sh), else results/bench/allreduce.csv
#               from `make bench`; the title names the CSV's hosts and date either way
#   breakdown   GEMM / non-GEMM kernels / other compute / exposed communication / SGD per step at the
#               largest GPU count (stacked)
# awk extracts small .dat files from the CSVs (skipping `#` lines; columns by name); gnuplot draws
# each chart to NAME.EXT.tmp, renamed when complete. Without gnuplot it says so and exits 0.
set -eu
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: plots.sh RUN_DIR [OVERLAY_DIR]" >&2; exit 2; }
overlay=${2:-}
[ -z "$overlay" ] || [ -f "$overlay/scaling.csv" ] ||
    { echo "plots.sh: $overlay/scaling.csv: no such file (expected a results folder of make run)" >&2; exit 2; }
dir=$1 here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$dir/scaling.csv" ] || { echo "plots.sh: $dir/scaling.csv: no such file (expected a results folder of make run)" \
    >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 ||
    { echo "plots.sh: gnuplot not found (apt-get install gnuplot-nox); no charts drawn" >&2; exit 0; }
dir=$(cd "$dir" && pwd)
run=$(basename "$(cd "$dir" && pwd -P)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$dir"/*.png.tmp "$dir"/*.svg.tmp' EXIT INT TERM
pl=$(awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["platform"]; exit }' \
    "$dir/scaling.csv")
b=${BUILD:-build}; case $b in /*) ;; *) b=$root/$b;; esac
"${DDLBENCH:-$b/ddlbench}" catalogue --platform "${pl:-none}" >"$tmp/catalogue.csv" 2>/dev/null ||
    : >"$tmp/catalogue.csv" # no executable: no published points

# scaling.csv -> eff_MODEL_ALGO.dat (gpus eff% images/s), ideal_MODEL.dat, ref_MODEL.dat (published),
# bd_MODEL.dat (algo gemm non-GEMM other-compute exposed sgd at the largest count), gmax_MODEL; prints models|algos|gmax
info=$(awk -F, -v d="$tmp" -v catf="$tmp/catalogue.csv" '
    FNR == 1 { hdr = 0 }
    FILENAME == catf && FNR == 1 { for (i = 1; i <= NF; i++) cc[$i] = i; next }
    FILENAME == catf { lab = $0; for (i = 1; i < cc["label"]; i++) sub(/^[^,]*,/, "", lab) # the last cell, maybe quoted
                if (lab ~ /^"/) { lab = substr(lab, 2, length(lab) - 2); gsub(/""/, "\"", lab) }
                gsub(/"/, "'"'"'", lab); npub++; pm[npub] = $cc["model"]; pg[npub] = $cc["gpus"] + 0
                pp[npub] = $cc["published_pct"]; pl[npub] = lab; next }
    /^#/ { next }
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        m = $c["model"]; a = $c["algo"] ($c["backend"] == "model" ? "-model" : ""); g = $c["gpus"] + 0
        if (!(m in seenm)) { seenm[m] = 1; models = models " " m }
        if (!(a in seena)) { seena[a] = 1; algos = algos " " a }
        e = $c["eff_vs_1gpu"]; e = e == "NA" ? "NA" : 100 * e
        print g, e, $c["images_per_s"] >> (d "/eff_" m "_" a ".dat")
        if (g == 1 && !(m in x1)) x1[m] = $c["images_per_s"]
        if (g > gmax[m]) gmax[m] = g
        row[++n] = $0
    }
    END {
        for (m in gmax) {
            top = gmax[m] # the axis of the run itself
            if (m in x1) printf "1 %s\n%d %s\n", x1[m], top, x1[m] * top > (d "/ideal_" m ".dat")
            else printf "1 NA\n" > (d "/ideal_" m ".dat")
            print gmax[m] > (d "/gmax_" m)
            all = gmax[m] > all ? gmax[m] : all
            ref = d "/ref_" m ".dat"
            for (i = 1; i <= npub; i++) # the catalogue: this model, a scale within the run axis
                if (pm[i] == m && pg[i] <= gmax[m]) printf "%d %s \"%s\"\n", pg[i], pp[i], pl[i] > ref
        }
        for (i = 1; i <= n; i++) {
            split(row[i], f, ",")
            m = f[c["model"]]
            if (f[c["gpus"]] + 0 == gmax[m])
            {
                ng = ("nongemm_ms" in c) ? f[c["nongemm_ms"]] : 0
                # medians of maxima: the difference may dip below 0
                oc = f[c["compute_ms"]] - f[c["gemm_ms"]] - ng; oc = oc < 0 ? 0 : oc
                print f[c["algo"]] (f[c["backend"]] == "model" ? "-model" : ""), f[c["gemm_ms"]], ng, oc,
                      f[c["exposed_ms"]], f[c["sgd_ms"]] >> (d "/bd_" m ".dat")
            }
        }
        printf "%s|%s|%d\n", substr(models, 2), substr(algos, 2), all
    }' "$tmp/catalogue.csv" "$dir/scaling.csv" ${overlay:+"$overlay/scaling.csv"})
models=${info%%|*}; rest=${info#*|}; algos=${rest%%|*}; gmax=${rest#*|}
# per series: line style (its algorithm's colour), dash (2 = model) and point type (open = model)
# (an open marker of its own per algorithm: circle, square, triangle, inverted triangle, diamond, pentagon)
styles=$(echo "$algos" | tr ' ' '\n' | awk 'BEGIN { split("6 4 8 10 12 14", pt, " ") }
    { b = $0; sub(/-model$/, "", b); if (!(b in k)) k[b] = ++n
      printf "%s%d:%d:%d", (NR > 1 ? " " : ""), k[b], (b == $0 ? 1 : 2), pt[(k[b] - 1) % 6 + 1] }')
for f in "$tmp"/eff_*.dat; do sort -n -k1,1 "$f" -o "$f"; done

# allreduce CSV -> bw_ALGO.dat (size_B busbw_GBps) at the largest rank count, out-of-place
bw=$dir/allreduce.csv
[ -f "$bw" ] || bw=$root/results/bench/allreduce.csv
bwinfo=""
if [ -f "$bw" ]; then
    bwinfo=$(awk -F, -v d="$tmp" '
        /^#/ { next }
        !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        { r = $c["ranks"] + 0; if (r > rmax) rmax = r; row[++n] = $0 }
        END {
            for (i = 1; i <= n; i++) {
                split(row[i], f, ",")
                if (f[c["ranks"]] + 0 != rmax || f[c["placement"]] != "out") continue
                a = f[c["algo"]]
                if (!(a in seen)) { seen[a] = 1; algos = algos " " a }
                print f[c["size_B"]], f[c["busbw_GBps"]] >> (d "/bw_" a ".dat")
            }
            printf "%d|%s\n", rmax, substr(algos, 2)
        }' "$bw")
fi

draw() { # chart algos [extra gnuplot -e]
    for ext in png svg; do
        gp_vars="term='$ext'; out='$dir/$1.$ext.tmp'; datadir='$tmp'; run='$run'; models='$models'; algos='$2'"
        gnuplot -e "$gp_vars; styles='${4:-$styles}'; gmax_all=$gmax; ${3:-}" \
            "$here/$1.gp" && mv "$dir/$1.$ext.tmp" "$dir/$1.$ext" || { echo "plots.sh: gnuplot failed on $1.$ext" >&2
                return 1; }
    done
}
cd "$root"
status=0
refs=$(for m in $models; do [ ! -f "$tmp/ref_$m.dat" ] || printf '%s ' "$m"; done)
draw efficiency "$algos" "refs='$refs'" || status=1
draw throughput "$algos" || status=1
draw breakdown "$algos" || status=1
if [ -n "$bwinfo" ] && [ -n "${bwinfo#*|}" ]; then
    src=$bw; case $src in "$root"/*) src=${src#"$root"/};; esac
    bws=$(echo "${bwinfo#*|}" | tr ' ' '\n' | awk 'BEGIN { split("6 4 8 10 12 14", pt, " ") } # dash and marker by line
        { printf "%s%d:%d:%d", (NR > 1 ? " " : ""), NR, (NR - 1) % 5 + 1, pt[(NR - 1) % 6 + 1] }')
    # whose data: the CSV's own hosts and date (a committed make bench run is another machine's)
    who=$(awk '/^# hosts: / { sub(/^# hosts: /, ""); h = $0 } /^# date: / { d = substr($3, 1, 10) }
               END { printf "%s%s%s", h, (h != "" && d != "" ? ", " : ""), d }' "$bw" | tr -d "'\"\\\\" | cut -c1-60)
    if [ "$bw" = "$dir/allreduce.csv" ]; then src="$src: this run, ${who:-its own}"
    else src="$src: make bench on ${who:-another machine}, not the platform of the run"; fi
    draw busbw "${bwinfo#*|}" "bwtitle='Allreduce bus bandwidth, ${bwinfo%%|*} ranks, out-of-place ($src)'" "$bws" \
        || status=1
else
    echo "plots.sh: no allreduce CSV ($dir/allreduce.csv or results/bench/allreduce.csv; make bench);" \
        "busbw chart skipped" >&2
fi
[ "$status" = 0 ] && echo "# charts: $dir/{efficiency,throughput,busbw,breakdown}.{png,svg}"
exit "$status"
