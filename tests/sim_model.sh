#!/bin/sh
# sim_model.sh — the simulation agrees with the analytic model: builds the SMPI binary (make sim),
# generates custom platforms with `ddlbench platform`, runs a simulated `ddlbench allreduce` of each
# algorithm under smpirun and checks its time against `ddlbench model --algo` within 10%.
#   flat: one GPU per node, every link alike (one link level) at 8, 12 (rhd folding) and 16 ranks;
#   two-level: 4 nodes x 4 GPUs, NIC shared by the node's GPUs (ddl grid 4x4, DDL_RANKS_PER_NODE=4).
# A half-duplex link, a throttling backbone or a missing NIC would each break the agreement.
# SMPI options (why):
#   smpi/bw-factor:0:1, smpi/lat-factor:0:1  SMPI's defaults scale bandwidth and latency by piecewise
#       factors calibrated on a real cluster; the model uses the raw link values, so both are 1 ("1"
#       alone crashes SimGrid 3.32: the value is a list size:factor).
#   network/crosstraffic:0  by default every flow puts 5% of its bytes on the reverse path (TCP acks),
#       which slows full-duplex exchanges by 5%; MPI over NVLink or InfiniBand has no such acks here.
#   smpi/simulate-computation:no  host CPU time between MPI calls is not injected: only the kernels'
#       own injected time counts (reductions are free here: the model's gamma is 0 too).
#   smpi/async-small-thresh and smpi/send-is-detached-thresh keep their defaults (0 and 64 KiB): they
#       decide whether a sender blocks, not how long a message takes; segments are 256 KiB.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL $*" >&2; failed=$((failed + 1)); }

if ! command -v smpirun >/dev/null 2>&1; then
    echo "FAIL smpirun not found (apt-get install simgrid libsimgrid-dev)" >&2
    echo "0 passed, 1 failed"; exit 1
fi
if ! make -s BUILD="$BUILD" sim "$BUILD/ddlbench" >"$tmp/make.log" 2>&1; then
    tail -n 20 "$tmp/make.log" >&2
    echo "0 passed, 1 failed"; exit 1
fi
SIM=$BUILD/sim/ddlbench-sim
printf 'gemm_gflops_fp32 = 1000\ngemm_gflops_fp16 = 1000\nreduce_ns_per_byte = 0\n' >"$tmp/zero.profile"
SMPI_CFG="--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0
  --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:no --log=root.thres:critical"

# check NAME NP RPN BYTES ALGO PLATFORM_ARGS...
check() {
    name=$1 np=$2 rpn=$3 bytes=$4 algo=$5; shift 5
    "$BUILD/ddlbench" platform "$@" -o "$tmp" >/dev/null || { fail "$name: platform $*"; return; }
    # shellcheck disable=SC2086
    sim=$(DDL_RANKS_PER_NODE=$rpn smpirun $SMPI_CFG -np "$np" -platform "$tmp/platform.xml" \
              -hostfile "$tmp/hostfile" "$SIM" allreduce -b "$bytes" -e "$bytes" -a "$algo" -c 0 -w 1 -n 2 \
              --copy-reps 1 2>"$tmp/err" | awk -v a="$algo" '$5 == a && $6 == "out" { print $7 }')
    model=$("$BUILD/ddlbench" model --algo "$algo" --bytes "$bytes" --profile "$tmp/zero.profile" "$@" |
            awk -v a="$algo" '$1 == a { print $2 }')
    if [ -z "$sim" ] || [ -z "$model" ]; then
        fail "$name $algo np=$np: no time (sim \"$sim\", model \"$model\")"; tail -n 3 "$tmp/err" >&2; return
    fi
    if awk -v s="$sim" -v m="$model" 'BEGIN { d = (s - m) / m; exit !(d < 0.10 && d > -0.10) }'; then
        passed=$((passed + 1))
    else
        fail "$name $algo np=$np bytes=$bytes: simulated $sim us, model $model us (more than 10% apart)"
    fi
    printf '%-9s %-5s np=%-3s %8s B  sim %10s us  model %10s us\n' "$name" "$algo" "$np" "$bytes" "$sim" "$model"
}

FLAT="--preset custom --gpus-per-node 1 --intra-bw 10G --intra-lat 2us --inter-bw 10G --inter-lat 2us"
for np in 8 12 16; do
    for algo in ring rhd ddl; do
        # shellcheck disable=SC2086
        check flat "$np" 1 4M "$algo" $FLAT --nodes "$np"
    done
done
TWO="--preset custom --nodes 4 --gpus-per-node 4 --intra-bw 40G --intra-lat 1us --inter-bw 10G --inter-lat 3us"
for algo in ring rhd ddl; do
    # shellcheck disable=SC2086
    check two-level 16 4 8M "$algo" $TWO
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
