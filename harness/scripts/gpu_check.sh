#!/bin/sh
# gpu_check.sh — `make gpu-check`: the prepared check of the CUDA build on a machine with one NVIDIA
# GPU and no network (docs/GPU.md). Usage: sh harness/scripts/gpu_check.sh BUILD/cuda/ddlbench
# Steps (each under a time limit; the whole check fits in 6 minutes on an H200):
#   1. ddlbench gpu-check: cuBLAS vs float64 reference per precision, peak and ResNet-50 GEMM TFLOP/s,
#      reduction GB/s vs D2D copy, layer kernels' GB/s, device profile -> results/gpu/local.profile, and
#      the ResNet-50 step at batch 256 (--compute gemm and full) beside PyTorch's images/s
#   2. tests/test_cuda_compute (the layer kernels on the device against the host ones) and
#      tests/test_cuda on 1 rank (singleton MPI_Init, no launcher) and, when a launcher is found,
#      2 ranks sharing the GPU: reduction kernel, GEMMs and every algorithm on device buffers
#      (staged through pinned memory, and CUDA-aware when the MPI library is)
#   3. ddlbench train --device gpu: the full ResNet-50 step at batch 32 (224x224) on 1 rank (singleton
#      MPI_Init), 2 warm-up + 5 timed steps, -a ring, per GEMM precision fp32 / tf32 / bf16: images/s,
#      and which device path libddl took (device=staged or device=cuda-aware)
#   4. ddlbench allreduce --device gpu at 2 ranks sharing the GPU (when a launcher is found), every
#      result checked on the host: 64 MB busbw per algorithm
# Without a device it prints one "SKIP: no CUDA device (...)" line and exits 0 (a check that cannot
# run is not a failure of the build); any failed step makes it exit 1. The table comes last.
exe=${1:?usage: gpu_check.sh BUILD/cuda/ddlbench}
BUILD=${BUILD:-build}
out=${GPU_CHECK_OUT:-results/gpu}
dir=$(dirname "$0")
. "$dir/outdir.sh"
[ -x "$exe" ] || outdir_fail gpu_check.sh "$exe not built (make all with nvcc)"
outdir_ready GPU_CHECK_OUT "$out" # before minutes on the device
outfile_ready GPU_CHECK_OUT "$out/gpu_check.log"
outfile_ready GPU_CHECK_OUT "$out/local.profile"
log=$out/gpu_check.log
: >"$log"

first=$(timeout 300 "$exe" gpu-check --profile-out "$out/local.profile" 2>&1)
st=$?
echo "$first" >>"$log"
case $first in SKIP:*) echo "$first"; exit 0 ;; esac
echo "$first"
status=""
[ $st -eq 0 ] && status="gpu-check ok" || status="gpu-check FAILED (exit $st)"

res0=$(timeout 120 "$BUILD/tests/test_cuda_compute" 2>&1); s0=$?
echo "$res0" >>"$log"
t0=$(echo "$res0" | grep -E '^[0-9]+ passed' | tail -n 1)
[ $s0 -ne 0 ] && t0="$t0 (exit $s0)"
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

# train_line PRECISION: "N images/s (step X ms, device=PATH)" of the batch-32 ResNet-50 step, or why not
train_line() {
    r=$(timeout 120 "$exe" train --device gpu --precision "$1" --batch 32 --steps 5 --warmup 2 -a ring 2>&1); rs=$?
    echo "$r" >>"$log"
    path=$(echo "$r" | grep -o 'device=[a-z-]*' | head -n 1)
    row=$(echo "$r" | awk '$1 == "ring" { print $NF - 0 == 0 ? $(NF-1) " images/s (step " $4 " ms median, " : "wrong " $NF }')
    [ $rs -eq 0 ] && [ -n "$row" ] && echo "$row$path)" || echo "FAILED (exit $rs): $(echo "$r" | tail -n 1)"
}
tr_fp32=$(train_line fp32); tr_tf32=$(train_line tf32); tr_bf16=$(train_line bf16)

# 4. the allreduce micro-benchmark on device buffers, 2 ranks sharing the GPU (needs a launcher)
ar="not run (no MPI launcher: see docs/GPU.md)"
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    r=$(timeout 120 sh "$dir/mpilaunch.sh" 2 "$exe" allreduce --device gpu -b 1K -e 64M -f 8 -a ring,rhd,ddl -w 2 -n 5 2>&1); rs=$?
    echo "$r" >>"$log"
    path=$(echo "$r" | grep -o 'device=[a-z-]*' | head -n 1)
    big=$(echo "$r" | awk '$1 == 67108864 && $6 == "out" { printf "%s %s GB/s ", $5, $11 }')
    [ $rs -eq 0 ] && ar="ok: 64 MB busbw ${big}($path)" || ar="FAILED (exit $rs): $(echo "$r" | tail -n 1)"
fi

echo "# gpu-check summary (log: $log)"
printf '%-34s %s\n' "cuBLAS, rates, profile" "$status" \
    "test_cuda_compute (layer kernels)" "${t0:-no result}" \
    "test_cuda, 1 rank" "${t1:-no result}" \
    "test_cuda, 2 ranks sharing the GPU" "$t2" \
    "ResNet-50 b32 train, 1 rank, fp32" "$tr_fp32" \
    "ResNet-50 b32 train, 1 rank, tf32" "$tr_tf32" \
    "ResNet-50 b32 train, 1 rank, bf16" "$tr_bf16" \
    "allreduce --device gpu, 2 ranks" "$ar" \
    "device profile" "$out/local.profile"
case "$status ${t0:-no result} $t1 $t2 $tr_fp32 $tr_tf32 $tr_bf16 $ar" in *FAIL*|*exit*|*wrong*|*"no result"*) exit 1 ;; esac
echo "$t0 $t1 $t2" | grep -qE '[1-9][0-9]* failed' && exit 1
exit 0
