#!/bin/sh
# tests/fake/run.sh [NP...] — test_cuda on a fake device (tests/fake/devmem_fake.c: host memory,
# streams that run their work only when forced, device memory PROT_NONE between operations), to
# check the device path's stream and event ordering (collectives/device.c, exchange.c) on a machine
# without a GPU. Not part of `make test`: minutes per rank count on 2 cores. Default NP: 1 2 3.
# Two runs per rank count: staged with protected device memory (MPI or memcpy touching it faults),
# then DDL_CUDA_AWARE=1 unprotected (MPI given device pointers). Prints "N passed, N failed" last.
# The library's sources come from the Makefile's lists (LIB_COMMON, LIB_REAL): nothing to keep in step.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
MPICC=${MPICC:-mpicc}
out=$BUILD/fake
mkdir -p "$out"
lib=$(make --no-print-directory -s --eval='fake-lib-srcs: ; @echo $(LIB_COMMON) $(LIB_REAL)' fake-lib-srcs)
blas=$(pkg-config --cflags --libs openblas 2>/dev/null || echo -lopenblas)
# shellcheck disable=SC2086
"$MPICC" -std=c11 -O1 -g -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Iinclude -Icollectives -Ikernels \
    -Iharness/bench -Itests -o "$out/test_cuda_fake" $lib kernels/reduce.c kernels/mem_host.c \
    kernels/gemm_blas.c kernels/compute_host.c harness/bench/bench_data.c tests/test_cuda.c \
    tests/fake/devmem_fake.c $blas -lm -lpthread
passed=0; failed=0
for np in ${*:-1 2 3}; do
    for mode in staged aware; do
        if [ $mode = staged ]; then env="FAKE_PROTECT=1"; else env="DDL_CUDA_AWARE=1"; fi
        line=$(env $env sh harness/scripts/mpilaunch.sh "$np" "$out/test_cuda_fake" 2>"$out/err.$np.$mode" |
               grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1) || true
        [ -n "$line" ] || line="0 passed, 1 failed"
        echo "fake device np=$np $mode: $line"
        p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
        passed=$((passed + p)); failed=$((failed + f))
        [ "$f" -eq 0 ] || grep -m 10 FAIL "$out/err.$np.$mode" || true
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
