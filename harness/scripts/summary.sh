#!/bin/sh
# summary.sh SCALING_CSV — the table a reader wants first: at the largest GPU count of each model,
# images/s and scaling efficiency per algorithm, beside the figures of the study (docs/SOURCES.md §1-2:
# IBM PowerAI DDL 95% for ResNet-50 / ImageNet-1K and 88% for ResNet-101 / ImageNet-22K on 256 GPUs;
# Facebook's Caffe2 89% for ResNet-50) where the run is of a 2017 platform (minsky, bigbasin and their
# files) at the study's 256 GPUs, and the projected time to train the study's workload (the
# time_to_train_h column; the study: 50 min and about 7 h on 256 GPUs).
[ -f "${1:-}" ] || { echo "usage: summary.sh SCALING_CSV" >&2; exit 2; }
awk -F, '
    function proj(f) { if (("image_size" in col) && f[col["image_size"]] != 224 && f[col["image_size"]] != "NA") { projected = f[col["image_size"]]; return "*" } return "" }
    /^#/ { next }                               # provenance lines (results/README.md)
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }
    { m = $col["model"]; g = $col["gpus"] + 0; if (g > max[m]) max[m] = g; rows[NR] = $0 }
    END {
        study["resnet50"] = "IBM DDL 95%, Facebook 89%; 50 min (256 GPUs)"
        study["resnet101-22k"] = "IBM DDL 88%; about 7 h (256 GPUs)"
        y2017 = pl ~ /(^|\/)(minsky|bigbasin)[^\/]*$/
        printf "# scaling efficiency at the largest GPU count (%s backend, %s)\n", bk, pl
        printf "# %-14s %5s %6s %7s %12s %9s %9s %10s %8s %10s %14s  %s\n", "model", "gpus", "algo", "bucket", "images/s",
               "E(1 GPU)", "E(1 node)", "exposed_ms", "gemm_ms", "nongemm_ms", "time_to_train", "study"
        for (r in rows) {
            split(rows[r], f, ",")
            m = f[col["model"]]
            if (f[col["gpus"]] + 0 != max[m]) continue
            ref = y2017 && max[m] == 256 && (m in study) ? study[m] : "-"
            line[m, f[col["algo"]], f[col["bucket_MB"]]] = sprintf("  %-14s %5d %6s %7s %12.1f %9s %9s %10.2f %8.2f %10s %14s  %s",
                m, f[col["gpus"]], f[col["algo"]], f[col["bucket_MB"]], f[col["images_per_s"]],
                pct(f[col["eff_vs_1gpu"]]), pct(f[col["eff_vs_1node"]]), f[col["exposed_ms"]], f[col["gemm_ms"]],
                ("nongemm_ms" in col) ? sprintf("%.2f", f[col["nongemm_ms"]]) : "NA",
                ("time_to_train_h" in col) ? hm(f[col["time_to_train_h"]]) proj(f) : "NA", ref)
            keys[m, f[col["algo"]], f[col["bucket_MB"]]] = 1
        }
        n = 0
        for (k in keys) sorted[++n] = k
        for (i = 2; i <= n; i++) { v = sorted[i]; for (j = i - 1; j > 0 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]; sorted[j + 1] = v }
        for (i = 1; i <= n; i++) print line[sorted[i]]
        if (projected) printf "# * time to train at image %s, not the study'"'"'s 224: a projection of this configuration only, not comparable with the study'"'"'s time\n", projected
    }
    function pct(x) { return x == "NA" ? "NA" : sprintf("%.1f%%", 100 * x) }
    function hm(h) { return h == "NA" || h == "" ? "NA" : h < 1 ? sprintf("%.0f min", 60 * h) : h < 48 ? sprintf("%.1f h", h) : sprintf("%.1f d", h / 24) }
' bk="$(grep -v '^#' "$1" | awk -F, 'NR == 2 { print $1 }')" pl="$(grep -v '^#' "$1" | awk -F, 'NR == 2 { print $2 }')" "$1"
