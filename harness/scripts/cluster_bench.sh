#!/bin/sh
# cluster_bench.sh — what `make cluster-bench` runs: the `make bench` allreduce sweep (every algorithm,
# MPI_Allreduce and Open MPI's forced ring/Rabenseifner; harness/scripts/bench.sh) on an emulated
# cluster of NODES nodes x GPUS_PER_NODE ranks whose node NICs run at RATE (harness/scripts/emucluster.sh),
# brought up for the run and removed after it (also on Ctrl-C and on failure).
# Output in OUT (default results/cluster-bench): allreduce.csv (with a `# cluster:` provenance line),
# ratios.txt = busbw over MPI_Allreduce's, as `make bench` prints it, and, when RATE is set, each
# algorithm's median time over its link bound: the bytes through the busiest node NIC (one direction)
# divided by RATE, from the alpha-beta model with only the NIC priced (ddlbench model --preset custom,
# no latency, free intra-node links, no reduction cost). The bound of `mpi` assumes Open MPI 4.1's
# fixed decision (collectives/ompi_decision.c: Rabenseifner, priced as nearest-first rhd, from 8 KB at
# 4-7 ranks), that of mpi-ompi-ring the ring's, that of mpi-ompi-rabenseifner (nearest partner first,
# as Open MPI's) rhd's.
# Environment: NODES (2), GPUS_PER_NODE (2), RATE (none | e.g. 500mbit), DELAY (none | e.g. 100us,
# needs netem), MAX (largest size, default 64M), RSAG_MAX (reduce-scatter/allgather sweeps up to this
# size; default 0: the allreduce only, as the link bounds are the allreduce's), BUILD, OUT, MPIRUN.
set -u
here=$(cd "$(dirname "$0")" && pwd)
nodes=${NODES:-2} gpn=${GPUS_PER_NODE:-2} rate=${RATE:-none} delay=${DELAY:-none}
BUILD=${BUILD:-build}
OUT=${OUT:-results/cluster-bench}
MAX=${MAX:-64M}
die() { echo "cluster_bench.sh: $*" >&2; exit 2; }
case $gpn in ''|*[!0-9]*|0*) die "GPUS_PER_NODE: expected a positive integer, got \"$gpn\"";; esac
[ ${#gpn} -le 2 ] && [ "$gpn" -le 16 ] || die "GPUS_PER_NODE: expected at most 16 on one machine, got $gpn"
case $MAX in 16M|32M|64M|128M|256M) ;; *) die "MAX: expected 16M, 32M, 64M, 128M or 256M, got \"$MAX\"";; esac
[ -x "$BUILD/ddlbench" ] || die "$BUILD/ddlbench not built (make all)"

name=cbench
emu="sh $here/emucluster.sh --name $name"
$emu up --nodes "$nodes" --rate "$rate" --delay "$delay" || exit 2
trap '$emu down >/dev/null; rm -f "$OUT/bounds.tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$OUT" || die "cannot create $OUT"

bounds=""
bits=$(sed -n 's/^rate_bits=//p' "${EMU_STATE:-/run/ddl-emucluster}/$name/config")
if [ "${bits:-0}" -gt 0 ]; then # link bounds at the sizes of the ratio table
    bounds=$OUT/bounds.txt
    zero=$OUT/bounds.profile # the model's reduction cost set to 0: the bound is the NIC's alone
    { grep -v '^reduce_ns_per_byte' "$here/../sim/profiles/p100.profile"; echo "reduce_ns_per_byte = 0"; } >"$zero"
    echo "# algo size_B bound_us (NIC $rate = $((bits / 8)) B/s each way, $nodes nodes x $gpn ranks)" >"$bounds.tmp"
    for size in 1048576 16777216 67108864; do
        for algo in ring rhd rhd-far ddl mpi; do
            us=$("$BUILD/ddlbench" model --algo "$algo" --preset custom --nodes "$nodes" --gpus-per-node "$gpn" \
                --bytes "$size" --intra-bw 1000T --intra-lat 0us --inter-bw "$((bits / 8))" --inter-lat 0us \
                --profile "$zero" | awk '!/^#/ {print $2}') || die "ddlbench model failed for $algo"
            echo "$algo $size $us" >>"$bounds.tmp"
            [ "$algo" = ring ] && echo "mpi-ompi-ring $size $us" >>"$bounds.tmp"
            [ "$algo" = rhd ] && echo "mpi-ompi-rabenseifner $size $us" >>"$bounds.tmp" # nearest first too
        done
    done
    rm -f "$zero"
    mv "$bounds.tmp" "$bounds"
fi

# fewer iterations than make bench: at 500 Mbit/s a 64 MB allreduce takes seconds
RSAG_MAX=${RSAG_MAX:-0} LAUNCH="$emu run --ppn $gpn --" KERNELS=0 NPS=$((nodes * gpn)) OUT=$OUT MAX=$MAX \
    BOUNDS=$bounds BUILD=$BUILD \
RANGES="1K 512K 3 20
1M 8M 2 10
16M $MAX 1 5" BENCH_COMMAND="make cluster-bench NODES=$nodes GPUS_PER_NODE=$gpn RATE=$rate DELAY=$delay MAX=$MAX" \
    sh "$here/bench.sh"
