#!/bin/sh
# summary.sh SCALING_CSV [EXE] — the table a reader wants first: at the largest GPU count of each
# model, images/s and scaling efficiency per algorithm, beside the published figures comparable with
# the run: those of the catalogue (`EXE catalogue --platform P`, harness/sim/studies) at that model
# and scale, where the run's platform is of an entry's family, with the published times to train;
# and the run's projected time to train (the time_to_train_h column). EXE defaults to $DDLBENCH,
# else $BUILD/ddlbench, else build/ddlbench.
# Every column is read by its name.
[ -f "${1:-}" ] || { echo "usage: summary.sh SCALING_CSV [EXE]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
b=${BUILD:-build}; case $b in /*) ;; *) b=$root/$b;; esac
exe=${2:-${DDLBENCH:-$b/ddlbench}}
cat=$(mktemp); trap 'rm -f "$cat"' EXIT
pl=$(awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["platform"]; exit }' \
    "$1")
"$exe" catalogue --platform "${pl:-none}" >"$cat" 2>/dev/null ||
    { echo "# (no catalogue: $exe catalogue failed; the published figures are left out)"; : >"$cat"; }
awk -F, -v catf="$cat" "$(cat "$root/harness/scripts/catalogue.awk")"'
    function proj(f) { if (("image_size" in col) && f[col["image_size"]] != 224 && f[col["image_size"]] != "NA") {
        projected = f[col["image_size"]]; return "*" } return "" }
    /^#/ { next }                               # provenance lines (results/README.md)
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }
    { m = $col["model"]; g = $col["gpus"] + 0; if (g > max[m]) max[m] = g; rows[NR] = $0
      if (bk == "") bk = $col["backend"]; if (pl == "") pl = $col["platform"] }
    END {
        printf "# scaling efficiency at the largest GPU count (%s backend, %s)\n", bk, pl
        printf "# %-14s %5s %6s %7s %12s %9s %9s %10s %10s %8s %10s %14s  %s\n", "model", "gpus", "algo",
               "bucket", "images/s", "E(1 GPU)", "E(1 node)", "E(smallest)", "exposed_ms", "gemm_ms", "nongemm_ms",
               "time_to_train", "published"
        fmt = "  %-14s %5d %6s %7s %12.1f %9s %9s %10s %10.2f %8.2f %10s %14s  %s"
        for (r in rows) {
            split(rows[r], f, ",")
            m = f[col["model"]]
            if (f[col["gpus"]] + 0 != max[m]) continue
            k = m SUBSEP max[m]
            ref = (k in pub) ? pub[k] ((k in hrs) ? "; " hrs[k] : "") " (" max[m] " GPUs)" : "-"
            line[m, f[col["algo"]], f[col["bucket_MB"]]] = sprintf(fmt,
                m, f[col["gpus"]], f[col["algo"]], f[col["bucket_MB"]], f[col["images_per_s"]],
                pct(f[col["eff_vs_1gpu"]]), pct(f[col["eff_vs_1node"]]),
                ("eff_vs_smallest" in col) ? pct(f[col["eff_vs_smallest"]]) : "NA",
                f[col["exposed_ms"]], f[col["gemm_ms"]],
                ("nongemm_ms" in col) ? sprintf("%.2f", f[col["nongemm_ms"]]) : "NA",
                ("time_to_train_h" in col) ? hm(f[col["time_to_train_h"]]) proj(f) : "NA", ref)
            keys[m, f[col["algo"]], f[col["bucket_MB"]]] = 1
        }
        n = 0
        for (k in keys) sorted[++n] = k
        for (i = 2; i <= n; i++) { v = sorted[i];
            for (j = i - 1; j > 0 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]; sorted[j + 1] = v }
        for (i = 1; i <= n; i++) print line[sorted[i]]
        if (projected) printf "# * time to train at image %s, not the published runs'"'"' 224: a projection of " \
            "this configuration only, not comparable with their times\n", projected
    }
    function pct(x) { return x == "NA" ? "NA" : sprintf("%.1f%%", 100 * x) }
' "$cat" "$1"
