#!/bin/sh
# make_run.sh RUN REALISM BACKEND OUT DRY SWEEP_ARG... — the recipe of `make run` (the Makefile checks and
# quotes the variables, passes only those given to sweep.sh as SWEEP_ARG, and builds what the backend runs).
# Each part says its wall and CPU seconds (phase.sh): the sweep into OUT (sweep.sh's default when empty);
# with REALISM=study the sweep again with the catalogue's non-ideal effects into RUN/realism; then, unless
# DRY is 1 (SWEEP_FLAGS=--dry-run), the run's allreduce sweep, its report and its charts from RUN.
set -eu
[ $# -ge 5 ] || { echo "usage: make_run.sh RUN REALISM BACKEND OUT DRY SWEEP_ARG..." >&2; exit 2; }
run=$1 realism=$2 backend=$3 out=$4 dry=$5
shift 5
if [ "$realism" = study ]; then
    case $backend in mpi|emu)
        echo "REALISM=study: the modelled effects are for BACKEND=sim or model; a real run pays its own" >&2
        exit 2;;
    esac
fi
cd "$(dirname "$0")/../.." # the paths below, and the sweep's recorded command, as make gives them
phase() { BUILD=${BUILD:-build} sh harness/scripts/phase.sh "$@"; }
# Horovod's cycles and stragglers: the catalogue's sourced effects (harness/sim/studies/04-09)
real_train="--cycle-ms 5 --jitter 0.2 --steps 5"
phase sweep env DDL_SWEEP_FROM_MAKE=1 sh harness/scripts/sweep.sh "$@" ${out:+"OUT=$out"}
[ "$realism" != study ] ||
    phase realism env DDL_SWEEP_FROM_MAKE=1 sh harness/scripts/sweep.sh "$@" --add-train-args "$real_train" -q \
        --out "$run/realism"
[ "$dry" != 1 ] || exit 0
for s in harness/scripts/run_allreduce.sh harness/scripts/report.sh plots/plots.sh; do
    phase "$(basename "$s" .sh)" sh "$s" "$run"
done
