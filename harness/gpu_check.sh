#!/bin/sh
# gpu_check.sh — `make gpu-check`: the prepared check of the CUDA build on a machine with one NVIDIA
# GPU and no network (docs/GPU.md). Usage: sh harness/gpu_check.sh BUILD/cuda/ddlbench
# Steps (each under a time limit; the whole check fits in 5 minutes on an H200):
#   1. ddlbench gpu-check: cuBLAS vs float64 reference per precision, peak and ResNet-50 GEMM TFLOP/s,
#      reduction GB/s vs D2D copy, device profile -> results/gpu/local.profile
#   2. tests/test_cuda on 1 rank (singleton MPI_Init, no launcher) and, when a launcher is found,
#      2 ranks sharing the GPU: reduction kernel, GEMMs and every algorithm on device buffers
#      (staged through pinned memory, and CUDA-aware when the MPI library is)
# Without a device it prints one "SKIP: no CUDA device (...)" line and exits 0 (a check that cannot
# run is not a failure of the build); any failed step makes it exit 1. The table comes last.
exe=${1:?usage: gpu_check.sh BUILD/cuda/ddlbench}
BUILD=${BUILD:-build}
out=${GPU_CHECK_OUT:-results/gpu}
dir=$(dirname "$0")
mkdir -p "$out" || exit 1
log=$out/gpu_check.log
: >"$log"

first=$(timeout 150 "$exe" gpu-check --profile-out "$out/local.profile" 2>&1)
st=$?
echo "$first" >>"$log"
case $first in SKIP:*) echo "$first"; exit 0 ;; esac
echo "$first"
status=""
[ $st -eq 0 ] && status="gpu-check ok" || status="gpu-check FAILED (exit $st)"

res1=$(timeout 60 "$BUILD/tests/test_cuda" 2>&1); s1=$?
echo "$res1" >>"$log"
t1=$(echo "$res1" | grep -E '^[0-9]+ passed' | tail -n 1)
t2="not run (no MPI launcher: see docs/GPU.md)"
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    res2=$(timeout 60 sh "$dir/mpilaunch.sh" 2 "$BUILD/tests/test_cuda" 2>&1); s2=$?
    echo "$res2" >>"$log"
    t2=$(echo "$res2" | grep -E '^[0-9]+ passed' | tail -n 1)
    [ $s2 -ne 0 ] && t2="$t2 (exit $s2)"
fi
[ $s1 -ne 0 ] && t1="$t1 (exit $s1)"

echo "# gpu-check summary (log: $log)"
printf '%-34s %s\n' "cuBLAS, rates, profile" "$status" \
    "test_cuda, 1 rank" "${t1:-no result}" \
    "test_cuda, 2 ranks sharing the GPU" "$t2" \
    "device profile" "$out/local.profile"
case "$status $t1 $t2" in *FAIL*|*exit*) exit 1 ;; esac
echo "$t1 $t2" | grep -qE '[1-9][0-9]* failed' && exit 1
exit 0
