#!/bin/sh
# gpu_check.sh — `make gpu-check`: the prepared check of the CUDA build on a machine with one NVIDIA
# GPU and no network (docs/GPU.md). Usage: sh harness/scripts/gpu_check.sh BUILD/cuda/ddlbench
# Steps (each under a time limit, all of them, the bundle's MPI probe included, within GPU_CHECK_BUDGET
# seconds, default 450: the whole check fits one 10-minute call on a bare GPU machine):
#   1. ddlbench gpu-check: cuBLAS vs float64 reference per precision, peak and ResNet-50 GEMM TFLOP/s,
#      reduction GB/s vs D2D copy, layer kernels' GB/s, device profile -> results/gpu/local.profile, and
#      the ResNet-50 step at batch 32 and 256 (--compute gemm and full) beside the H200 references
#   2. tests/test_cuda_compute (the layer kernels on the device against the host ones) and
#      tests/test_cuda on 1 rank (singleton MPI_Init, no launcher) and, when a launcher is found,
#      2 ranks sharing the GPU: reduction kernel, GEMMs and every algorithm on device buffers
#      (staged through pinned memory, and CUDA-aware when the MPI library is)
#   3. ddlbench train --device gpu: the full ResNet-50 step at batch 32 (224x224) on 1 rank (singleton
#      MPI_Init), 2 warm-up + 5 timed steps, -a ring, per GEMM precision fp32 / tf32 / bf16: images/s,
#      and which device path libddl took (device=staged or device=cuda-aware)
#   4. ddlbench allreduce at 2 ranks sharing the GPU (when a launcher is found: the system's mpirun, else
#      the bundle of `make gpu-bundle` in .gpu/), device and host buffers in the same run, 1 KB..256 MB,
#      every result checked: staged/host busbw per algorithm at 64 and 256 MB, 1 KB latency vs 30 us
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
t_start=$(date +%s)
# lim S: S seconds, or what is left of the budget when that is less (at least 5)
lim() { left=$(( ${GPU_CHECK_BUDGET:-450} - ($(date +%s) - t_start) )); [ $left -lt 5 ] && left=5; [ "$1" -lt $left ] &&
    echo "$1" || echo $left; }
# The bundle of `make gpu-bundle` (.gpu/, or GPU_BUNDLE): its Open MPI runtime, mpirun and library path
# serve a GPU machine that has no MPI; gpu_mpi_probe turns off what the machine refuses (vader's CMA).
bundle=${GPU_BUNDLE:-.gpu}
if [ -f "$bundle/env.sh" ]; then
    GPU_BUNDLE=$bundle
    # shellcheck disable=SC1091
    . "$bundle/env.sh" || exit 1
    MPIRUN=mpirun
    { echo "## bundle $bundle"; gpu_mpi_probe "$exe"; } >>"$log" 2>&1
fi

first=$(timeout "$(lim 300)" "$exe" gpu-check --profile-out "$out/local.profile" 2>&1)
st=$?
echo "$first" >>"$log"
case $first in SKIP:*) echo "$first"; exit 0 ;; esac
echo "$first"
status=""
[ $st -eq 0 ] && status="gpu-check ok" || status="gpu-check FAILED (exit $st)"

res0=$(timeout "$(lim 90)" "$BUILD/tests/test_cuda_compute" 2>&1); s0=$?
echo "$res0" >>"$log"
t0=$(echo "$res0" | grep -E '^[0-9]+ passed' | tail -n 1)
[ $s0 -ne 0 ] && t0="$t0 (exit $s0)"
res1=$(timeout "$(lim 60)" "$BUILD/tests/test_cuda" 2>&1); s1=$?
echo "$res1" >>"$log"
t1=$(echo "$res1" | grep -E '^[0-9]+ passed' | tail -n 1)
t2="not run (no MPI launcher: see docs/GPU.md)"
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    res2=$(timeout "$(lim 90)" sh "$dir/mpilaunch.sh" 2 "$BUILD/tests/test_cuda" 2>&1); s2=$?
    echo "$res2" >>"$log"
    t2=$(echo "$res2" | grep -E '^[0-9]+ passed' | tail -n 1)
    [ $s2 -ne 0 ] && t2="$t2 (exit $s2)"
fi
[ $s1 -ne 0 ] && t1="$t1 (exit $s1)"

# train_line PRECISION: "N images/s (step X ms, device=PATH)" of the batch-32 ResNet-50 step, or why not
train_line() {
    r=$(timeout "$(lim 60)" "$exe" train --device gpu --precision "$1" --batch 32 --steps 5 --warmup 2 -a ring 2>&1)
    rs=$?
    echo "$r" >>"$log"
    path=$(echo "$r" | grep -o 'device=[a-z-]*' | head -n 1)
    row=$(echo "$r" | awk \
        '$1 == "ring" { print $NF - 0 == 0 ? $(NF-1) " images/s (step " $4 " ms median, " : "wrong " $NF }')
    [ $rs -eq 0 ] && [ -n "$row" ] && echo "$row$path)" || echo "FAILED (exit $rs): $(echo "$r" | tail -n 1)"
}
tr_fp32=$(train_line fp32); tr_tf32=$(train_line tf32); tr_bf16=$(train_line bf16)

# 4. the allreduce micro-benchmark at 2 ranks sharing the GPU (needs a launcher): device buffers
# (staged or CUDA-aware) and host buffers in the same run, 1 KB..256 MB; per algorithm and size >= 64 MB
# the staged/host busbw ratio (goal >= 0.9), and the 1 KB latency against the 30 us goal (issue 14)
AR_SWEEP="-b 1K -e 256M -f 4 -a ring,rhd,ddl -w 2 -n 5"
ar="not run (no MPI launcher: see docs/GPU.md)"
ar_rows=""
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    rd=$(timeout "$(lim 120)" sh "$dir/mpilaunch.sh" 2 "$exe" allreduce --device gpu $AR_SWEEP 2>&1); sd=$?
    # shellcheck disable=SC2086
    rh=$(timeout "$(lim 90)" sh "$dir/mpilaunch.sh" 2 "$exe" allreduce $AR_SWEEP 2>&1); sh_=$?
    { echo "## allreduce --device gpu"; echo "$rd"; echo "## allreduce, host buffers"; echo "$rh"; } >>"$log"
    path=$(echo "$rd" | grep -o 'device=[a-z-]*' | head -n 1)
    # rows "size algo time_us busbw" of the out-of-place results
    rows() { echo "$1" | awk '$1 ~ /^[0-9]+$/ && $6 == "out" { print $1, $5, $7, $11 }'; }
    ar_rows=$(printf '%s\n' "$(rows "$rd" | sed 's/^/D /')" "$(rows "$rh" | sed 's/^/H /')" | awk '
        $1 == "D" { dt[$2 " " $3] = $4; db[$2 " " $3] = $5; if (!($3 in seen)) { seen[$3] = 1; al[++na] = $3 } }
        $1 == "H" { ht[$2 " " $3] = $4; hb[$2 " " $3] = $5 }
        END {
            for (i = 1; i <= na; i++) {
                k = "1024 " al[i]
                if (k in dt) printf "%-34s %s 1 KB: device %.1f us, host %.1f us; goal <= 30 us: %s\n", \
                    "allreduce latency, 2 ranks", al[i], dt[k], ht[k], (dt[k] <= 30 ? "met" : "not met")
                for (s = 67108864; s <= 268435456; s *= 4) {
                    k = s " " al[i]
                    if (!(k in db)) {
                        printf "%-34s %s %d MB: no device row\n", "allreduce staged/host", al[i], s / 1048576;
                        continue }
                    r = hb[k] > 0 ? db[k] / hb[k] : 0
                    printf "%-34s %s %d MB: %.2f / %.2f GB/s = %.2fx (goal >= 0.9x: %s)\n", \
                        "allreduce staged/host busbw", al[i], s / 1048576, db[k], hb[k], r,
                        (r >= 0.9 ? "met" : "not met")
                }
            }
        }')
    if [ $sd -ne 0 ] || [ $sh_ -ne 0 ]; then
        ar="FAILED (device exit $sd, host exit $sh_): $(printf '%s\n%s' "$rd" "$rh" | grep -v '^ ' | tail -n 1)"
    elif [ -z "$ar_rows" ] || echo "$ar_rows" | grep -q 'no device row'; then
        ar="FAILED: no 64/256 MB rows (see $log)"
    else
        ar="ok, every result checked ($path)"
    fi
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
[ -n "$ar_rows" ] && echo "$ar_rows"
case "$status ${t0:-no result} $t1 $t2 $tr_fp32 $tr_tf32 $tr_bf16 $ar" in *FAIL*|*exit*|*wrong*|*"no result"*) \
    exit 1 ;; esac
echo "$t0 $t1 $t2" | grep -qE '[1-9][0-9]* failed' && exit 1
exit 0
