#!/bin/sh
# sweep.sh — the scaling study: `ddlbench train` at 1 GPU, then 1, 2, 4, ... NODES nodes of
# GPUS_PER_NODE ranks, for each model and every algorithm, one launch per (model, GPU count); then
# scaling efficiency E(N) = X(N) / ((N/N0)·X(N0)) against 1 GPU and against 1 node, in one CSV.
#
# Backends: sim — the smpicc build under SimGrid SMPI on a generated platform (any scale, one
# machine); mpi — the real build under the MPI launcher (harness/scripts/mpilaunch.sh here, or the
# scheduler's launcher inside an allocation via MPILAUNCH, e.g. MPILAUNCH="srun -n"); model — no
# launch: `ddlbench model --train` composes the step from the alpha-beta-gamma model (rows labelled
# "model"; for 4,096-65,536 GPUs, beyond what the simulation reaches here).
# Simulated launches are independent: up to --jobs of them run at once (the 1-GPU baselines first,
# then the largest first, so the longest launch never starts last). Progress lines give an ETA
# weighted by each launch's expected cost (est_weight below: ranks x algorithms, squared for the
# rings), rescaled by the launches already finished; a sweep estimated at over an hour is refused
# unless --force.
# emu — the real
# build on an emulated cluster of NODES nodes on this machine (harness/scripts/emucluster.sh, root
# needed: one network namespace and hostname per node, NICs limited to --rate), brought up for the
# sweep and removed after it; ranks per node are detected from the node boundaries.
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
. "$here/outdir.sh"
usage() {
    cat <<'EOF'
usage: sweep.sh [options]
  --backend sim|mpi|emu|model  simulation (SMPI), real MPI, real MPI on an emulated cluster, or the
                         alpha-beta-gamma model (default sim)
  --nodes N              largest node count (default 2); node counts 1, 2, 4, ... N
  --gpus-per-node G      ranks per node (default 4)
  --models LIST          model:batch pairs (default resnet50:32,resnet101-22k:20)
  --algos LIST           allreduce algorithms (default mpi,ring,rhd,ddl,auto)
  --bucket-mb N          gradient bucket cap (default 25)
  --platform P           sim: platform preset or platform file (default minsky; e.g. from
                         ddlbench calibrate --network)
  --profile P            sim: device profile (default p100)
  --rate R               emu: each node's NIC rate, e.g. 500mbit (default none = unshaped)
  --delay D              emu: one-way delay per node egress, e.g. 100us (needs netem; default none)
  --train-args "..."     extra ddlbench train options (e.g. "--image-size 64 --steps 5")
  --device cpu|gpu       mpi: the CPU build (BUILD/ddlbench) or the CUDA build's GPU step
                         (BUILD/cuda/ddlbench train --device gpu); default cpu
  --build DIR            where ddlbench and sim/ddlbench-sim are (default build)
  --out DIR              results folder (default results/<run-id>; results/latest points at it);
                         one holding an earlier sweep's results is refused unless --resume
  --resume               continue an interrupted sweep: skip configurations whose CSV is already in
                         --out (default: the run results/latest points at); the options must match
  --dry-run              print each launch command (one line each) instead of running it; writes nothing
  -j, --jobs N           sim and model: launches at once (default: the core count); mpi: always 1
  --force                run even when the estimate is over an hour (sim)
  --sim-ring-max G       sim: above G GPUs the flat ring's rows come from the alpha-beta-gamma model
                         (ddlbench model --train; rows labelled "model"), not from SMPI, whose max-min
                         solver spends tens of minutes on a 1,024-GPU ring launch (default 256, where
                         the model is within 0.1% of the simulation; 0 = simulate every configuration)
  -q                     no progress lines
EOF
}
# Messages name the option as the user typed it: --algos here, ALGOS under `make run` (which sets
# DDL_SWEEP_FROM_MAKE).
name() {
    if [ -n "${DDL_SWEEP_FROM_MAKE:-}" ]; then
        case $1 in --backend) echo BACKEND;; --nodes) echo NODES;; --gpus-per-node) echo GPUS_PER_NODE;;
        --models) echo MODELS;; --algos) echo ALGOS;; --bucket-mb) echo BUCKET_MB;; --platform) echo PLATFORM;;
        --profile) echo PROFILE;; --train-args) echo TRAIN_ARGS;; --build) echo BUILD;; --out) echo OUT;; *) echo "$1";; esac
    else echo "$1"; fi
}
prog=sweep.sh; [ -n "${DDL_SWEEP_FROM_MAKE:-}" ] && prog="make run"
die() { echo "$prog: $*" >&2; exit 2; }
bad() { die "$(name "$1"): $2"; } # option, what was wrong
# count OPTION VALUE MIN MAX: a decimal integer in MIN..MAX (at most 9 digits reach the shell's test)
count() {
    case $2 in ''|*[!0-9]*|0?*) bad "$1" "expected an integer in $3..$4, got \"$2\"";; esac
    [ ${#2} -le 9 ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || bad "$1" "expected an integer in $3..$4, got \"$2\""
}
# ddlbench_says OPTION COMMAND...: runs a ddlbench check; on failure its one line, reworded for OPTION
ddlbench_says() {
    opt=$1; shift
    msg=$("$@" 2>&1 >/dev/null) && return 0
    msg=$(echo "$msg" | head -n 1 | sed 's/^ddlbench [a-z-]*: //; s/^--[a-z-]*: //')
    bad "$opt" "${msg:-rejected by ddlbench}"
}

backend=sim nodes=2 gpn=4 models=resnet50:32,resnet101-22k:20 algos=mpi,ring,rhd,ddl,auto bucket=25
platform=minsky profile=p100 train_args="" build=build out="" resume=0 quiet=0 dry=0 rate=none delay=none force=0
ringmax=256
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) device=cpu
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0;;
    -q) quiet=1; shift; continue;;
    --resume) resume=1; shift; continue;;
    --dry-run) dry=1; shift; continue;;
    --force) force=1; shift; continue;;
    --backend|--nodes|--gpus-per-node|--models|--algos|--bucket-mb|--platform|--profile|--train-args|--build|--out|--rate|--delay|-j|--jobs|--device|--sim-ring-max) ;;
    *) [ -n "${DDL_SWEEP_FROM_MAKE:-}" ] && die "SWEEP_FLAGS: unknown sweep.sh option \"$1\"; expected --resume, --dry-run or -q"
       die "unknown option \"$1\" (see --help)";;
    esac
    [ $# -ge 2 ] || bad "$1" "expected a value after it"
    case $1 in
    --backend) backend=$2;; --nodes) nodes=$2;; --gpus-per-node) gpn=$2;; --models) models=$2;;
    --algos) algos=$2;; --bucket-mb) bucket=$2;; --platform) platform=$2;; --profile) profile=$2;;
    --train-args) train_args=$2;; --build) build=$2;; --out) out=$2;; --rate) rate=$2;; --delay) delay=$2;;
    -j|--jobs) jobs=$2;; --device) device=$2;; --sim-ring-max) ringmax=$2;;
    esac
    shift 2
done
case $backend in sim|mpi|emu|model) ;; *) bad --backend "expected sim, mpi, emu or model, got \"$backend\"";; esac
[ "$backend" = emu ] || [ "$rate$delay" = nonenone ] || bad --rate "only with --backend emu (--rate, --delay)"
if [ "$backend" = emu ] && [ "$dry" = 0 ]; then # the values, root and tools, before anything is written
    sh "$here/emucluster.sh" up --nodes "$nodes" --rate "$rate" --delay "$delay" --check || exit 2
fi
case $backend:$device in *:cpu|mpi:gpu) ;; sim:gpu|emu:gpu|model:gpu) bad --device "gpu only with --backend mpi";;
    *) bad --device "expected cpu or gpu, got \"$device\"";; esac
maxn=4096; [ "$backend" = model ] && maxn=65536
count --nodes "$nodes" 1 "$maxn"; count --gpus-per-node "$gpn" 1 64; count --bucket-mb "$bucket" 0 65536
count --jobs "$jobs" 1 64; count --sim-ring-max "$ringmax" 0 65536
case $backend in mpi|emu) jobs=1;; esac # real ranks would share the cores (and an allocation's nodes)
[ $((nodes * gpn)) -le 65536 ] || bad --nodes "expected at most 65536 GPUs in all, got $nodes nodes x $gpn = $((nodes * gpn))"
case $models in ''|,*|*,|*,,*) bad --models "expected a comma list of model:batch like resnet50:32, got \"$models\"";; esac
for mb in $(echo "$models" | tr ',' ' '); do
    case $mb in
    ?*:*) count "--models batch of ${mb%%:*}" "${mb#*:}" 1 65536;;
    *) bad --models "expected model:batch like resnet50:32, got \"$mb\"";;
    esac
done
case $algos in ''|,*|*,|*,,*|*[!a-z0-9,_-]*) bad --algos "expected a comma list of algorithms (see ddlbench list), got \"$algos\"";; esac
set -f # --train-args is split into words, never globbed
for a in $train_args; do
    case $a in
    --csv|--model|--batch|-a|--algo|--bucket-mb) bad --train-args "$a is set by the sweep; expected other ddlbench train options";;
    --profile|--platform|--gpus-per-node) [ "$backend" = sim ] && bad --train-args "$a is set by the sweep under simulation (use $(name "$a"))";;
    esac
done
set +f

exe=$build/ddlbench
[ "$backend" = sim ] && exe=$build/sim/ddlbench-sim # mpi, emu: the real build
texe=$build/ddlbench # the executable that checks --train-args: the one that will run them
[ "$device" = gpu ] && exe=$build/cuda/ddlbench texe=$build/cuda/ddlbench train_args="--device gpu $train_args"
[ -x "$exe" ] || [ "$dry" = 1 ] || bad --build "$exe not built (make all sim; the CUDA build needs nvcc)"
"$build/ddlbench" list >/dev/null 2>&1 || [ "$dry" = 1 ] || bad --build "$build/ddlbench does not run"
if [ -x "$build/ddlbench" ]; then # names, presets, profiles and train options, before any launch
    known=$("$build/ddlbench" list --names) # the registry's names
    for a in $(echo "$algos" | tr ',' ' '); do
        echo "$known" | grep -qx "$a" || bad --algos "unknown algorithm \"$a\" (see ddlbench list)"
    done
    for mb in $(echo "$models" | tr ',' ' '); do
        ddlbench_says --models "$build/ddlbench" model --model "${mb%%:*}" --batch "${mb#*:}"
    done
    if [ "$backend" = sim ] || [ "$backend" = model ]; then
        case $platform in custom) bad --platform "custom needs link figures the sweep cannot pass; expected minsky, bigbasin, h200 or a platform file";; esac
        ddlbench_says --platform "$build/ddlbench" model --algo ring --bytes 1 --preset "$platform" --nodes 1 --gpus-per-node "$gpn"
        ddlbench_says --profile "$build/ddlbench" model --algo ring --bytes 1 --preset minsky --nodes 1 --profile "$profile"
    fi
    set -f
    # shellcheck disable=SC2086
    [ -x "$texe" ] && ddlbench_says --train-args "$texe" train --model resnet50 --batch 1 -a "$algos" $train_args --help
    set +f
fi

buckets="" # model=gradient buckets per step, for the cost estimate
for mb in $(echo "$models" | tr ',' ' '); do
    [ "$dry" = 1 ] && ! [ -x "$build/ddlbench" ] && break
    bk=$("$build/ddlbench" model --train --model "${mb%%:*}" --batch "${mb#*:}" -a ring --bucket-mb "$bucket" \
         --preset minsky --nodes 1 --gpus-per-node 1 2>/dev/null | awk '$1 == "ring" { print $3 }')
    buckets="$buckets ${mb%%:*}=${bk:-5}"
done

# GPU counts: the 1-GPU baseline, then 1, 2, 4, ... nodes (and NODES itself)
counts="1"; n=1
while :; do
    [ $((n * gpn)) -gt 1 ] && counts="$counts $((n * gpn))"
    [ "$n" -ge "$nodes" ] && break
    n=$((n * 2)); [ "$n" -gt "$nodes" ] && n=$nodes
done
sweep_meta() { # this sweep's own provenance lines
    echo "# run: $(basename "$out")"
    echo "# backend: $backend"
    if [ "$backend" = sim ]; then echo "# platform: $platform (simulated)"; echo "# profile: $profile"
    elif [ "$backend" = model ]; then echo "# platform: $platform (alpha-beta-gamma model, not simulated)"; echo "# profile: $profile"
    elif [ "$backend" = emu ]; then echo "# platform: emulated cluster (harness/scripts/emucluster.sh), NIC $rate, delay $delay"
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
    [ "$backend" = emu ] && plat=emu-$rate
    { sweep_meta; awk -F, -v OFS=, -v G="$gpn" -v backend="$backend" -v plat="$plat" \
        -v EXTRA=dataset,epochs,dataset_images,time_to_train_h,gpu_hours,slowest_rank,lag_ms,mad_ms,stragglers '
        FNR == 1 { nm = 0; hdr = 0; file++; split("", c); fb = FILENAME ~ /-model\.csv$/ ? "model" : backend }
        /^#/ { sub(/^# command:/, "# launch_command:"); meta[file, ++nm] = $0; nmeta[file] = nm; next }
        !hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }  # column names, per file
        ("rank" in c) && $c["rank"] != "all" { next }  # --per-rank: one row per rank; the summary row is "all"
        {
            n++; g = $c["ranks"]; key = $c["model"] SUBSEP $c["algo"] SUBSEP $c["bucket_MB"]; x = $c["images_per_s"]
            if (g > gmax || (g == gmax && fmaxm && fb != "model")) { gmax = g; fmax = file; fmaxm = fb == "model" }
            if (g == 1) x1[key] = x; if (g == G) xn[key] = x
            k[n] = key; gpus[n] = g; ips[n] = x; bk[n] = fb  # rows of a *-model.csv: the model (--sim-ring-max)
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
                print bk[i], plat, row[i], g, nn, gp, mid[i], e1, en, wrong[i], papi[i] extra[i]
            }
        }' $(ls "$out"/raw/*.csv 2>/dev/null | sort -t- -k2n); } >"$out/scaling.csv.tmp" &&
        { mv "$out/scaling.csv.tmp" "$out/scaling.csv" &&
            "$build/ddlbench" json --kind scaling "$out/scaling.csv" "$out/scaling.json"; } || # the same, as JSON
            { rm -f "$out/scaling.csv.tmp"; return 1; }
}

# ring_modelled GPUS: sim, and the ring's rows at this count come from the model (--sim-ring-max)
ring_modelled() {
    [ "$backend" = sim ] && [ "$ringmax" -gt 0 ] && [ "$1" -gt "$ringmax" ] && case ,$algos, in *,ring,*) ;; *) false;; esac
}

launch() { # ranks nodes gpus_per_node csv model batch
    r=$1 nn=$2 gp=$3 csv=$4 model=$5 batch=$6 la=$algos
    if ring_modelled "$r"; then # the ring's rows from the model, into a CSV of their own beside
        la=$(echo ",$algos," | sed 's/,ring,/,/; s/^,//; s/,$//')
        set -f
        # shellcheck disable=SC2086
        set -- "$build/ddlbench" model --train --model "$model" --batch "$batch" -a ring --bucket-mb "$bucket" \
            --csv "${csv%.csv}-model.csv" $train_args --preset "$platform" --nodes "$nn" --gpus-per-node "$gp" \
            --profile "$profile"
        set +f
        if [ "$dry" = 1 ]; then echo "$*"; else "$@" || return 1; fi
        [ -n "$la" ] || return 0
    fi
    set -f # no globbing of --train-args
    # shellcheck disable=SC2086
    set -- train --model "$model" --batch "$batch" -a "$la" --bucket-mb "$bucket" --csv "$csv" $train_args
    [ "$backend" = model ] || set -- "$@" --per-rank
    set +f
    if [ "$backend" = model ]; then # no launch: the step composed from the alpha-beta-gamma model
        shift
        set -- "$build/ddlbench" model --train "$@" --preset "$platform" --nodes "$nn" --gpus-per-node "$gp" --profile "$profile"
        if [ "$dry" = 1 ]; then echo "$*"; else "$@"; fi
    elif [ "$dry" = 1 ]; then # one line per launch, as it would run
        if [ "$backend" = sim ]; then
            echo "DDL_RANKS_PER_NODE=$gp sh $here/simlaunch.sh $r $out/platforms/$nn-$gp $exe $* --profile $profile"
        elif [ "$backend" = emu ]; then echo "$emu run --ppn $gp -- sh $here/mpilaunch.sh $r $exe $*"
        elif [ -n "${MPILAUNCH:-}" ]; then echo "$MPILAUNCH $r $exe $*"
        else echo "DDL_RANKS_PER_NODE=$gp sh $here/mpilaunch.sh $r $exe $*"; fi
    elif [ "$backend" = sim ]; then
        pdir=$out/platforms/$nn-$gp # made by platform_dir before the launch started
        DDL_RANKS_PER_NODE=$gp sh "$here/simlaunch.sh" "$r" "$pdir" "$exe" "$@" --profile "$profile" \
            --platform "$platform" --gpus-per-node "$gp"
    elif [ "$backend" = emu ]; then
        $emu run --ppn "$gp" -- sh "$here/mpilaunch.sh" "$r" "$exe" "$@" </dev/null
    elif [ -n "${MPILAUNCH:-}" ]; then
        # shellcheck disable=SC2086
        $MPILAUNCH "$r" "$exe" "$@"
    else
        DDL_RANKS_PER_NODE=$gp sh "$here/mpilaunch.sh" "$r" "$exe" "$@"
    fi
}

# platform_dir nodes gpus_per_node: sim: the launch's platform folder, made in the foreground before the
# launch starts (two launches at once on the same platform, e.g. both models at 256 GPUs, raced to
# rename the same platform.xml.tmp and one failed). 0, or 2 when `ddlbench platform` fails.
platform_dir() {
    [ "$backend" = sim ] || return 0
    pd=$out/platforms/$1-$2
    [ -f "$pd/platform.xml" ] || { mkdir -p "$pd" &&
        "$build/ddlbench" platform --preset "$platform" --nodes "$1" --gpus-per-node "$2" -o "$pd" >/dev/null; } || return 2
}

# Expected cost of one launch, in units of about SEC_PER_KUNIT/1000 s of one core here: per algorithm
# g + 4 (start-up, per-rank work), plus g^2/64 for each ring-like algorithm (mpi, ring: 2(g-1) steps
# of g messages per bucket), times the steps (timed + warm-up) and the gradient buckets per step
# against ResNet-50's 5. Calibrated on the quiet-machine sweep of docs/BENCHMARKS.md ("Sweep ETA").
SEC_PER_KUNIT=${SEC_PER_KUNIT:-15}
nalg=$(echo "$algos" | tr ',' '\n' | grep -c .); nq=$(echo "$algos" | tr ',' '\n' | grep -cx 'mpi\|ring')
steps=10 warm=2
# shellcheck disable=SC2086
set -- $train_args
while [ $# -gt 0 ]; do
    case $1 in --steps) steps=${2:-10}; shift;; --warmup) warm=${2:-2}; shift;; esac; shift
done
case $steps$warm in *[!0-9]*) steps=10 warm=2;; esac
est_weight() { # model g -> units
    [ "$backend" = model ] && { echo $((nalg * ($2 / 1024 + 1))); return; } # no launch: model_cost's O(g) loops
    mp=$(echo "$buckets" | tr ' ' '\n' | awk -F= -v m="$1" '$1 == m { print $2 * 20 }')
    w_a=$nalg w_q=$nq
    ring_modelled "$2" && w_a=$((nalg - 1)) w_q=$((nq - 1)) # the ring from the model: no launch cost
    echo $(((steps + warm) * ${mp:-100} * (w_a * ($2 + 4) + w_q * $2 * $2 / 64) / 100))
}
human() { if [ "$1" -lt 120 ]; then echo "$1 s"; elif [ "$1" -lt 7200 ]; then echo "$((($1 + 30) / 60)) min"
          else echo "$(($1 / 3600)).$(($1 % 3600 / 360)) h"; fi; }

# The plan, one launch per line "first weight model batch gpus": the 1-GPU baselines first, then the
# most expensive first (with several jobs the longest launch starts at once, not last).
plan=$(for mb in $(echo "$models" | tr ',' ' '); do
    for g in $counts; do
        first=1; [ "$g" = 1 ] && first=0
        echo "$first $(est_weight "${mb%%:*}" "$g") ${mb%%:*} ${mb#*:} $g"
    done
done | sort -k1,1n -k2,2nr)
total=$(echo "$plan" | grep -c .)
units=$(echo "$plan" | awk '{ u += $2 } END { printf "%.0f\n", u }')
est=$((units * SEC_PER_KUNIT / 1000 / jobs))
if [ "$backend" = sim ] && [ "$dry" = 0 ] && [ "$est" -gt 3600 ] && [ "$force" = 0 ]; then
    echo "sweep.sh: --nodes $nodes: about $(human "$est") estimated on this machine ($total launches, $jobs at once;" \
         "expected at most 1 h); --force (make run FORCE=1) runs it anyway, --backend model predicts it at once" >&2
    exit 2
fi

run_id=$(date -u +%Y%m%dT%H%M%SZ)-$backend-$((nodes * gpn))gpus
if [ -z "$out" ] && [ "$resume" = 1 ]; then # continue the run results/latest points at
    [ -L results/latest ] && [ -d results/latest ] || bad --out "--resume without it continues results/latest, which does not exist; expected the folder of the sweep to resume"
    out=results/$(readlink results/latest)
elif [ -z "$out" ]; then
    out=results/$run_id
    [ "$dry" = 1 ] || { mkdir -p results && ln -sfn "$run_id" results/latest; } || bad --out "cannot create results/$run_id"
fi
# The results folder, checked before any launch: a directory (made if missing), writable, not a kernel
# interface; and, unless resuming, free of an earlier sweep's raw CSVs (they would be merged in).
if [ "$dry" = 0 ]; then
    outdir_prog=$prog
    outdir_ready "$(name --out)" "$out"
    outdir_ready "$(name --out)" "$out/raw"
    params="backend=$backend nodes=$nodes gpus_per_node=$gpn models=$models algos=$algos bucket_MB=$bucket platform=$platform profile=$profile train_args=$train_args rate=$rate delay=$delay"
    if [ "$resume" = 1 ]; then
        rm -f "$out"/*.tmp "$out"/raw/*.tmp # a killed run's temporary files; finished CSVs are whole
        if [ -f "$out/.sweep" ] && [ "$(cat "$out/.sweep")" != "$params" ]; then
            bad --out "--resume: \"$out\" holds a sweep with other options ($(cat "$out/.sweep")); expected the same options"
        fi
    elif ls "$out"/raw/*.csv >/dev/null 2>&1; then
        bad --out "\"$out\" holds an earlier sweep's results; expected a new folder, or --resume to continue it"
    fi
    printf '%s\n' "$params" >"$out/.sweep.tmp" && mv "$out/.sweep.tmp" "$out/.sweep" || bad --out "cannot write \"$out/.sweep\""
fi
trap 'rm -f "$out"/*.tmp "$out"/raw/*.tmp; echo "sweep.sh: interrupted; finished configurations are in $out (--resume continues)" >&2; exit 130' INT TERM
emu="sh $here/emucluster.sh --name sweep"
if [ "$backend" = emu ] && [ "$dry" = 0 ]; then # one cluster of NODES nodes; a launch uses its first ones
    $emu up --nodes "$nodes" --rate "$rate" --delay "$delay" >&2 || exit 2
    trap '$emu down >/dev/null' EXIT
fi

killtree() { for c in $(pgrep -P "$1" 2>/dev/null); do killtree "$c"; done; kill "$1" 2>/dev/null; }
running="" # "pid|model|gpus|start|weight" per launch in flight
trap 'for e in $running; do killtree "${e%%|*}"; done; rm -f "$out"/*.tmp "$out"/raw/*.tmp "$out"/raw/*.rc
      echo "sweep.sh: interrupted; finished configurations are in $out" >&2; exit 130' INT TERM

start=$(date +%s); done_n=0; status=0; spent=0; spent_units=0; todo=$units
finish() { # model g start weight: one launch ended; merge its CSV and say where the sweep stands
    f_rc=$(cat "$out/raw/$1-$2.rc" 2>/dev/null || echo 1); rm -f "$out/raw/$1-$2.rc"
    done_n=$((done_n + 1)); f_now=$(date +%s); f_csv=$out/raw/$1-$2.csv; todo=$((todo - $4))
    if [ "$f_rc" != 0 ]; then
        echo "sweep.sh: $1 at $2 GPUs failed; its output:" >&2
        tail -n 5 "$out/raw/$1-$2.log" >&2
        [ -f "$f_csv" ] && mv -f "$f_csv" "$f_csv.partial" # rows of a failed launch: kept aside, redone by --resume
        status=1
        return
    fi
    merge
    spent=$((spent + f_now - $3)); spent_units=$((spent_units + $4))
    [ "$quiet" = 1 ] && return
    # time left: the work not finished at the rate measured so far (seconds per unit and launch),
    # spread over the jobs, and never less than the longest launch in flight still needs
    f_left=$(echo "$running" | tr ' ' '\n' | awk -F'|' -v now="$f_now" -v s="$spent" -v u="$spent_units" \
        -v todo="$todo" -v j="$jobs" -v c="$SEC_PER_KUNIT" '
        BEGIN { r = u > 0 && s > 0 ? s / u : c / 1000 }
        NF == 5 { x = $5 * r - (now - $4); if (x > m) m = x }
        END { t = todo * r / j; printf "%d\n", (t > m ? t : m) + 0.5 }')
    f_how="$backend; $algos"; ring_modelled "$2" && f_how="$f_how; ring from the model"
    echo "[$done_n/$total] $1 $2 GPUs ($f_how) took $(human $((f_now - $3))); elapsed $(human $((f_now - start))), about $(human "$f_left") left" >&2
}
reap() { # wait until fewer than $1 launches are in flight, finishing those that ended
    while :; do
        r_still="" r_n=0 r_ended=""
        for r_e in $running; do
            r_m=${r_e#*|}; r_g=${r_m#*|}; r_g=${r_g%%|*}; r_m=${r_m%%|*}
            if [ -f "$out/raw/$r_m-$r_g.rc" ]; then r_ended="$r_ended $r_e"; else r_still="$r_still $r_e" r_n=$((r_n + 1)); fi
        done
        running=$r_still
        for r_e in $r_ended; do
            wait "${r_e%%|*}"
            # shellcheck disable=SC2046
            finish $(echo "${r_e#*|}" | tr '|' ' ')
        done
        [ "$r_n" -lt "$1" ] && return
        sleep 0.2
    done
}

while read -r _ w model batch g; do
    [ -n "$g" ] || continue
    if [ "$g" -ge "$gpn" ]; then nn=$((g / gpn)) gp=$gpn; else nn=1 gp=$g; fi
    csv=$out/raw/$model-$g.csv
    if [ "$resume" = 1 ] && [ -s "$csv" ]; then
        done_n=$((done_n + 1)); todo=$((todo - w))
        [ "$quiet" = 1 ] || echo "[$done_n/$total] $model $g GPUs: already in $csv, skipped" >&2
        continue
    fi
    if [ "$dry" = 1 ]; then launch "$g" "$nn" "$gp" "$csv" "$model" "$batch"; continue; fi
    reap "$jobs"
    [ "$status" = 0 ] || break # after a failure nothing new starts; the launches in flight finish
    rm -f "$out/raw/$model-$g.rc"
    platform_dir "$nn" "$gp" || { echo "sweep.sh: cannot make the platform for $model at $g GPUs in $out/platforms" >&2; status=1; break; }
    { launch "$g" "$nn" "$gp" "$csv" "$model" "$batch" </dev/null >"$out/raw/$model-$g.log" 2>&1
      echo $? >"$out/raw/$model-$g.rc"; } &
    running="$running $!|$model|$g|$(date +%s)|$w"
done <<EOF
$plan
EOF
[ "$dry" = 1 ] && exit 0
reap 1
ls "$out"/raw/*.csv >/dev/null 2>&1 && merge # also when --resume found every configuration done
[ -f "$out/scaling.csv" ] || { echo "sweep.sh: no configuration finished" >&2; exit 1; }
sh "$here/summary.sh" "$out/scaling.csv"
echo "# results: $out/scaling.csv"
exit "$status"
