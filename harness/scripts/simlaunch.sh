#!/bin/sh
# simlaunch.sh NP PLATFORM_DIR COMMAND [ARGS...] — run COMMAND (an smpicc-built binary) as NP simulated
# ranks under SimGrid's smpirun on PLATFORM_DIR/platform.xml and PLATFORM_DIR/hostfile (from
# `ddlbench platform`). The SMPI options, and why:
#   smpi/bw-factor:0:1, smpi/lat-factor:0:1  SMPI's defaults scale bandwidth and latency by factors
#       calibrated on some TCP cluster; the presets give the links' own figures, so both are 1 (the
#       value is a list size:factor; "1" alone crashes SimGrid 3.32).
#   network/crosstraffic:0  no 5% reverse-path (TCP ack) traffic on NVLink or InfiniBand.
#   smpi/test:0  SMPI injects 100 us into each MPI_Test(all), growing while they fail; a polling wait
#       (coll_waitall, poll_us > 0) moves the clock by its own pause instead, as long as the real
#       nanosleep takes (kern_poll_pause: poll_us + the platform's poll_slack).
#   smpi/simulate-computation:no  the host CPU time between MPI calls is not simulated time: only the
#       kernels' injected times (GEMM, reduction, SGD from the device profile) count.
#   smpi/shared-malloc-blocksize:4 MiB  SMPI_SHARED_MALLOC maps one block repeatedly: 1 MiB blocks
#       need more mappings than vm.max_map_count allows at 256 ranks, and 64 MiB blocks cost 22 GB of
#       anonymous memory at 64 ranks (measured: peak RssAnon 22.2 GB vs 10 MB with 4 MiB blocks).
#       Each SMPI_SHARED_MALLOC populates its page table entries (MAP_POPULATE) and each free unmaps
#       them: kernels/mem_sim.c keeps a rank's freed buffers (kernels/mem_pool.h), so the gradients
#       of a launch's configurations are mapped once per rank, not once per configuration.
# A calibrated platform (ddlbench calibrate --network) replaces both factors: `ddlbench platform` writes
# its --cfg lines to PLATFORM_DIR/smpi.cfg, given after the defaults above (the last one wins).
# Left at SimGrid's defaults because measurement showed no gain (docs/BENCHMARKS.md, "SimGrid settings"):
#   contexts/factory (raw; ucontext and boost alike, thread slower), smpi/async-small-thresh and
#   smpi/send-is-detached-thresh (64 KiB: same results, same CPU time), network/model (CM02: same).
# Refused: contexts/nthreads above 1. SimGrid 3.32 then copies and dlopens the per-rank images from
#   several threads at once and races: runs abort, or two ranks share one copy of the globals and
#   the result is silently wrong (tests/sim/parallel_contexts.sh reproduces it).
# Extra options go in SMPI_FLAGS.
set -eu
[ $# -ge 3 ] || { echo "usage: simlaunch.sh NP PLATFORM_DIR COMMAND [ARGS...]" >&2; exit 2; }
np=$1 dir=$2; shift 2
case $np in ''|*[!0-9]*|0) echo "simlaunch.sh: NP: expected a positive integer, got \"$np\"" >&2; exit 2;; esac
[ -f "$dir/platform.xml" ] && [ -f "$dir/hostfile" ] ||
    { echo "simlaunch.sh: $dir: expected platform.xml and hostfile (ddlbench platform -o $dir)" >&2; exit 2; }
case " ${SMPI_FLAGS:-} " in *contexts/nthreads[:=]1[!0-9]*) ;; *contexts/nthreads[:=]*)
    echo "simlaunch.sh: SMPI_FLAGS: contexts/nthreads above 1 gives wrong results with SimGrid 3.32" \
        "(tests/sim/parallel_contexts.sh); expected 1" >&2
    exit 2;; esac
command -v smpirun >/dev/null 2>&1 ||
    { echo "simlaunch.sh: smpirun not found (apt-get install simgrid libsimgrid-dev)" >&2; exit 2; }
# Every rank maps its shared buffers one 4 MiB block at a time, and SimGrid's ranks are one process:
# above 256 ranks (ResNet-101-22K's 178 MB of gradients alone are 45 blocks a rank) the mappings pass
# the kernel's default vm.max_map_count of 65530 and the launch aborts ("Could not map folded virtual
# memory"). Allow 128 a rank: raised here when root (said on stderr), else one line and exit 2.
need=$((np * 128)) have=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$have" -gt 0 ] && [ "$have" -lt "$need" ]; then
    if [ "$(id -u)" = 0 ] && echo "$need" 2>/dev/null >/proc/sys/vm/max_map_count; then
        echo "simlaunch.sh: raised vm.max_map_count from $have to $need for $np simulated ranks" >&2
    else
        echo "simlaunch.sh: $np simulated ranks need vm.max_map_count >= $need (it is $have): as root," \
            "sysctl -w vm.max_map_count=$need" >&2
        exit 2
    fi
fi
cal=""; [ -s "$dir/smpi.cfg" ] && cal=$(cat "$dir/smpi.cfg")
# sim.env: a calibrated platform's copy costs by working set (the exchange's, the plain copy's) and
# per-call overhead, the poll slack, the fresh-page cost and the whole-message cost between nodes
# (kernels/sim.h), read by the simulated ranks from these six; none without the file (a preset: none).
# And the machine itself (DDL_SIM_PLATFORM, DDL_SIM_GPUS_PER_NODE: `ddlbench platform` writes them for a
# preset or a file): a program given no --platform takes its links from them (platform_env), so libddl's
# segments are sized from the same links whether or not --platform is repeated.
DDL_SIM_WS_COPY="" DDL_SIM_COPY="" DDL_SIM_CALL_OVERHEAD="" DDL_SIM_POLL_SLACK="" DDL_SIM_FAULT="" DDL_SIM_WHOLE=""
DDL_SIM_PLATFORM="" DDL_SIM_GPUS_PER_NODE=""
if [ -s "$dir/sim.env" ]; then
    DDL_SIM_WS_COPY=$(sed -n 's/^DDL_SIM_WS_COPY=//p' "$dir/sim.env")
    DDL_SIM_COPY=$(sed -n 's/^DDL_SIM_COPY=//p' "$dir/sim.env")
    DDL_SIM_CALL_OVERHEAD=$(sed -n 's/^DDL_SIM_CALL_OVERHEAD=//p' "$dir/sim.env")
    DDL_SIM_POLL_SLACK=$(sed -n 's/^DDL_SIM_POLL_SLACK=//p' "$dir/sim.env")
    DDL_SIM_FAULT=$(sed -n 's/^DDL_SIM_FAULT=//p' "$dir/sim.env")
    DDL_SIM_WHOLE=$(sed -n 's/^DDL_SIM_WHOLE=//p' "$dir/sim.env")
    DDL_SIM_PLATFORM=$(sed -n 's/^DDL_SIM_PLATFORM=//p' "$dir/sim.env")
    DDL_SIM_GPUS_PER_NODE=$(sed -n 's/^DDL_SIM_GPUS_PER_NODE=//p' "$dir/sim.env")
fi
export DDL_SIM_WS_COPY DDL_SIM_COPY DDL_SIM_CALL_OVERHEAD DDL_SIM_POLL_SLACK DDL_SIM_FAULT DDL_SIM_WHOLE
export DDL_SIM_PLATFORM DDL_SIM_GPUS_PER_NODE
# network/TCP-gamma: SimGrid caps a flow at window / (2 x latency), 4 MiB by default: 350 GB/s over a
# 6 us NDR route, under the 400 GB/s of an H200 node's NICs. The alpha-beta-gamma model and RDMA
# have no such window, so it is raised out of the way (no slower platform reaches it).
# shellcheck disable=SC2086
exec smpirun -np "$np" -platform "$dir/platform.xml" -hostfile "$dir/hostfile" \
    --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1073741824 \
    --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:4194304 \
    --cfg=smpi/display-timing:no --cfg=smpi/test:0 --log=root.thres:critical $cal ${SMPI_FLAGS:-} "$@"
