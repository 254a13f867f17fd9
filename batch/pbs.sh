#!/bin/bash
# pbs.sh — the scaling study on a PBS / PBS Pro / Torque allocation with the real-MPI backend, one rank
# per GPU:   qsub batch/pbs.sh   (or qsub -l select=16:ncpus=16:ngpus=4:mpiprocs=4 batch/pbs.sh)
# Launcher (harness/scripts/launch.sh): mpirun on the first hosts of $PBS_NODEFILE, G each (Open MPI
# --host h:G --map-by ppr:G:node; MPICH -hosts -ppn G). GPUs per node: CUDA_VISIBLE_DEVICES, else
# GPUS_PER_NODE (default 4); mpiprocs that differ from them are refused before any work
# (harness/scripts/alloc.sh). Results: results/<run-id>/.
# PLATFORM=dgxh100 (a preset or platform file): the allocation's machine, passed to every launch (auto's
# cost model, libddl's segments); GPUs per node other than the platform's are refused before any work.
# STUDY=fidelity: `make fidelity` on the allocation instead (results/fidelity/, setup alloc-NxG).
# DRY_RUN=1 bash batch/pbs.sh (with PBS_JOBID and PBS_NODEFILE set) prints the commands.
# Device: where the CUDA build (build/cuda/ddlbench) exists and the allocation has GPUs, each rank
# runs `ddlbench train --device gpu` at the study's batch sizes (32, 20) and 224x224 in PRECISION
# (fp32|tf32|bf16, default tf32); DEVICE=cpu runs the CPU build instead (make run, Makefile).
#PBS -N ddlbench
#PBS -l select=4:ncpus=16:ngpus=4:mpiprocs=4
#PBS -l walltime=01:00:00
#PBS -j oe
set -euo pipefail
cd "${PBS_O_WORKDIR:-$(dirname "$0")/..}"
shape=$(sh harness/scripts/alloc.sh pbs.sh) || exit 2
read -r nodes gpn <<<"$shape"
if [ "${STUDY:-}" = fidelity ]; then # make fidelity here: calibrate, run and simulate on these nodes
    exec make fidelity BACKEND=mpi \
        FIDELITY_FLAGS="--nodes $nodes --ranks-per-node $gpn ${DRY_RUN:+--dry-run }${FIDELITY_FLAGS:-}" \
        ${MAKE_ARGS:-}
fi
exec make run BACKEND=mpi NODES="$nodes" GPUS_PER_NODE="$gpn" ${DEVICE:+DEVICE="$DEVICE"} \
    ${PRECISION:+PRECISION="$PRECISION"} \
    ${DRY_RUN:+SWEEP_FLAGS="--dry-run ${SWEEP_FLAGS:-}"} ${MAKE_ARGS:-}
