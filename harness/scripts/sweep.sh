#!/bin/sh
# sweep.sh — the scaling study: `ddlbench train` at 1 GPU, then 1, 2, 4, ... NODES nodes of
# GPUS_PER_NODE ranks, for each model and every algorithm, one launch per (model, GPU count); then
# scaling efficiency E(N) = X(N) / ((N/N0)·X(N0)) against 1 GPU and against 1 node, in one CSV.
#
# Backends: sim — the smpicc build under SimGrid SMPI on a generated platform (any scale, one
# machine); mpi — the real build under the MPI launcher (harness/scripts/mpilaunch.sh here, or the
# scheduler's launcher inside an allocation via MPILAUNCH, e.g. MPILAUNCH="srun -n").
# Each launch writes its own CSV (to a temporary name, renamed when complete); the merged
# scaling.csv is rewritten after every configuration, so an interrupted sweep keeps every finished
# configuration and --resume skips them. Every CSV begins with `# key: value` provenance lines
# (results/README.md); scaling.json holds the same rows as JSON (ddlbench json). Launches run with
# --per-rank: scaling.csv keeps each configuration's summary row (slowest rank, lag, stragglers).
# --dry-run prints each launch command instead of running it.
set -u
cmdline="sh harness/scripts/sweep.sh"
for a in "$@"; do case $a in ""|*[!A-Za-z0-9_./:,=+-]*) a="'$a'";; esac; cmdline="$cmdline $a"; done
here=$(cd "$(dirname "$0")" && pwd)
usage() {
    cat <<'EOF'
usage: sweep.sh [options]
  --backend sim|mpi      simulation (SMPI) or real MPI (default sim)
  --nodes N              largest node count (default 2); node counts 1, 2, 4, ... N
  --gpus-per-node G      ranks per node (default 4)
  --models LIST          model:batch pairs (default resnet50:32,resnet101-22k:20)
  --algos LIST           allreduce algorithms (default mpi,ring,rhd,ddl,auto)
  --bucket-mb N          gradient bucket cap (default 25)
  --platform P           sim: platform preset or platform file (default minsky; e.g. from
                         ddlbench calibrate --network)
  --profile P            sim: device profile (default p100)
  --train-args "..."     extra ddlbench train options (e.g. "--image-size 64 --steps 5")
  --build DIR            where ddlbench and sim/ddlbench-sim are (default build)
  --out DIR              results folder (default results/<run-id>; results/latest points at it)
  --resume               skip configurations whose CSV is already in --out
  --dry-run              print each launch command (one line each) instead of running it; writes nothing
  -q                     no progress lines
EOF
}
die() { echo "sweep.sh: $*" >&2; exit 2; }
posint() { case $2 in ''|*[!0-9]*|0*) die "$1: expected a positive integer, got \"$2\"";; esac; }

backend=sim nodes=2 gpn=4 models=resnet50:32,resnet101-22k:20 algos=mpi,ring,rhd,ddl,auto bucket=25
platform=minsky profile=p100 train_args="" build=build out="" resume=0 quiet=0 dry=0
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0;;
    -q) quiet=1; shift; continue;;
    --resume) resume=1; shift; continue;;
    --dry-run) dry=1; shift; continue;;
    esac
    [ $# -ge 2 ] || die "$1: expected a value (see --help)"
    case $1 in
    --backend) backend=$2;; --nodes) nodes=$2;; --gpus-per-node) gpn=$2;; --models) models=$2;;
    --algos) algos=$2;; --bucket-mb) bucket=$2;; --platform) platform=$2;; --profile) profile=$2;;
    --train-args) train_args=$2;; --build) build=$2;; --out) out=$2;;
    *) die "unknown option \"$1\" (see --help)";;
    esac
    shift 2
done
case $backend in sim|mpi) ;; *) die "--backend: expected sim or mpi, got \"$backend\"";; esac
posint --nodes "$nodes"; posint --gpus-per-node "$gpn"
[ "$nodes" -le 4096 ] || die "--nodes: expected at most 4096, got $nodes"
[ "$gpn" -le 64 ] || die "--gpus-per-node: expected at most 64, got $gpn"
case $bucket in ''|*[!0-9]*) die "--bucket-mb: expected an integer >= 0, got \"$bucket\"";; esac
for mb in $(echo "$models" | tr ',' ' '); do
    case $mb in *:*) posint "--models batch of ${mb%%:*}" "${mb#*:}";; *) die "--models: expected model:batch, got \"$mb\"";; esac
done

exe=$build/ddlbench
[ "$backend" = sim ] && exe=$build/sim/ddlbench-sim
[ -x "$exe" ] || [ "$dry" = 1 ] || die "$exe not built (make all sim)"
names=$("$build/ddlbench" list --names 2>/dev/null) || [ "$dry" = 1 ] || die "$build/ddlbench does not run"
for a in $(echo "$algos" | tr ',' ' '); do # the registry's names (ddlbench list --names)
    [ "$dry" = 1 ] && ! [ -x "$build/ddlbench" ] && break
    echo "$names" | grep -qx "$a" || die "--algos: unknown algorithm \"$a\" (see ddlbench list)"
done
if [ "$backend" = sim ] && [ "$dry" = 0 ]; then # validate the preset and profile once, before any launch
    tmpp=$(mktemp -d) && "$build/ddlbench" platform --preset "$platform" --nodes 1 --gpus-per-node "$gpn" -o "$tmpp" >/dev/null ||
        { rm -rf "$tmpp"; exit 2; }
    rm -rf "$tmpp"
    "$build/ddlbench" model --algo ring --bytes 1 --preset "$platform" --nodes 1 --gpus-per-node "$gpn" \
        --profile "$profile" >/dev/null || exit 2
fi
for mb in $(echo "$models" | tr ',' ' '); do # model names and batch sizes (ddlbench prints why)
    [ "$dry" = 1 ] && ! [ -x "$build/ddlbench" ] && break
    "$build/ddlbench" model --model "${mb%%:*}" --batch "${mb#*:}" >/dev/null || exit 2
done

run_id=$(date -u +%Y%m%dT%H%M%SZ)-$backend-$((nodes * gpn))gpus
if [ -z "$out" ]; then
    out=results/$run_id
    [ "$dry" = 1 ] || { mkdir -p results && ln -sfn "$run_id" results/latest; }
fi
[ "$dry" = 1 ] || mkdir -p "$out/raw" || die "cannot create $out"
trap 'rm -f "$out"/*.tmp "$out"/raw/*.tmp; echo "sweep.sh: interrupted; finished configurations are in $out" >&2; exit 130' INT TERM

# GPU counts: the 1-GPU baseline, then 1, 2, 4, ... nodes (and NODES itself)
counts="1"; n=1
while :; do
    [ $((n * gpn)) -gt 1 ] && counts="$counts $((n * gpn))"
    [ "$n" -ge "$nodes" ] && break
    n=$((n * 2)); [ "$n" -gt "$nodes" ] && n=$nodes
done
total=0; for mb in $(echo "$models" | tr ',' ' '); do for g in $counts; do total=$((total + 1)); done; done

sweep_meta() { # this sweep's own provenance lines
    echo "# run: $(basename "$out")"
    echo "# backend: $backend"
    if [ "$backend" = sim ]; then echo "# platform: $platform (simulated)"; echo "# profile: $profile"
    else echo "# platform: real MPI, launcher: ${MPILAUNCH:-harness/scripts/mpilaunch.sh}"; fi
    echo "# nodes: $nodes"
    echo "# gpus_per_node: $gpn"
    echo "# models: $models"
    echo "# algos: $algos"
    echo "# bucket_MB: $bucket"
    echo "# train_args: $train_args"
    echo "# sweep_command: $cmdline"
}

merge() { # raw/*.csv -> scaling.csv with efficiencies, written whole (temporary name, renamed)
    plat=$platform; [ "$backend" = mpi ] && plat=${MPILAUNCH:+allocation} && plat=${plat:-local}
    { sweep_meta; awk -F, -v OFS=, -v G="$gpn" -v backend="$backend" -v plat="$plat" \
        -v EXTRA=dataset,epochs,dataset_images,time_to_train_h,gpu_hours,slowest_rank,lag_ms,mad_ms,stragglers '
        FNR == 1 { nm = 0; hdr = 0; file++; split("", c) }
        /^#/ { sub(/^# command:/, "# launch_command:"); meta[file, ++nm] = $0; nmeta[file] = nm; next }
        !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }  # column names, per file
        ("rank" in c) && $c["rank"] != "all" { next }  # --per-rank: one row per rank; the summary row is "all"
        {
            n++; g = $c["ranks"]; key = $c["model"] SUBSEP $c["algo"] SUBSEP $c["bucket_MB"]; x = $c["images_per_s"]
            if (g > gmax) { gmax = g; fmax = file }
            if (g == 1) x1[key] = x; if (g == G) xn[key] = x
            k[n] = key; gpus[n] = g; ips[n] = x
            papi[n] = ("papi_gemm_GFLOPps" in c) ? $c["papi_gemm_GFLOPps"] "," $c["papi_gemm_ipc"] : "NA,NA"
            row[n] = $c["model"] "," $c["batch"] "," $c["image_size"]
            mid[n] = $c["algo"] "," $c["bucket_MB"] "," $c["buckets"]
            for (j = c["step_ms_median"]; j <= c["images_per_s"]; j++) {
                mid[n] = mid[n] "," $j
                if (j == c["gemm_ms"] && !("nongemm_ms" in c)) mid[n] = mid[n] ",0" # raw CSV from before the full step
            }
            wrong[n] = $c["wrong"]
            ne = split(EXTRA, xn_, ","); extra[n] = ""  # time to train, per-rank summary (NA when absent)
            for (j = 1; j <= ne; j++) extra[n] = extra[n] "," ((xn_[j] in c) ? $c[xn_[j]] : "NA")
        }
        END {
            for (i = 1; i <= nmeta[fmax]; i++) print meta[fmax, i]
            print "backend,platform,model,batch,image_size,gpus,nodes,gpus_per_node,algo,bucket_MB,buckets," \
                  "step_ms_median,step_ms_min,step_ms_max,compute_ms,gemm_ms,nongemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms," \
                  "other_pct,images_per_s,eff_vs_1gpu,eff_vs_1node,wrong,papi_gemm_GFLOPps,papi_gemm_ipc," EXTRA
            for (i = 1; i <= n; i++) {
                g = gpus[i]; nn = g >= G ? g / G : 1; gp = g >= G ? G : g
                e1 = (k[i] in x1) ? sprintf("%.4f", ips[i] / (g * x1[k[i]])) : "NA"
                en = (g >= G && (k[i] in xn)) ? sprintf("%.4f", ips[i] / (nn * xn[k[i]])) : "NA"
                print backend, plat, row[i], g, nn, gp, mid[i], e1, en, wrong[i], papi[i] extra[i]
            }
        }' $(ls "$out"/raw/*.csv 2>/dev/null | sort -t- -k2n); } >"$out/scaling.csv.tmp" &&
        mv "$out/scaling.csv.tmp" "$out/scaling.csv" &&
        "$build/ddlbench" json --kind scaling "$out/scaling.csv" "$out/scaling.json" # the same, as JSON
}

launch() { # ranks nodes gpus_per_node csv model batch
    r=$1 nn=$2 gp=$3 csv=$4 model=$5 batch=$6
    # shellcheck disable=SC2086
    set -- train --model "$model" --batch "$batch" -a "$algos" --bucket-mb "$bucket" --csv "$csv" --per-rank $train_args
    if [ "$dry" = 1 ]; then # one line per launch, as it would run
        if [ "$backend" = sim ]; then
            echo "DDL_RANKS_PER_NODE=$gp sh $here/simlaunch.sh $r $out/platforms/$nn-$gp $exe $* --profile $profile"
        elif [ -n "${MPILAUNCH:-}" ]; then echo "$MPILAUNCH $r $exe $*"
        else echo "DDL_RANKS_PER_NODE=$gp sh $here/mpilaunch.sh $r $exe $*"; fi
    elif [ "$backend" = sim ]; then
        pdir=$out/platforms/$nn-$gp
        [ -f "$pdir/platform.xml" ] || { mkdir -p "$pdir" &&
            "$build/ddlbench" platform --preset "$platform" --nodes "$nn" --gpus-per-node "$gp" -o "$pdir" >/dev/null; } || return 2
        DDL_RANKS_PER_NODE=$gp sh "$here/simlaunch.sh" "$r" "$pdir" "$exe" "$@" --profile "$profile" \
            --platform "$platform" --gpus-per-node "$gp"
    elif [ -n "${MPILAUNCH:-}" ]; then
        # shellcheck disable=SC2086
        $MPILAUNCH "$r" "$exe" "$@"
    else
        DDL_RANKS_PER_NODE=$gp sh "$here/mpilaunch.sh" "$r" "$exe" "$@" </dev/null
    fi
}

human() { if [ "$1" -lt 120 ]; then echo "$1 s"; else echo "$((($1 + 30) / 60)) min"; fi; }
start=$(date +%s); done_n=0; status=0
for mb in $(echo "$models" | tr ',' ' '); do
    model=${mb%%:*} batch=${mb#*:}
    for g in $counts; do
        done_n=$((done_n + 1))
        if [ "$g" -ge "$gpn" ]; then nn=$((g / gpn)) gp=$gpn; else nn=1 gp=$g; fi
        csv=$out/raw/$model-$g.csv
        if [ "$resume" = 1 ] && [ -s "$csv" ]; then
            [ "$quiet" = 1 ] || echo "[$done_n/$total] $model $g GPUs: already in $csv, skipped" >&2
            continue
        fi
        if [ "$dry" = 1 ]; then launch "$g" "$nn" "$gp" "$csv" "$model" "$batch"; continue; fi
        t0=$(date +%s)
        if ! launch "$g" "$nn" "$gp" "$csv" "$model" "$batch" >"$out/raw/$model-$g.log" 2>&1; then
            echo "sweep.sh: $model at $g GPUs failed; its output:" >&2
            tail -n 5 "$out/raw/$model-$g.log" >&2
            [ -f "$csv" ] && mv -f "$csv" "$csv.partial" # rows of a failed launch: kept aside, redone by --resume
            status=1
            break 2
        fi
        merge
        if [ "$quiet" != 1 ]; then
            now=$(date +%s); el=$((now - start)); left=$((el * (total - done_n) / done_n))
            echo "[$done_n/$total] $model $g GPUs ($backend; $algos) took $(human $((now - t0))); elapsed $(human $el), about $(human $left) left" >&2
        fi
    done
done
[ "$dry" = 1 ] && exit 0
[ -f "$out/scaling.csv" ] || { echo "sweep.sh: no configuration finished" >&2; exit 1; }
sh "$here/summary.sh" "$out/scaling.csv"
echo "# results: $out/scaling.csv"
exit "$status"
