#!/bin/sh
# fidelity_profile.sh — sourced by fidelity.sh (not run alone): the compute side of a setup's
# calibration, made before any compared point: it launches the runs; `ddlbench fidelity` takes their
# medians. Uses fidelity.sh's $exe, $backend, $dry, $here and real().

# Per-rank compute rates with k processes sharing the cores (kernel timings alone: no MPI, no step):
# the GEMM rate of the trained model's own GEMMs (`ddlbench model --time --cold`, the same shapes the
# step runs, each layer on its own weights in the step's order: one shared hot buffer priced the
# step's GEMMs 2x fast, 26 against 55 ms a step on 2026-12-02) and the reduction cost (`ddlbench
# calibrate`: float32 sums of 64 MiB vectors); the median of k concurrent runs of each -> local.profile
# (`ddlbench fidelity profile`: the mean of the two middle runs when k is even).
# On an allocation the launcher starts them, one per rank (each names its files by its rank).
compute_profile() { # k dir
    if [ "$backend" = mpi ]; then
        real "$1" sh -c 'r=${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-0}}}}
            OPENBLAS_NUM_THREADS=1 "$1" model --model resnet50 --batch 2 --image-size 32 --time --cold --reps 3 \
                >"$2/gemm$r.txt" &&
            "$1" calibrate -o "$2/cpu$r.profile" >/dev/null' sh "$exe" "$2" || return 1
    else
        i=0; while [ "$i" -lt "$1" ]; do # the GEMMs alone first (as the step runs them: no other process beside)
            OPENBLAS_NUM_THREADS=1 "$exe" model --model resnet50 --batch 2 --image-size 32 --time --cold --reps 3 \
                >"$2/gemm$i.txt" &
            i=$((i + 1)); done
        wait
        i=0; while [ "$i" -lt "$1" ]; do "$exe" calibrate -o "$2/cpu$i.profile" >/dev/null & i=$((i + 1)); done
        wait
    fi
    [ -z "$dry" ] || return 0
    "$exe" fidelity profile "$2"/gemm*.txt "$2"/cpu*.profile >"$2/local.profile.tmp" &&
        mv "$2/local.profile.tmp" "$2/local.profile"
}

# Compute slowed while communication runs (train --contention, framework.h), measured on this machine:
# k concurrent `model --time --cold` alone (compute_profile's), then again beside a k-rank ring allreduce of 25 MiB
# buckets
# polling every 50 us (DDL_POLL_US, as the trainer's communication thread does); the ratio of the
# medians' GEMM times less 1, in percent, >= 0 -> dir/contention (`ddlbench fidelity contention`). A calibration run of
# its own: no
# compared point enters it. Single node only; on an allocation (--backend mpi) and the emulated
# cluster not measured: 0.
contention_probe() { # k dir
    echo 0 >"$2/contention"
    [ "$backend" = sim ] && [ -z "$dry" ] || return 0
    gemms() { # k prefix: k concurrent cold GEMM timings
        j=0; pids=""; while [ "$j" -lt "$1" ]; do
            OPENBLAS_NUM_THREADS=1 "$exe" model --model resnet50 --batch 2 --image-size 32 --time --cold --reps 3 \
                >"$2$j.txt" &
            pids="$pids $!"; j=$((j + 1)); done
        # shellcheck disable=SC2086
        wait $pids
    }
    # the allreduce runs until the GEMMs are done (a fixed count ended before them in one run: 6.6%
    # measured where another run, whose allreduce lasted, measured 43.2%); alive before and after them
    DDL_POLL_US=50 sh "$here/mpilaunch.sh" "$1" "$exe" allreduce -a ring -b 25M -e 25M -w 1 -n 1000000 \
        >"$2/beside.log" 2>&1 </dev/null &
    bg=$!
    sleep 2
    kill -0 "$bg" 2>/dev/null || { echo "fidelity: the contention probe's allreduce ended early (see $2/beside.log)" \
        >&2; return 1; }
    gemms "$1" "$2/beside" || { kill "$bg" 2>/dev/null; return 1; }
    kill -0 "$bg" 2>/dev/null ||
        { echo "fidelity: the contention probe's allreduce ended before the GEMMs (see $2/beside.log)" >&2; return 1; }
    kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null || :
    "$exe" fidelity contention "$2"/gemm[0-9]*.txt "$2"/beside[0-9]*.txt >"$2/contention.tmp" &&
        mv "$2/contention.tmp" "$2/contention"
}

# Communication slowed while compute runs (train --comm-contention, framework.h), the mirror, measured
# on this machine: a k-rank ring allreduce of 25 MiB in place (a bucket of the compared train), polling
# every 50 us, alone, then again while k concurrent `model --time --cold` loops run beside it (as the
# trainer's communication thread runs beside its rank's GEMMs); the ratio of the medians less 1, in
# percent, >= 0 -> dir/comm_contention. Its own runs: no compared point enters it. Single node only
# (0 elsewhere, as contention_probe). Measured 2026-12-03: 2 ranks 10.7 -> 28.1 ms, 4 ranks 28 -> 169.
comm_probe() { # k dir
    echo 0 >"$2/comm_contention"
    [ "$backend" = sim ] && [ -z "$dry" ] || return 0
    ring() { DDL_POLL_US=50 sh "$here/mpilaunch.sh" "$1" "$exe" allreduce -a ring -b 25M -e 25M -w 1 -n 9 \
        --csv "$2" >"$2.log" 2>&1 </dev/null; }
    ring "$1" "$2/comm_alone.csv" ||
        { echo "fidelity: the communication probe's allreduce failed (see $2/comm_alone.csv.log)" >&2; return 1; }
    j=0; pids=""; while [ "$j" -lt "$1" ]; do # GEMM loops that outlast the allreduce; stopped after it
        OPENBLAS_NUM_THREADS=1 "$exe" model --model resnet50 --batch 2 --image-size 32 --time --cold --reps 1000 \
            >/dev/null 2>&1 </dev/null &
        pids="$pids $!"; j=$((j + 1)); done
    sleep 1
    ring "$1" "$2/comm_beside.csv"; st=$?
    alive=1; for p in $pids; do kill -0 "$p" 2>/dev/null || alive=0; done
    # shellcheck disable=SC2086
    { kill $pids; wait $pids; } 2>/dev/null
    [ "$st" = 0 ] ||
        { echo "fidelity: the communication probe's allreduce failed beside the GEMMs (see $2/comm_beside.csv.log)" >&2
        return 1; }
    [ "$alive" = 1 ] || { echo "fidelity: the communication probe's GEMMs ended before its allreduce" >&2; return 1; }
    comm_ratio "$2/comm_alone.csv" "$2/comm_beside.csv" >"$2/comm_contention.tmp" &&
        mv "$2/comm_contention.tmp" "$2/comm_contention"
}
# comm_ratio alone.csv beside.csv: (beside / alone - 1) x 100 of the in-place rows' median times, >= 0,
# one decimal (`ddlbench fidelity comm-ratio`); fails when either has no in-place row or alone's time is not > 0
comm_ratio() { "$exe" fidelity comm-ratio "$1" "$2"; }
