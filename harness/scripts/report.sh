#!/bin/sh
# report.sh RUN_DIR — RUN_DIR/report.md from RUN_DIR/scaling.csv: provenance, scaling efficiency at
# the largest GPU count per model and algorithm beside the study's figures (docs/SOURCES.md: IBM PowerAI DDL
# 95% ResNet-50 and 88% ResNet-101 / ImageNet-22K on 256 GPUs; Facebook's Caffe2 89% ResNet-50),
# where the step time goes there (compute: GEMM and non-GEMM, exposed communication, SGD), hardware
# counters when measured, the projected time to train (beside the study's 50 min and 7 h), stragglers
# flagged by the launches' --per-rank summary, the catalogue's closest published figures and, after
# `make run REALISM=study`, the run with the non-ideal effects (report_study.sh), and links to the
# charts (plots/plots.sh). Written whole:
# report.md.tmp, then renamed.
set -eu
[ $# -eq 1 ] || { echo "usage: report.sh RUN_DIR" >&2; exit 2; }
dir=$1 csv=$1/scaling.csv
[ -f "$csv" ] || { echo "report.sh: $csv: no such file (expected a results folder of make run)" >&2; exit 2; }
. "$(dirname "$0")/outdir.sh"
outfile_ready RUN_DIR "$dir/report.md" # before any work; a link to report.md is followed
out=$outdir_file
trap 'rm -f "$out.tmp" "$out.tmp2" "$out.study"' EXIT
trap 'exit 130' INT TERM
{
awk -F, -v dir="$dir" -v run="$(basename "$(cd "$dir" && pwd -P)")" '
    /^# / { k = substr($0, 3); i = index(k, ":"); if (i) meta[substr(k, 1, i - 1)] = substr(k, i + 2)
            keys[++nk] = substr(k, 1, i - 1); next }
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        n++; for (i = 1; i <= NF; i++) v[n, i] = $i
        m = $c["model"]; g = $c["gpus"] + 0
        if (!(m in gmax)) models[++nm] = m
        if (g > gmax[m]) gmax[m] = g
        if ($c["papi_gemm_GFLOPps"] != "" && $c["papi_gemm_GFLOPps"] != "NA") papi = 1
        a = $c["algo"]; if (!(a in seen_algo)) { seen_algo[a] = 1; algos[++na] = a }
        if (!((m, g) in seen_g)) { seen_g[m, g] = 1; gl[m] = gl[m] " " g }
        if (("stragglers" in c) && $c["stragglers"] != "NA" && $c["stragglers"] != "") { per_rank = 1; if ($c["stragglers"] > 0) strag[++ns] = n }
    }
    function hm(h) { return h == "NA" || h == "" ? "NA" : h < 1 ? sprintf("%.0f min", 60 * h) : h < 48 ? sprintf("%.1f h", h) : sprintf("%.1f d", h / 24) }
    function f(r, name) { return v[r, c[name]] }
    function alg(r) { return f(r, "algo") (f(r, "backend") == "model" ? " (α-β-γ model)" : "") }
    function pct(x) { return x == "NA" || x == "" ? "NA" : sprintf("%.1f%%", 100 * x) }
    function share(x, t) { return t > 0 ? sprintf("%.2f (%.1f%%)", x, 100 * x / t) : sprintf("%.2f", x) }
    END {
        study["resnet50"] = "IBM DDL 95%, Facebook Caffe2 89%"
        study["resnet101-22k"] = "IBM DDL 88%"
        y2017 = meta["platform"] ~ /(^|\/)(minsky|bigbasin)[^\/ ]*( |$)/ # the study: 2017 platforms, 256 GPUs
        for (j = 1; j <= nm; j++) if (!y2017 || gmax[models[j]] != 256) delete study[models[j]]
        printf "# Run %s\n\n", run
        printf "%s backend", meta["backend"]
        if (meta["platform"] != "") printf ", platform %s", meta["platform"]
        if (meta["profile"] != "") printf ", device profile %s", meta["profile"]
        printf "; up to %s nodes of %s GPUs. Data: [scaling.csv](scaling.csv) (columns: results/README.md).\n\n", meta["nodes"], meta["gpus_per_node"]
        if (meta["backend"] == "model")
            print "**Modelled, not simulated:** every row below is `ddlbench model --train` (the α-β-γ model of the step, harness/sim/model_step.h; checked against the simulation in tests/sim_speed.sh), labelled `model` in the CSV.\n"
        print "## Scaling efficiency at the largest GPU count\n"
        print "Efficiency E(N) = images/s at N GPUs / (N/N0 x images/s at N0), against one GPU (N0 = 1) and"
        print "against one node. The study figures (256 P100 GPUs, InfiniBand, 2017) are shown only for a run of"
        print "a 2017 platform at 256 GPUs, for comparison.\n"
        print "| model | GPUs | algorithm | bucket MB | images/s | E vs 1 GPU | E vs 1 node | study (256 GPUs) |"
        print "|---|---:|---|---:|---:|---:|---:|---|"
        for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (f(r, "model") == models[j] && f(r, "gpus") + 0 == gmax[models[j]])
            printf "| %s | %d | %s | %s | %.1f | %s | %s | %s |\n", models[j], gmax[models[j]], alg(r), f(r, "bucket_MB"),
                f(r, "images_per_s"), pct(f(r, "eff_vs_1gpu")), pct(f(r, "eff_vs_1node")), study[models[j]] == "" ? "-" : study[models[j]]
        print "\n@@STUDY@@" # report_study.sh: the closest catalogue figures, REALISM=study
        print "\n## Where the time goes (largest GPU count)\n"
        print "Medians over steps of the maximum over ranks, in ms (share of the step). Compute = forward and"
        print "backward up to the last gradient (allreduces overlap it), of which GEMM (conv/FC) and non-GEMM"
        print "(batch norm, ReLU, residual adds, pooling, im2col/col2im; 0 with `--compute gemm`); exposed ="
        print "waiting for the allreduces after it; comm busy = the allreduces time in total, overlapped or not.\n"
        printf "Compute mode: %s.\n\n", meta["compute"] == "" ? "gemm (a run from before --compute)" : meta["compute"]
        print "| model | algorithm | step ms | compute ms | GEMM ms | non-GEMM ms | exposed comm ms | SGD ms | comm busy ms |"
        print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
        for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (f(r, "model") == models[j] && f(r, "gpus") + 0 == gmax[models[j]]) {
            t = f(r, "step_ms_median")
            ng = ("nongemm_ms" in c) ? f(r, "nongemm_ms") : 0
            printf "| %s | %s | %.2f | %s | %s | %s | %s | %s | %.2f |\n", models[j], alg(r), t,
                share(f(r, "compute_ms"), t), share(f(r, "gemm_ms"), t), share(ng, t), share(f(r, "exposed_ms"), t),
                share(f(r, "sgd_ms"), t), f(r, "comm_ms")
        }
        time_to_train()
        stragglers()
        print "\n## Hardware counters\n"
        if (papi) {
            print "PAPI over the GEMMs of each rank main thread (timed steps), largest GPU count:\n"
            print "| model | algorithm | GEMM GFLOP/s per rank | IPC |\n|---|---|---:|---:|"
            for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (f(r, "model") == models[j] && f(r, "gpus") + 0 == gmax[models[j]])
                printf "| %s | %s | %s | %s |\n", models[j], alg(r), f(r, "papi_gemm_GFLOPps"), f(r, "papi_gemm_ipc")
        } else printf "Not measured (the papi_* columns read NA): %s.\n", meta["counters"] == "" ? "unknown" : meta["counters"]
        print "\n## Charts\n"
        split("efficiency:Scaling efficiency against GPU count;throughput:Images/s against GPU count;" \
              "busbw:Allreduce bus bandwidth against message size;breakdown:Step time at the largest scale", ch, ";")
        for (i = 1; i <= 4; i++) {
            split(ch[i], p, ":")
            printf "- %s: [%s.png](%s.png) ([svg](%s.svg))\n", p[2], p[1], p[1], p[1]
        }
        print "\n## Provenance\n"
        for (i = 1; i <= nk; i++) printf "- %s: `%s`\n", keys[i], meta[keys[i]]
        print "\nRegenerate: `make report plots RUN=" dir "` (the charts need gnuplot)."
    }
    function time_to_train(   j, k, r, g, cnt, gs, hdr2, cell, x) {
        print "\n## Time to train\n"
        if (!("time_to_train_h" in c)) { print "Not in this scaling.csv (written before the time_to_train_h column)."; return }
        print "Projected wall time (GPU-hours) of the study workloads at the images/s above: epochs x images / (images/s)."
        print "Assumptions: no data loading, no evaluation, every step at the measured or simulated rate; the"
        print "ResNet-101 / ImageNet-22K epochs are an assumption (docs/SOURCES.md §1). Study: ResNet-50 90 epochs"
        print "in 50 min, ResNet-101 / ImageNet-22K in about 7 h, both on 256 GPUs."
        img = ("image_size" in c) ? v[1, c["image_size"]] + 0 : 224
        if (img != 224) printf "**A projection of this configuration only:** its images are %dx%d, not the study'"'"'s 224x224, so these times are not comparable with the study'"'"'s.\n", img, img
        print ""
        hdr2 = "| model | workload | GPUs |"; for (k = 1; k <= na; k++) hdr2 = hdr2 " " algos[k] " |"
        print hdr2 " study (256 GPUs) |"; hdr2 = "|---|---|---:|"; for (k = 1; k <= na; k++) hdr2 = hdr2 "---:|"; print hdr2 "---|"
        for (j = 1; j <= nm; j++) {
            cnt = split(gl[models[j]], gs, " ")
            for (g = 2; g <= cnt; g++) { x = gs[g]; for (k = g - 1; k > 0 && gs[k] + 0 > x + 0; k--) gs[k + 1] = gs[k]; gs[k + 1] = x }
            for (g = 1; g <= cnt; g++) {
                delete cell; wl = "-"
                for (r = 1; r <= n; r++) if (f(r, "model") == models[j] && f(r, "gpus") == gs[g]) {
                    cell[f(r, "algo")] = f(r, "time_to_train_h") == "NA" ? "NA" : sprintf("%s (%.0f)", hm(f(r, "time_to_train_h")), f(r, "gpu_hours"))
                    if (f(r, "dataset") != "NA") wl = f(r, "epochs") " x " f(r, "dataset")
                }
                line = sprintf("| %s | %s | %s |", models[j], wl, gs[g]); for (k = 1; k <= na; k++) line = line " " ((algos[k] in cell) ? cell[algos[k]] : "-") " |"
                print line " " (img != 224 ? "- (image " img ")" : models[j] == "resnet50" ? "50 min" : models[j] == "resnet101-22k" ? "7 h" : "-") " |"
            }
        }
    }
    function stragglers(   k, r) {
        print "\n## Stragglers\n"
        if (!per_rank) { print "Not measured (launches without --per-rank)."; return }
        print "Rule: a rank whose own compute median exceeds the median over ranks by more than 2 MAD and by more"
        print "than 10% of that median (harness/bench/bench.h; compute, because every rank'"'"'s step ends with the last"
        print "allreduce, so a slow rank shows as longer compute while its peers wait). Per-rank rows: raw/*.csv.\n"
        if (!ns) { print "No straggler flagged in any configuration."; return }
        print "| model | GPUs | algorithm | bucket MB | stragglers | slowest rank | lag ms | MAD ms |"
        print "|---|---:|---|---:|---:|---:|---:|---:|"
        for (k = 1; k <= ns; k++) { r = strag[k]
            printf "| %s | %s | %s | %s | **%s flagged** | %s | %s | %s |\n", f(r, "model"), f(r, "gpus"), f(r, "algo"), f(r, "bucket_MB"),
                f(r, "stragglers"), f(r, "slowest_rank"), f(r, "lag_ms"), f(r, "mad_ms") }
    }' "$csv"
} >"$out.tmp"
sh "$(dirname "$0")/report_study.sh" "$dir" >"$out.study"
sed -e "/^@@STUDY@@\$/r $out.study" -e '/^@@STUDY@@$/d' "$out.tmp" >"$out.tmp2" && rm -f "$out.study" "$out.tmp" &&
    mv "$out.tmp2" "$out"
echo "# report: $dir/report.md"
