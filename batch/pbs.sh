#!/bin/bash
# pbs.sh — the scaling study on a PBS / PBS Pro / Torque allocation with the real-MPI backend, one rank
# per GPU:   qsub batch/pbs.sh   (or qsub -l select=16:ncpus=16:ngpus=4:mpiprocs=4 batch/pbs.sh)
# Launcher: mpirun with $PBS_NODEFILE. Results: results/<run-id>/.
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
gpn=${GPUS_PER_NODE:-4}
nodefile=${PBS_NODEFILE:-}
if [ -n "$nodefile" ] && [ -f "$nodefile" ]; then nodes=$(sort -u "$nodefile" | wc -l); else nodes=${NODES:-1}; fi
export MPILAUNCH="${MPILAUNCH:-mpirun --hostfile ${nodefile:-/dev/null} --map-by ppr:$gpn:node -np}"
if [ "${STUDY:-}" = fidelity ]; then # make fidelity here: calibrate, run and simulate on these nodes
    exec make fidelity BACKEND=mpi FIDELITY_FLAGS="--nodes $nodes --ranks-per-node $gpn ${DRY_RUN:+--dry-run }${FIDELITY_FLAGS:-}" \
        ${MAKE_ARGS:-}
fi
exec make run BACKEND=mpi NODES="$nodes" GPUS_PER_NODE="$gpn" ${DEVICE:+DEVICE="$DEVICE"} \
    ${PRECISION:+PRECISION="$PRECISION"} \
    ${DRY_RUN:+SWEEP_FLAGS="--dry-run ${SWEEP_FLAGS:-}"} ${MAKE_ARGS:-}
