#!/bin/sh
# sim_model.sh — the simulation agrees with the analytic model: builds the SMPI binary (make sim),
# generates custom platforms with `ddlbench platform`, runs a simulated `ddlbench allreduce` of each
# algorithm under smpirun and checks its time against `ddlbench model --algo` within 10%; and a
# simulated one-rank `ddlbench train` (full compute) charges exactly the GEMM FLOPs and the bytes of
# the memory-bound kernels that `ddlbench model` prints, at the profile's two rates (within 0.5%).
#   flat: one GPU per node, every link alike (one link level) at 8, 12 (rhd folding) and 16 ranks;
#   two-level: 4 nodes x 4 GPUs, NIC shared by the node's GPUs (ddl grid 4x4, DDL_RANKS_PER_NODE=4);
#   rhd (nearest partner first there) and rhd-far both; nccl-ring's four channels (one per GPU) on
#   the shared NIC, on four rails under rail-aligned leaves, and on two sockets' two NICs;
#   today's: rail NICs under rail-aligned leaves, two sockets and plain leaves, both oversubscribed;
#   and two DGX-1 (direct NVLinks pair by pair, the host between the others; nccl-ring's four channels).
#   two DGX-1 (direct NVLinks pair by pair, the host between the others); nccl-tree and ddl-pipe on DGX H100;
#   nvls on DGX H100 nodes without reducing switches, and with them (NVLS; NVLS and IB SHARP).
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
printf 'gemm_gflops_fp32 = 1000\ngemm_gflops_fp16 = 1000\nreduce_ns_per_byte = 0\nmem_gbps = 1000\n' \
    >"$tmp/zero.profile"
SMPI_CFG="--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0
  --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:no --log=root.thres:critical"

# check NAME NP RPN BYTES ALGO PLATFORM_ARGS... ($MODEL_PROFILE: the model's profile, default the zero one; $channels:
# nccl-ring's DDL_CHANNELS in the simulation, which
# runs without --platform: the platform's NICs where the model's default is those, "" = ranks per node)
channels=
check() {
    name=$1 np=$2 rpn=$3 bytes=$4 algo=$5; shift 5
    "$BUILD/ddlbench" platform "$@" -o "$tmp" >/dev/null || { fail "$name: platform $*"; return; }
    # shellcheck disable=SC2086
    sim=$(DDL_CHANNELS=$channels DDL_RANKS_PER_NODE=$rpn smpirun $SMPI_CFG ${SMPI_EXTRA:-} -np "$np" -platform \
        "$tmp/platform.xml" \
              -hostfile "$tmp/hostfile" "$SIM" allreduce -b "$bytes" -e "$bytes" -a "$algo" -c 0 -w 1 -n 2 \
              --copy-reps 1 ${SIM_ARGS:-} 2>"$tmp/err" | awk -v a="$algo" '$5 == a && $6 == "out" { print $7 }')
    model=$("$BUILD/ddlbench" model --algo "$algo" --bytes "$bytes" --profile \
        "${MODEL_PROFILE:-$tmp/zero.profile}" "$@" |
            awk -v a="$algo" '$1 == a { print $2 }')
    if [ -z "$sim" ] || [ -z "$model" ]; then
        fail "$name $algo np=$np: no time (sim \"$sim\", model \"$model\")"; tail -n 3 "$tmp/err" >&2; return
    fi
    if awk -v s="$sim" -v m="$model" 'BEGIN { d = (s - m) / m; exit !(d < 0.10 && d > -0.10) }'; then
        passed=$((passed + 1))
    else
        fail "$name $algo np=$np bytes=$bytes: simulated $sim us, model $model us (more than 10% apart)"
    fi
    printf '%-9s %-7s np=%-3s %8s B  sim %10s us  model %10s us\n' "$name" "$algo" "$np" "$bytes" "$sim" "$model"
}

FLAT="--preset custom --gpus-per-node 1 --intra-bw 10G --intra-lat 2us --inter-bw 10G --inter-lat 2us"
for np in 8 12 16; do
    for algo in ring rhd ddl; do
        # shellcheck disable=SC2086
        check flat "$np" 1 4M "$algo" $FLAT --nodes "$np"
    done
done
TWO="--preset custom --nodes 4 --gpus-per-node 4 --intra-bw 40G --intra-lat 1us --inter-bw 10G --inter-lat 3us"
for algo in ring rhd rhd-far ddl nccl-ring; do # rhd: nearest partner first on these 4-GPU nodes
    # shellcheck disable=SC2086
    check two-level 16 4 8M "$algo" $TWO
done
# today's clusters: 4 nodes x 4 GPUs on a rail per GPU under rail-aligned leaves of 2 nodes, 2:1 to
# the spine; and two sockets over an X-bus, 2 NICs, plain leaves of 2 nodes at 2:1 (platform_xml.c's
# Dijkstra routes against cost.c's counts: a message leaving by a peer's NIC, or a cross-rail one not
# crossing the spine, would move the times apart)
printf 'name = rails\ngpus_per_node = 4\nintra_lat = 3us\nintra_bw = 100GB/s\ninter_lat = 6us\nnics = 4
nic_bw = 80Gbit\nleaf_nodes = 2\nrail_leaves = yes\noversubscription = 2:1\nspine_lat = 10us\n' >"$tmp/rails.platform"
printf 'name = sockets\ngpus_per_node = 4\nintra_lat = 3us\nintra_bw = 100GB/s\nsockets = 2\nsocket_bw = 20GB/s
socket_lat = 4us\ninter_lat = 6us\nnics = 2\nnic_bw = 10GB/s\nleaf_nodes = 2\nrail_leaves = no
oversubscription = 2\nspine_lat = 10us' >"$tmp/sockets.platform"
for f in rails sockets; do
    channels=4; [ "$f" = sockets ] && channels=2
    for algo in ring rhd ddl nccl-ring; do
        check "$f" 16 4 8M "$algo" --platform "$tmp/$f.platform" --nodes 4
    done
done
# DGX-1's hybrid cube-mesh (nvlinks): the ring in rank order crosses two pairs without a link (3-4, 7-0)
channels=4
for algo in ring rhd ddl nccl-ring; do
    check dgx1 16 8 16M "$algo" --platform dgx1 --nodes 2
done
channels=
# nccl-tree (issue 46): the double binary tree on DGX H100 nodes, its segments sized from the links as
# `allreduce --platform` sizes them (SIM_ARGS); 1 node (chains only: the rank links) at 8 and 64 MiB,
# 4 nodes (the trees across the rails) at 1 MiB. 4 nodes at 64 MiB and 512 MiB: docs/BENCHMARKS.md
# (minutes each under SMPI). As simlaunch.sh runs it: smpi/test:0 (its MPI_Waitsome is a test loop to
# SMPI, which would inject 100 us a call) and no TCP window on the 6 us NDR route (SMPI_EXTRA).
for run in 1:8M 1:64M 4:1M; do
    SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" \
    SIM_ARGS="--platform dgxh100 --profile $tmp/zero.profile" check dgxh100 $((${run%%:*} * 8)) 8 "${run#*:}" \
        nccl-tree --platform dgxh100 --nodes "${run%%:*}"
done
# ddl-pipe (issue 46 item 3): ddl's levels overlapped, chunks of the link segment (SIM_ARGS, as nccl-tree):
# 1 node at 64 MiB (one level: the chunks at once), 4 and 16 nodes at 64 MiB (its derived grid, rhd across
# the nodes; chunks in flight from the links, 16 there, staggered over the node's and the network's levels). H100's
# profile on both sides: with reductions of no cost the many-flow
# rows run slower under SMPI, not faster (64 MiB on one node: ddl-pipe 348 us, nccl-ring 306, against 271
# and 274 with H100's reductions), an effect of ranks posting in lock-step that no model of the links has.
for run in 1:64M 4:64M 16:64M; do
    SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" MODEL_PROFILE=h100 \
    SIM_ARGS="--platform dgxh100 --profile h100" check dgxh100 $((${run%%:*} * 8)) 8 "${run#*:}" \
        ddl-pipe --platform dgxh100 --nodes "${run%%:*}"
done
# nvls (issue 46 item 4): the switches' dataflow run by the ranks, on DGX H100 nodes whose switches do not
# reduce (the dgxh100 preset less nvls_bw, leaves of one node: 4 nodes cross the spine), where the model
# prices the ranks' traffic. 1 node at 8 and 64 MiB, 4 nodes at 8 MiB. With reducing switches (below) the
# simulation moves the switches' traffic instead (collectives/switch.h): the stand-in's would miss the model.
printf 'name = plain\ngpus_per_node = 8\nintra_lat = 3us\nintra_bw = 370GB/s\ninter_lat = 6us\nnics = 8
nic_bw = 48GB/s\nleaf_nodes = 1\nrail_leaves = yes\noversubscription = 1\nspine_lat = 7us\n' >"$tmp/plain.platform"
for run in 1:8M 1:64M 4:8M; do
    SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" \
    SIM_ARGS="--platform $tmp/plain.platform --profile $tmp/zero.profile" check plain $((${run%%:*} * 8)) 8 \
        "${run#*:}" nvls --platform "$tmp/plain.platform" --nodes "${run%%:*}"
done
# nvls through the switches: dgxh100 (NVLS in the node; across nodes the ranks' shares over the NICs) at 1
# node (the stand-in there: 405 us at 64 MiB against the model's 251) and 4 nodes, and dgxh100-sharp at 4
# nodes (IB SHARP at the rail leaves, partly filled), 64 MiB, H100's profile on both sides; and the two-level
# layout's NVSwitch (2 nodes x 4, one NIC a node), 16 MiB.
printf 'name = tl\ngpus_per_node = 4\nintra_lat = 2us\nintra_bw = 100GB/s\nnvls_bw = 120GB/s\ninter_lat = 5us
nic_bw = 20GB/s\n' >"$tmp/tl.platform"
SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" MODEL_PROFILE=h100 \
SIM_ARGS="--platform $tmp/tl.platform --profile h100" check two-level 8 4 16M nvls \
    --platform "$tmp/tl.platform" --nodes 2
# the simulated mpi on a fabric that reduces: nvls where its model is the cheaper (2 nodes, 64 MiB: it is)
SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" MODEL_PROFILE=h100 \
SIM_ARGS="--platform harness/sim/platforms/dgxh100-sharp.platform --profile h100" check dgxh100-sharp 16 8 64M mpi \
    --platform harness/sim/platforms/dgxh100-sharp.platform --nodes 2 --partial-leaf
# its setup (the nvls context within) failing on one rank: every rank learns it before the nested creation, so the
# run ends with status 2 and the injected failure's line, not a hang
# shellcheck disable=SC2086
DDL_TEST_FAIL=setup:3 DDL_RANKS_PER_NODE=8 timeout 120 smpirun $SMPI_CFG -np 16 -platform "$tmp/platform.xml" \
    -hostfile "$tmp/hostfile" "$SIM" allreduce -b 1M -e 1M -a mpi -c 0 -w 0 -n 1 --profile h100 \
    --platform harness/sim/platforms/dgxh100-sharp.platform >/dev/null 2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ] && grep -q 'mpi: rank 3 failed: setup failed: injected on rank 3' "$tmp/err"; then
    passed=$((passed + 1))
else
    fail "mpi on dgxh100-sharp, DDL_TEST_FAIL=setup:3: status $st, want 2 and the injected failure's line"
fi
for run in dgxh100:1 dgxh100:4 harness/sim/platforms/dgxh100-sharp.platform:4; do
    SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" MODEL_PROFILE=h100 \
    SIM_ARGS="--platform ${run%:*} --profile h100" check "${run%:*}" $((${run##*:} * 8)) 8 64M nvls \
        --platform "${run%:*}" --nodes "${run##*:}" --partial-leaf
done
# issue 46's Tests at 16 nodes (and nccl-ring on DGX H100 at all), small sizes so that each stays within seconds
# (CPU time on the shared 2-core machine, docs/BENCHMARKS.md "sim46"): nccl-ring (its channels from the NICs, 8)
# at 1 node 1 and 64 MiB and 4 nodes 1 MiB; nccl-tree at 16 nodes 1 MiB (4.7 s); nvls through dgxh100-sharp's
# switches at 16 nodes 8 MiB (5.7 s). Not cheap, so only with SIM_MODEL_SLOW=1: nccl-ring at 16 nodes (latency-
# bound: 8 channels x 2 x 127 steps a rank, 87 s at 64 KiB as at 1 MiB) and nvls on dgxh100 at 16 nodes (the
# ranks' shares over the NICs, 42 s at 256 KiB).
cheap="nccl-ring:dgxh100:1:1M nccl-ring:dgxh100:1:64M nccl-ring:dgxh100:4:1M nccl-tree:dgxh100:16:1M
nvls:harness/sim/platforms/dgxh100-sharp.platform:16:8M"
[ "${SIM_MODEL_SLOW:-0}" = 1 ] && cheap="$cheap nccl-ring:dgxh100:16:64K nvls:dgxh100:16:1M"
for run in $cheap; do
    a=${run%%:*} r=${run#*:} s=${run##*:}; r=${r%:*}; pl=${r%:*} n=${r##*:}
    SMPI_EXTRA="--cfg=smpi/test:0 --cfg=network/TCP-gamma:1073741824" MODEL_PROFILE=h100 \
    SIM_ARGS="--platform $pl --profile h100" check "${pl##*/}" $((n * 8)) 8 "$s" "$a" --platform "$pl" --nodes "$n" \
        --partial-leaf
done
# train_split MODEL BATCH IMAGE: simulated gemm_ms / nongemm_ms / sgd_ms against the layer table
train_split() {
    printf 'gemm_gflops_fp32 = 1000\ngemm_gflops_fp16 = 1000\nreduce_ns_per_byte = 0\nmem_gbps = 100\n' \
        >"$tmp/split.profile"
    # shellcheck disable=SC2086
    "$BUILD/ddlbench" platform $FLAT --nodes 1 -o "$tmp" >/dev/null || { fail "train split: platform"; return; }
    # shellcheck disable=SC2086
    smpirun $SMPI_CFG -np 1 -platform "$tmp/platform.xml" -hostfile "$tmp/hostfile" "$SIM" train --model "$1" \
        --batch "$2" --image-size "$3" --steps 1 --warmup 0 -a ring --profile "$tmp/split.profile" \
        --csv "$tmp/split.csv" >"$tmp/err" 2>&1 || { fail "train split $1: simulated train failed"
            tail -n 3 "$tmp/err" >&2; return; }
    "$BUILD/ddlbench" model --model "$1" --batch "$2" --image-size "$3" --profile "$tmp/split.profile" >"$tmp/model.txt"
    awk -F, -v m="$tmp/model.txt" '
        BEGIN { while ((getline l < m) > 0) { split(l, f, " "); if (f[1] == "#") v[f[2]] = f[3] } }
        /^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        {
            want["gemm_ms"] = v["train_GFLOP_per_step"] / 1000 * 1e3
            want["nongemm_ms"] = (v["nongemm_fwd_MB_per_step"] + v["nongemm_bwd_MB_per_step"]) / 100e3 * 1e3
            want["sgd_ms"] = v["sgd_momentum_MB_per_step"] / 100e3 * 1e3
            for (k in want) { d = ($c[k] - want[k]) / want[k]; if (d > 0.005 || d < -0.005) {
                printf "%s %s vs %s\n", k, $c[k], want[k]; bad = 1 } }
        }
        END { exit bad }' "$tmp/split.csv" >"$tmp/diff" && passed=$((passed + 1)) ||
        fail "train split $1 batch $2 image $3: $(tr '\n' ' ' <"$tmp/diff")"
}
train_split resnet50 2 64
train_split resnet101 1 96
train_split vgg16 1 64       # conv biases, FC over a map, dropout
train_split inception3 1 96  # asymmetric windows, windowed average pools, concats
train_split gpt2 2 224        # transformers: embeddings, norms, attention per head, GELU, tied head
train_split llama3.2-1b 1 224 # RMS norm, grouped-query attention with rope, SwiGLU
# sharding (issue 49): gpt2 at full size on 4 simulated ranks, gradients reduce-scattered and the
# parameters allgathered after the update (full: before each use, forward and backward, a bucket
# prefetched ahead), against `model train --shard` (step within 10%). shard_check MODE BATCH PROFILE
# PLATFORM-OPTIONS: compute-bound (4 flat 10 Gb/s nodes at 1000 GFLOP/s), then communication-bound (2 x 2
# GPUs, 10 GB/s between the nodes, the h100 profile), where full sharding's gathers and reductions share
# one stream in posting order in both pricers (FSDP's one communicator, docs/SOURCES.md §18b).
shard_check() {
    mode=$1 batch=$2 prof=$3 optim=$shard_optim # the optimizer (trainer_optim.c)
    shift 3
    # shellcheck disable=SC2086
    "$BUILD/ddlbench" platform "$@" -o "$tmp" >/dev/null || { fail "shard: platform"; return; }
    # shellcheck disable=SC2086
    smpirun $SMPI_CFG -np 4 -platform "$tmp/platform.xml" -hostfile "$tmp/hostfile" "$SIM" train --model gpt2 \
        --batch "$batch" --steps 1 --warmup 0 -a ring --shard "$mode" --optimizer "$optim" --profile "$prof" \
        --csv "$tmp/shard.csv" \
        >"$tmp/err" 2>&1 || { fail "shard $mode: simulated train failed"; tail -n 3 "$tmp/err" >&2; return; }
    "$BUILD/ddlbench" model train --model gpt2 --batch "$batch" -a ring --shard "$mode" --optimizer "$optim" \
        --profile "$prof" "$@" --csv "$tmp/shardm.csv" >/dev/null || { fail "shard $mode: model train failed"; return; }
    step() { awk -F, \
        '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["step_ms_median"] }' "$1"; }
    s=$(step "$tmp/shard.csv") m=$(step "$tmp/shardm.csv")
    if awk -v s="$s" -v m="$m" 'BEGIN { d = (s - m) / m; exit !(s > 0 && d < 0.10 && d > -0.10) }'; then
        passed=$((passed + 1))
    else
        fail "shard $mode $optim batch $batch: simulated step $s ms, model $m ms (more than 10% apart)"
    fi
    printf 'shard %-9s %-4s gpt2 np=4 batch %s  sim %10s ms  model %10s ms\n' "$mode" "$optim" "$batch" "$s" "$m"
}
shard_optim=sgd
# shellcheck disable=SC2086
for mode in none gradients full; do shard_check $mode 1 "$tmp/split.profile" $FLAT --nodes 4; done
# Adam and LAMB (their m and v on the shard; LAMB's per-tensor norms allreduced in both pricers)
shard_optim=adam
# shellcheck disable=SC2086
shard_check gradients 1 "$tmp/split.profile" $FLAT --nodes 4
shard_optim=lamb
# shellcheck disable=SC2086
shard_check full 1 "$tmp/split.profile" $FLAT --nodes 4
shard_optim=sgd
TWO_BY_TWO="--preset custom --gpus-per-node 2 --intra-bw 100G --intra-lat 2us --inter-bw 10G --inter-lat 5us --nodes 2"
# shellcheck disable=SC2086
for mode in gradients full; do shard_check $mode 2 h100 $TWO_BY_TWO; done
"$BUILD/ddlbench" model text --model inception3 >"$tmp/inception3.txt"
train_split "$tmp/inception3.txt" 1 80  # a model file
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
