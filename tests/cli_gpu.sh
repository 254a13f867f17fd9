#!/bin/sh
# cli_gpu.sh — `ddlbench train --device/--precision` from the outside (docs/GPU.md).
# CPU build: --device gpu and any precision but fp32 are refused with one stderr line and exit 2;
# --device cpu --precision fp32 runs (1 rank, singleton MPI_Init) and checks its gradients.
# CUDA build ($BUILD/cuda/ddlbench): without a device, --device gpu prints one "no CUDA device" line and
# exits 1 (never a crash), as does allreduce --device gpu; with one, a small checked step runs per precision at 1 rank.
# When the CUDA
# build does not exist (no nvcc), its checks are SKIPped and counted as passed. gpu_check.sh's summary
# (staged/host ratios, 1 KB latency, exit status) is checked with a fake device. Prints "N passed, N failed".
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
    if "$cuda" train --device gpu 2>&1 | grep -q 'no CUDA device'; then expect "$cuda" 1 allreduce --device gpu
        else ok; fi
    timeout 300 "$cuda" train --device gpu $small --check >"$tmp/out" 2>"$tmp/err" </dev/null; st=$?
    if [ $st -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'no CUDA device' "$tmp/err"; then
        echo "SKIP: no CUDA device here: checked the one-line refusal (exit 1) only"; ok
    elif [ $st -eq 0 ] && grep -q ' 0$' "$tmp/out" && grep -q 'device=' "$tmp/out"; then
        ok
        for p in tf32 bf16 fp16; do expect "$cuda" 0 train --device gpu --precision $p $small --check; done
    else bad "$cuda train --device gpu: exit $st ($(head -n 1 "$tmp/err"))"; fi
fi
# gpu_check.sh's summary, from a fake CUDA ddlbench (shell script) and fake tests, under the real
# launcher: staged/host busbw per algorithm at 64 and 256 MB, the 1 KB latency line, a failure exits 1.
fk=$tmp/fake; mkdir -p "$fk/tests"
printf '#!/bin/sh\necho "3 passed, 0 failed"\n' >"$fk/tests/test_cuda"
cp "$fk/tests/test_cuda" "$fk/tests/test_cuda_compute"
cat >"$fk/ddlbench" <<'FAKE'
#!/bin/sh
case $1 in
gpu-check) echo "# ddlbench gpu-check on a fake device" ;;
train) echo "# device=staged"; echo "  ring 1 32 100.0 x 320.0 0" ;;
allreduce) bw=4.000; t=9.0; case " $* " in *" --device gpu "*) bw=3.700; t=40.0; [ -n "$FAKE_SHORT" ] && exit 3 ;; esac
    echo "# device=staged"
    for s in 1024 4096 67108864 268435456; do for a in ring rhd; do
        echo "  $s 1 float sum $a out $t 1 1 1 $bw 1 1 0"; done; done ;;
esac
FAKE
chmod +x "$fk/ddlbench" "$fk/tests/test_cuda" "$fk/tests/test_cuda_compute"
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    BUILD=$fk GPU_BUNDLE=$tmp/nobundle GPU_CHECK_OUT=$tmp/gc sh harness/scripts/gpu_check.sh "$fk/ddlbench" \
        >"$tmp/gc.txt" 2>&1; st=$?
    [ $st -eq 0 ] && ok || bad "gpu_check.sh with a fake device: exit $st ($(tail -n 1 "$tmp/gc.txt"))"
    n=$(grep -c 'staged/host busbw .* MB: 3.70 / 4.00 GB/s = 0.93x (goal >= 0.9x: met)' "$tmp/gc.txt")
    [ "$n" -eq 4 ] && ok || bad "gpu_check.sh: $n staged/host lines at 64/256 MB for ring and rhd, want 4"
    grep -q 'latency, 2 ranks.*ring 1 KB: device 40.0 us, host 9.0 us; goal <= 30 us: not met' "$tmp/gc.txt" && ok ||
        bad "gpu_check.sh: no 1 KB latency line against the 30 us goal"
    FAKE_SHORT=1 BUILD=$fk GPU_BUNDLE=$tmp/nobundle GPU_CHECK_OUT=$tmp/gc sh harness/scripts/gpu_check.sh \
        "$fk/ddlbench" >"$tmp/gc.txt" 2>&1
    [ $? -eq 1 ] && ok || bad "gpu_check.sh: a failing device allreduce did not exit 1"
else
    echo "SKIP: no MPI launcher: gpu_check.sh's summary checks counted as passed"; passed=$((passed + 4))
fi
report
