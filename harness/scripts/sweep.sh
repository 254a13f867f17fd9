#!/bin/sh
# shellcheck disable=SC2086,SC2154 # unquoted on purpose, the whole file: --train-args, the flags $part, $override; the
# options are set by the eval of `ddlbench sweep-check --resolve`
# sweep.sh — the scaling study: `ddlbench train` at 1 GPU, then 1, 2, 4, ... NODES nodes of
# GPUS_PER_NODE ranks, for each model and every algorithm, one launch per (model, GPU count); then
# scaling efficiency E(N) = X(N) / ((N/N0)·X(N0)) against 1 GPU and against 1 node, in one CSV.
# Backends (--help): sim (SMPI), mpi (real MPI: this machine, or the allocation's nodes, each launch
# placed on its nodes x GPUS_PER_NODE), emu (an emulated cluster), model (ddlbench model --train); every
# launch goes through launch.sh. The logic is ddlbench's: `sweep-check` checks the options
# (one set of limits) and plans the launches, `merge` rewrites scaling.csv and scaling.json from
# raw/*.csv after each launch. This script launches up to --jobs at once and reports progress; each
# launch writes its CSV whole, so an interrupted sweep keeps what finished (--resume). Under mpi with
# --allreduce (make run passes it), the allocation's own allreduce sweep follows at each GPU count.
set -u
cmdline="sh harness/scripts/sweep.sh"
for a in "$@"; do case $a in ""|*[!A-Za-z0-9_./:,=+-]*) a="'$a'";; esac; cmdline="$cmdline $a"; done
here=$(cd "$(dirname "$0")" && pwd)
. "$here/outdir.sh"
# Messages name the option as the user typed it: --out here, OUT under `make run` (DDL_SWEEP_FROM_MAKE).
name() { if [ -n "${DDL_SWEEP_FROM_MAKE:-}" ]; then case $1 in --platform) echo PLATFORM;; --profile) echo PROFILE;;
    --train-args) echo TRAIN_ARGS;; --build) echo BUILD;; --out) echo OUT;; *) echo "$1";; esac; else echo "$1"; fi; }
prog=sweep.sh; [ -n "${DDL_SWEEP_FROM_MAKE:-}" ] && prog="make run"
die() { echo "$prog: $*" >&2; exit 2; }
bad() { die "$(name "$1"): $2"; } # option, what was wrong
# ddlbench_says OPTION COMMAND...: runs a ddlbench check; on failure its one line, reworded for OPTION
ddlbench_says() {
    opt=$1; shift
    msg=$("$@" 2>&1 >/dev/null) && return 0
    msg=$(echo "$msg" | head -n 1 | sed 's/^ddlbench [a-z-]*: //; s/^--[a-z-]*: //')
    bad "$opt" "${msg:-rejected by ddlbench}"
}
# sweep CMD ARGS...: ddlbench CMD (sweep-check, merge) with the sweep's options
sweep() {
    c=$1; shift
    "$chk" "$c" ${DDL_SWEEP_FROM_MAKE:+--make} --backend "$backend" --nodes "$nodes" --gpus-per-node "$gpn" \
        --models "$models" --algos "$algos" --bucket-mb "$bucket" --platform "$platform" --profile "$profile" \
        --rate "$rate" --delay "$delay" --train-args "$train_args" --jobs "$jobs" --sim-ring-max "$ringmax" \
        --global-batch "$global_batch" \
        --device "$device" --command "$cmdline" $override "$@"
}
# The options, their defaults and checks are ddlbench's (sweep-check --resolve prints them resolved,
# NAME='value' a line): BUILD's ddlbench, or the default build's (a dry run of another BUILD, --help)
build=build prev=""
for a in "$@"; do
    case $prev in --build) build=$a;; esac
    case $a in --build=*) build=${a#--build=};; BUILD=*) build=${a#BUILD=};; esac
    prev=$a
done
chk=$build/ddlbench; [ -x "$chk" ] || chk=$here/../../build/ddlbench
[ -x "$chk" ] || bad --build "$build/ddlbench not built (make all), which checks the options (sweep.sh --help)"
res=$("$chk" sweep-check --resolve ${DDL_SWEEP_FROM_MAKE:+--make} --command "$cmdline" "$@" 2>&1) ||
    die "${res#ddlbench sweep-check: }"
case $res in usage:*) printf '%s\n' "$res"; exit 0;; esac # -h, --help
eval "$res"
gpn=$gpus_per_node bucket=$bucket_mb ringmax=$sim_ring_max dry=$dry_run override=""
SEC_PER_KUNIT=$sec_per_kunit part="--override-platform --partial-leaf" # a point: part of a node or leaf
[ "$override_platform" = 1 ] && override=--override-platform
[ "$partial_leaf" = 1 ] && override="$override --partial-leaf" # a file's leaf over NODES, partly filled
[ -z "$add_train_args" ] || train_args="$train_args $add_train_args"
# mpi: a platform given is the allocation's machine, passed to every launch (auto's cost model, libddl's
# segments; its GPUs per node were checked against the allocation's); none given, none passed
[ "$backend" = mpi ] && [ "$platform_given" = 0 ] && platform=""
[ -x "$build/ddlbench" ] || [ "$dry" = 1 ] || bad --build "$build/ddlbench not built (make all)"
if [ "$backend" = mpi ]; then # which launcher places the ranks (merge's provenance; launch.sh's refusal)
    DDL_LAUNCHER=$(sh "$here/launch.sh" --which -b mpi -n 1 2>&1) || die "$DDL_LAUNCHER"
    export DDL_LAUNCHER
fi
if [ "$backend" = emu ] && [ "$dry" = 0 ]; then
    sh "$here/emucluster.sh" up --nodes "$nodes" --rate "$rate" --delay "$delay" --check || exit 2
fi
exe=$build/ddlbench
[ "$backend" = sim ] && exe=$build/sim/ddlbench-sim # mpi, emu: the real build
texe=$build/ddlbench # the executable that checks --train-args: the one that will run them
[ "$device" = gpu ] && exe=$build/cuda/ddlbench texe=$build/cuda/ddlbench \
    train_args="--device gpu --precision $precision $train_args"
[ -x "$exe" ] || [ "$dry" = 1 ] || bad --build "$exe not built (make all sim; the CUDA build needs nvcc)"
"$build/ddlbench" list >/dev/null 2>&1 || [ "$dry" = 1 ] || bad --build "$build/ddlbench does not run"
if [ "$backend" = sim ] || [ "$backend" = model ]; then # presets, profiles and train options, before any launch
    ddlbench_says --profile "$chk" model --algo ring --bytes 1 --preset minsky --nodes 1 --profile "$profile" $part
fi
set -f
[ -x "$texe" ] && ddlbench_says --train-args "$texe" train --model resnet50 --batch 1 -a "$algos" $train_args --help
set +f
# The plan: one launch a line, "first weight model batch gpus nodes gpus_per_node ring_modelled"
# shellcheck disable=SC2046 # one word or none each
plan=$(sweep sweep-check --plan $([ "$force" = 1 ] && echo --force) $([ "$dry" = 1 ] && echo --dry-run) 2>&1) ||
    die "${plan#ddlbench sweep-check: }"
total=$(echo "$plan" | grep -c .); units=$(echo "$plan" | awk '{ u += $2 } END { printf "%.0f\n", u }')
. "$here/sweep_jobs.sh"

run_id=$(date -u +%Y%m%dT%H%M%SZ)-$backend-$((nodes * gpn))gpus
if [ -z "$out" ] && [ "$resume" = 1 ]; then # continue the run results/latest points at
    [ -L results/latest ] && [ -d results/latest ] ||
        bad --out \
        "--resume without it continues results/latest, which does not exist; expected the folder of the sweep to resume"
    out=results/$(readlink results/latest)
elif [ -z "$out" ]; then
    out=results/$run_id
    [ "$dry" = 1 ] || { mkdir -p results && ln -sfn "$run_id" results/latest
        } || bad --out "cannot create results/$run_id"
fi
# The results folder, checked before any launch: a directory (made if missing), writable, not a kernel
# interface; and, unless resuming, free of an earlier sweep's raw CSVs (they would be merged in).
if [ "$dry" = 0 ]; then
    outdir_prog=$prog
    outdir_ready "$(name --out)" "$out"
    outdir_ready "$(name --out)" "$out/raw"
    params="backend=$backend nodes=$nodes gpus_per_node=$gpn models=$models algos=$algos bucket_MB=$bucket"
    params="$params platform=$platform profile=$profile train_args=$train_args rate=$rate delay=$delay"
    params="$params global_batch=$global_batch"
    if [ "$resume" = 1 ]; then
        rm -f "$out"/*.tmp "$out"/raw/*.tmp # a killed run's temporary files; finished CSVs are whole
        if [ -f "$out/.sweep" ] && [ "$(cat "$out/.sweep")" != "$params" ]; then
            bad --out "--resume: \"$out\" holds a sweep with other options ($(cat \
                "$out/.sweep")); expected the same options"
        fi
    elif ls "$out"/raw/*.csv >/dev/null 2>&1; then
        bad --out "\"$out\" holds an earlier sweep's results; expected a new folder, or --resume to continue it"
    fi
    printf '%s\n' "$params" >"$out/.sweep.tmp" && mv "$out/.sweep.tmp" "$out/.sweep" ||
        bad --out "cannot write \"$out/.sweep\""
fi
killtree() { for c in $(pgrep -P "$1" 2>/dev/null); do killtree "$c"; done; kill "$1" 2>/dev/null; }
running="" # "pid|model|gpus|start|weight|ring_modelled" per launch in flight
trap 'for e in $running; do killtree "${e%%|*}"; done; rm -f "$out"/*.tmp "$out"/raw/*.tmp "$out"/raw/*.rc
      echo "sweep.sh: interrupted; finished configurations are in $out (--resume continues)" >&2; exit 130' INT TERM
emu="sh $here/emucluster.sh --name sweep"
if [ "$backend" = emu ] && [ "$dry" = 0 ]; then # one cluster of NODES nodes; a launch uses its first ones
    $emu up --nodes "$nodes" --rate "$rate" --delay "$delay" >&2 || exit 2
    trap '$emu down >/dev/null' EXIT
fi

start=$(date +%s); done_n=0; status=0; spent=0; spent_units=0; todo=$units failed=""
while read -r _ w model batch g nn gp rm; do
    [ -n "$rm" ] || continue
    csv=$out/raw/$model-$g.csv
    if [ "$resume" = 1 ] && [ -s "$csv" ]; then
        done_n=$((done_n + 1)); todo=$((todo - w))
        [ "$quiet" = 1 ] || echo "[$done_n/$total] $model $g GPUs: already in $csv, skipped" >&2
        continue
    fi
    if [ "$dry" = 1 ]; then launch "$g" "$nn" "$gp" "$csv" "$model" "$batch" "$rm"; continue; fi
    reap "$jobs" # a failed launch does not stop the others: the sweep ends with the table of failures
    rm -f "$out/raw/$model-$g.rc"
    platform_dir "$nn" "$gp" || { echo "sweep.sh: cannot make the platform for $model at $g GPUs in $out/platforms" >&2
        failed="$failed$model|$g|2|cannot make its platform in $out/platforms
"; status=1; continue; }
    { launch "$g" "$nn" "$gp" "$csv" "$model" "$batch" "$rm" </dev/null >"$out/raw/$model-$g.log" 2>&1
      echo $? >"$out/raw/$model-$g.rc"; } &
    running="$running $!|$model|$g|$(date +%s)|$w|$rm"
done <<EOF
$plan
EOF
[ "$dry" = 1 ] && { [ "$backend$allreduce" = mpi1 ] && allreduce_sweep; exit 0; }
reap 1
ls "$out"/raw/*.csv >/dev/null 2>&1 && sweep merge "$out" # also when --resume found every configuration done
# the allocation's own busbw at each scale (run_allreduce.sh joins them)
[ "$backend$allreduce" = mpi1 ] && allreduce_sweep
failures
[ -f "$out/scaling.csv" ] || { echo "sweep.sh: no configuration finished" >&2; exit 1; }
sh "$here/summary.sh" "$out/scaling.csv" "$build/ddlbench" # the catalogue from this build's ddlbench
echo "# results: $out/scaling.csv"
exit "$status"
