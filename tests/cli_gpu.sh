#!/bin/sh
# cli_gpu.sh — `ddlbench train --device/--precision` from the outside (docs/GPU.md).
# CPU build: --device gpu and any precision but fp32 are refused with one stderr line and exit 2;
# --device cpu --precision fp32 runs (1 rank, singleton MPI_Init) and checks its gradients.
# CUDA build ($BUILD/cuda/ddlbench): without a device, --device gpu prints one "no CUDA device" line and
# exits 1 (never a crash), as does allreduce --device gpu; with one, a small checked step runs per precision at 1 rank. When the CUDA
# build does not exist (no nvcc), its checks are SKIPped and counted as passed. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
cuda=$BUILD/cuda/ddlbench

# expect EXE WANT ARGS... : run EXE ARGS (no launcher), compare status; for 1 and 2, one stderr line
expect() {
    x=$1; want=$2; shift 2
    timeout 120 "$x" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne "$want" ]; then bad "$x $*: exit $got, want $want ($(head -n 1 "$tmp/err"))"
    elif [ "$want" -ne 0 ] && [ "$lines" -ne 1 ]; then bad "$x $*: $lines stderr lines, want 1"
    else ok; fi
}

small="--batch 2 --image-size 32 --steps 2 --warmup 1 -a ring --bucket-mb 1 --timeout 60"
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
expect "$exe" 2 train --device gpu
expect "$exe" 2 train --device gpu --precision fp32
expect "$exe" 2 train --precision bf16
expect "$exe" 2 train --precision tf32
expect "$exe" 2 train --precision fp16 --device cpu
expect "$exe" 2 train --device tpu
expect "$exe" 2 train --precision fp8
expect "$exe" 2 train --device
expect "$exe" 2 allreduce --device gpu
expect "$exe" 2 allreduce --device xpu
"$exe" train --device gpu 2>"$tmp/err" >/dev/null </dev/null
grep -q 'no CUDA' "$tmp/err" && ok || bad "CPU build --device gpu: message does not say the build has no CUDA"
expect "$exe" 0 train --device cpu --precision fp32 $small --check
grep -q ' 0$' "$tmp/out" && ok || bad "CPU build checked step: no row with 0 wrong"

if [ ! -x "$cuda" ]; then
    echo "SKIP: no $cuda (nvcc absent when built): CUDA build checks counted as passed"
    passed=$((passed + 4))
else
    expect "$cuda" 2 train --precision fp8 --device gpu
    expect "$cuda" 2 train --device cpu
    if "$cuda" train --device gpu 2>&1 | grep -q 'no CUDA device'; then expect "$cuda" 1 allreduce --device gpu; else ok; fi
    timeout 300 "$cuda" train --device gpu $small --check >"$tmp/out" 2>"$tmp/err" </dev/null; st=$?
    if [ $st -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'no CUDA device' "$tmp/err"; then
        echo "SKIP: no CUDA device here: checked the one-line refusal (exit 1) only"; ok
    elif [ $st -eq 0 ] && grep -q ' 0$' "$tmp/out" && grep -q 'device=' "$tmp/out"; then
        ok
        for p in tf32 bf16 fp16; do expect "$cuda" 0 train --device gpu --precision $p $small --check; done
    else bad "$cuda train --device gpu: exit $st ($(head -n 1 "$tmp/err"))"; fi
fi
report
