#!/bin/sh
# report.sh RUN_DIR [EXE] — RUN_DIR/report.md from RUN_DIR/scaling.csv (columns by name): provenance,
# scaling efficiency at the largest GPU count per model and algorithm beside the published figures of
# the catalogue at that model and scale (`EXE catalogue --platform P`, harness/sim/studies; EXE
# defaults to $DDLBENCH, else $BUILD/ddlbench, else build/ddlbench), where the step time goes there
# (compute: GEMM and non-GEMM, exposed communication, SGD), hardware counters when measured, the
# projected time to train (beside the catalogue's published times), stragglers flagged by the
# launches' --per-rank summary, the catalogue's closest published figures and, after `make run
# REALISM=study`, the run with the non-ideal effects (report_study.sh), and links to the charts
# (plots/plots.sh). Written whole: report.md.tmp, then renamed.
set -eu
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: report.sh RUN_DIR [EXE]" >&2; exit 2; }
dir=$1 csv=$1/scaling.csv root=$(cd "$(dirname "$0")/../.." && pwd)
b=${BUILD:-build}; case $b in /*) ;; *) b=$root/$b;; esac
exe=${2:-${DDLBENCH:-$b/ddlbench}}
[ -f "$csv" ] || { echo "report.sh: $csv: no such file (expected a results folder of make run)" >&2; exit 2; }
. "$(dirname "$0")/outdir.sh"
outfile_ready RUN_DIR "$dir/report.md" # before any work; a link to report.md is followed
out=$outdir_file
trap 'rm -f "$out.tmp" "$out.tmp2" "$out.study" "$out.cat" "$out.list" "$out.limit"' EXIT
trap 'exit 130' INT TERM
pl=$(awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["platform"]; exit }' \
    "$csv")
"$exe" catalogue --platform "${pl:-none}" >"$out.cat" 2>/dev/null || : >"$out.cat" # none: no published column
"$exe" list >"$out.list" 2>/dev/null || : >"$out.list" # what each algorithm is (ring: one channel, one rail)
{
awk -F, -v catf="$out.cat" -v listf="$out.list" -v dir="$dir" -v run="$(basename "$(cd "$dir" && pwd -P)")" \
    "$(cat "$(dirname "$0")/catalogue.awk")"'
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
        if (("stragglers" in c) && $c["stragglers"] != "NA" && $c["stragglers"] != "") { per_rank = 1;
            if ($c["stragglers"] > 0) strag[++ns] = n }
    }
    function f(r, name) { return v[r, c[name]] }
    # row r is model j at its largest GPU count
    function largest(r, j) { return f(r, "model") == models[j] && f(r, "gpus") + 0 == gmax[models[j]] }
    function alg(r) { return f(r, "algo") (f(r, "backend") == "model" ? " (α-β-γ model)" : "") }
    function pct(x) { return x == "NA" || x == "" ? "NA" : sprintf("%.1f%%", 100 * x) }
    function share(x, t) { return t > 0 ? sprintf("%.2f (%.1f%%)", x, 100 * x / t) : sprintf("%.2f", x) }
    END {
        printf "# Run %s\n\n", run
        printf "%s backend", meta["backend"]
        if (meta["platform"] != "") printf ", platform %s", meta["platform"]
        if (meta["profile"] != "") printf ", device profile %s", meta["profile"]
        printf "; up to %s nodes of %s GPUs. Data: [scaling.csv](scaling.csv) (columns: results/README.md).\n\n",
            meta["nodes"], meta["gpus_per_node"]
        if (meta["links"] != "") printf "Links at %s nodes: %s.\n\n", meta["nodes"], meta["links"]
        if (meta["backend"] == "model")
            print "**Modelled, not simulated:** every row below is `ddlbench model --train` (the α-β-γ model of " \
                "the step, harness/sim/perf_step.h; checked against the simulation in tests/sim_speed.sh), labelled " \
                "`model` in the CSV.\n"
        print "## Scaling efficiency at the largest GPU count\n"
        print "Efficiency E(N) = images/s at N GPUs / (N/N0 x images/s at N0), against one GPU (N0 = 1) and"
        print "against one node. Published: the figures of the catalogue (harness/sim/studies, `ddlbench catalogue`)"
        print "at the same model and GPU count, where this run'"'"'s platform is of the family of one of theirs.\n"
        if (meta["global_batch"] != "")
            printf "Scaling: strong (%s at the largest count); each row at its own per-GPU batch.\n",
                meta["global_batch"]
        else print "Scaling: weak (each GPU at the models'"'"' per-GPU batch at every scale)."
        print "Per-GPU E vs smallest: per-GPU images/s against the smallest run of the same row " \
            "(MLPerf'"'"'s comparison).\n"
        print "| model | GPUs | algorithm | bucket MB | images/s | E vs 1 GPU | E vs 1 node | per-GPU E vs smallest " \
            "| published (same GPUs) |"
        print "|---|---:|---|---:|---:|---:|---:|---:|---|"
        for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (largest(r, j))
            printf "| %s | %d | %s | %s | %.1f | %s | %s | %s | %s |\n", models[j], gmax[models[j]], alg(r),
                f(r, "bucket_MB"), f(r, "images_per_s"), pct(f(r, "eff_vs_1gpu")), pct(f(r, "eff_vs_1node")),
                ("eff_vs_smallest" in c) ? pct(f(r, "eff_vs_smallest")) : "NA",
                ((models[j] SUBSEP gmax[models[j]]) in pub) ? pub[models[j], gmax[models[j]]] : "-"
        while ((getline l < listf) > 0) { k = l; sub(/ .*/, "", k); d = l; sub(/^[^ ]+ +/, "", d); what[k] = d }
        printf "\nAlgorithms (`ddlbench list`):\n"
        for (i = 1; i <= na; i++) printf "- `%s`: %s\n", algos[i], (algos[i] in what) ? what[algos[i]] : "-"
        print "\n@@STUDY@@" # report_study.sh: the closest catalogue figures, REALISM=study
        print "\n## Where the time goes (largest GPU count)\n"
        print "Medians over steps of the maximum over ranks, in ms (share of the step). Compute = forward and"
        print "backward up to the last gradient (allreduces overlap it), of which GEMM (conv/FC) and non-GEMM"
        print "(batch norm, ReLU, residual adds, pooling, im2col/col2im; 0 with `--compute gemm`); exposed ="
        print "waiting for the allreduces after it; comm busy = the allreduces time in total, overlapped or not.\n"
        printf "Compute mode: %s.\n\n", meta["compute"] == "" ? "gemm (a run from before --compute)" : meta["compute"]
        print "| model | algorithm | step ms | compute ms | GEMM ms | non-GEMM ms | exposed comm ms | SGD ms " \
            "| comm busy ms |"
        print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
        for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (largest(r, j)) {
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
            for (j = 1; j <= nm; j++) for (r = 1; r <= n; r++) if (largest(r, j))
                printf "| %s | %s | %s | %s |\n", models[j], alg(r), f(r, "papi_gemm_GFLOPps"), f(r, "papi_gemm_ipc")
        } else printf "Not measured (the papi_* columns read NA): %s.\n",
            meta["counters"] == "" ? "unknown" : meta["counters"]
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
    function time_to_train(   j, k, r, g, cnt, gs, hdr2, cell, x, tt, pb) {
        print "\n## Time to train\n"
        if (!("time_to_train_h" in c)) {
            print "Not in this scaling.csv (written before the time_to_train_h column)."; return
        }
        print "Projected wall time (GPU-hours) of the study workloads at the images/s above: epochs x images / " \
            "(images/s)."
        print "Assumptions: no data loading, no evaluation, every step at the measured or simulated rate; the"
        print "ResNet-101 / ImageNet-22K epochs are an assumption (docs/SOURCES.md §1). Published: the wall times of"
        print "the catalogue'"'"'s figures at the same model and GPU count (as in the efficiency table)."
        img = ("image_size" in c) ? v[1, c["image_size"]] + 0 : 224
        if (img != 224) printf "**A projection of this configuration only:** its images are %dx%d, not the " \
            "study'"'"'s 224x224, so these times are not comparable with the study'"'"'s.\n", img, img
        print ""
        hdr2 = "| model | workload | GPUs |"; for (k = 1; k <= na; k++) hdr2 = hdr2 " " algos[k] " |"
        print hdr2 " published |"
        hdr2 = "|---|---|---:|"; for (k = 1; k <= na; k++) hdr2 = hdr2 "---:|"; print hdr2 "---|"
        for (j = 1; j <= nm; j++) {
            cnt = split(gl[models[j]], gs, " ")
            for (g = 2; g <= cnt; g++) { # insertion sort of the GPU counts
                x = gs[g]; for (k = g - 1; k > 0 && gs[k] + 0 > x + 0; k--) gs[k + 1] = gs[k]; gs[k + 1] = x
            }
            for (g = 1; g <= cnt; g++) {
                delete cell; wl = "-"
                for (r = 1; r <= n; r++) if (f(r, "model") == models[j] && f(r, "gpus") == gs[g]) {
                    tt = f(r, "time_to_train_h")
                    cell[f(r, "algo")] = tt == "NA" ? "NA" : sprintf("%s (%.0f)", hm(tt), f(r, "gpu_hours"))
                    if (f(r, "dataset") != "NA") wl = f(r, "epochs") " x " f(r, "dataset")
                }
                line = sprintf("| %s | %s | %s |", models[j], wl, gs[g])
                for (k = 1; k <= na; k++) line = line " " ((algos[k] in cell) ? cell[algos[k]] : "-") " |"
                pb = img != 224 ? "- (image " img ")" : ((models[j] SUBSEP gs[g]) in hrs) ? hrs[models[j], gs[g]] : "-"
                print line " " pb " |"
            }
        }
    }
    function stragglers(   k, r) {
        print "\n## Stragglers\n"
        if (!per_rank) { print "Not measured (launches without --per-rank)."; return }
        print "Rule: a rank whose own compute median exceeds the median over ranks by more than 2 MAD and by more"
        print "than 10% of that median (harness/bench/bench.h; compute, because every rank'"'"'s step ends with the " \
            "last"
        print "allreduce, so a slow rank shows as longer compute while its peers wait). Per-rank rows: raw/*.csv.\n"
        if (!ns) { print "No straggler flagged in any configuration."; return }
        print "| model | GPUs | algorithm | bucket MB | stragglers | slowest rank | lag ms | MAD ms |"
        print "|---|---:|---|---:|---:|---:|---:|---:|"
        for (k = 1; k <= ns; k++) { r = strag[k]
            printf "| %s | %s | %s | %s | **%s flagged** | %s | %s | %s |\n", f(r, "model"), f(r, "gpus"), f(r, "algo"),
                f(r, "bucket_MB"), f(r, "stragglers"), f(r, "slowest_rank"), f(r, "lag_ms"), f(r, "mad_ms") }
    }' "$out.cat" "$csv"
} >"$out.tmp"
sh "$(dirname "$0")/report_study.sh" "$dir" "$exe" >"$out.study"
# Today's platforms (the presets of current DGX systems): how far each algorithm keeps 90% per-GPU efficiency,
# from the alpha-beta-gamma model (ddlbench advise --limit 90, harness/sim/limit.h), at the run's batches
meta() { sed -n "s/^# $1: //p" "$csv" | head -n 1; }
limit_section() {
    case ${pl%% *} in dgxa100|dgxh100|dgxh200|h200) ;; *) return 0;; esac
    gbl=$(meta global_batch | cut -d' ' -f1); nn=$(meta nodes); prof=$(meta profile)
    [ -n "$nn" ] || return 0
    printf '\n## How far it scales (today'"'"'s platform, `ddlbench advise --limit 90`)\n\n'
    printf 'The largest GPU count at which each algorithm keeps at least 90%% per-GPU efficiency against one node,\n'
    printf 'from the alpha-beta-gamma model of the step (harness/sim/limit.h), up to this run'"'"'s %s nodes, and' "$nn"
    printf ' how it\nmoves when the NICs'"'"' bandwidth or the step'"'"'s compute time halves or doubles. '
    printf '">=N": still above at N.\n'
    for mb in $(meta models | tr ',' ' '); do
        m=${mb%%:*} bt=${mb#*:}
        set -- --batch "$bt"; [ -n "$gbl" ] && set -- --global-batch "$gbl"
        echo; echo '```'
        "$exe" advise --limit 90 --model "$m" --platform "${pl%% *}" --nodes "$nn" ${prof:+--profile "$prof"} "$@" \
            2>&1 | grep -v '^# the largest\|^# above\|^# time x0.5' || true
        echo '```'
    done
}
limit_section >"$out.limit" 2>/dev/null || : >"$out.limit"
sed -e "/^@@STUDY@@\$/r $out.study" -e '/^@@STUDY@@$/d' "$out.tmp" >"$out.tmp2" && cat "$out.limit" >>"$out.tmp2" &&
    rm -f "$out.study" "$out.tmp" "$out.limit" && mv "$out.tmp2" "$out"
echo "# report: $dir/report.md"
