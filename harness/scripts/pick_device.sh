#!/bin/sh
# pick_device.sh — which build `make run BACKEND=mpi` (and so the batch scripts) launches: prints
# "gpu" when the CUDA build exists (BUILD/cuda/ddlbench) and the allocation has GPUs, else "cpu".
# Usage: sh harness/scripts/pick_device.sh [BUILD]   (default build)
# GPUs: SLURM_GPUS_ON_NODE or SLURM_GPUS_PER_NODE (typed GRES too) > 0 (Slurm), CUDA_VISIBLE_DEVICES naming a device
# (LSF, PBS and most
# schedulers set it; "", "-1" and "NoDevFiles" name none), else `nvidia-smi -L` listing one.
build=${1:-build}
[ -x "$build/cuda/ddlbench" ] || { echo cpu; exit 0; }
case ${SLURM_GPUS_ON_NODE:-} in ''|0|*[!0-9]*) ;; *) echo gpu; exit 0 ;; esac
g=${SLURM_GPUS_PER_NODE:-}; g=${g%%,*}; g=${g%%(*}; g=${g##*:} # typed GRES: "h100:8" -> 8
case $g in ''|0|*[!0-9]*) ;; *) echo gpu; exit 0 ;; esac
case ${CUDA_VISIBLE_DEVICES-unset} in unset|''|-1|NoDevFiles) ;; *) echo gpu; exit 0 ;; esac
if [ "${CUDA_VISIBLE_DEVICES-unset}" = unset ] && command -v nvidia-smi >/dev/null 2>&1 &&
   nvidia-smi -L 2>/dev/null | grep -q '^GPU [0-9]'; then
    echo gpu; exit 0
fi
echo cpu
