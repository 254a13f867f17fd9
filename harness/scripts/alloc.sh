#!/bin/sh
# alloc.sh PROG — the batch allocation's shape, as the batch scripts (batch/) run it: prints
# "NODES GPUS_PER_NODE" (one rank per GPU), read from the scheduler:
#   Slurm  nodes SLURM_JOB_NUM_NODES (SLURM_NNODES); GPUs per node SLURM_GPUS_ON_NODE, else
#          SLURM_GPUS_PER_NODE (typed GRES too: "h100:8", "gpu:h100:8(x16)" -> 8); tasks per node
#          SLURM_NTASKS_PER_NODE where the job asked for it ("4(x16)" -> 4)
#   LSF    LSB_DJOB_HOSTFILE, one line per slot, its first line the launch node (not counted): nodes
#          and slots (tasks) per node
#   PBS    PBS_NODEFILE, one line per slot (mpiprocs): nodes and tasks per node
#   GPUs on LSF and PBS: CUDA_VISIBLE_DEVICES's count where it names devices, else GPUS_PER_NODE
# GPUs per node: the allocation's GPUs, else its tasks per node, else GPUS_PER_NODE, else 4. Refused
# (one line naming PROG, exit 2, before any work): a tasks per node that differs from the GPUs per
# node, GPUS_PER_NODE that differs from the allocation's GPUs, no allocation.
set -u
prog=${1:-alloc.sh}
die() { echo "$prog: $*" >&2; exit 2; }
count() { printf '%s\n' "$1" | tr ',' '\n' | grep -c .; }
nodes="" tasks="" gpus="" from=""
slots() { # hostfile skip: "nodes slots-on-the-first-node"
    awk -v skip="$2" 'NR == 1 && skip { next } NF { if (!($1 in c)) o[++n] = $1; c[$1]++ }
        END { if (n) print n, c[o[1]] }' "$1"
}
if [ -n "${SLURM_JOB_ID:-}" ]; then
    nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
    t=${SLURM_NTASKS_PER_NODE:-}; tasks=${t%%(*}
    if [ -n "${SLURM_GPUS_ON_NODE:-}" ]; then gpus=$SLURM_GPUS_ON_NODE from="SLURM_GPUS_ON_NODE=$gpus"
    elif [ -n "${SLURM_GPUS_PER_NODE:-}" ]; then
        g=${SLURM_GPUS_PER_NODE%%,*}; g=${g%%(*}; gpus=${g##*:} from="SLURM_GPUS_PER_NODE=$SLURM_GPUS_PER_NODE"
    fi
    src="--ntasks-per-node $tasks"
elif [ -n "${LSB_JOBID:-}${PBS_JOBID:-}" ]; then
    f=${PBS_NODEFILE:-} skip=0 src=mpiprocs
    [ -n "${LSB_JOBID:-}" ] && f=${LSB_DJOB_HOSTFILE:-} skip=1 src="span[ptile]"
    if [ -n "$f" ] && [ -f "$f" ]; then
        # shellcheck disable=SC2046 # two words
        set -- $(slots "$f" "$skip")
        nodes=${1:-} tasks=${2:-}
        src="$tasks slots a node in $f"
    fi
    [ -n "$nodes" ] || nodes=${NODES:-1}
    case ${CUDA_VISIBLE_DEVICES-unset} in unset|''|-1|NoDevFiles) ;;
    *) gpus=$(count "$CUDA_VISIBLE_DEVICES") from="CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES";; esac
else
    die "not inside a Slurm, LSF or PBS allocation (SLURM_JOB_ID, LSB_JOBID, PBS_JOBID); expected sbatch, bsub or qsub"
fi
for v in "$nodes" "$tasks" "$gpus"; do
    case $v in *[!0-9]*)
        die "cannot read the allocation's shape: nodes \"$nodes\", tasks per node \"$tasks\", GPUs per node \"$gpus\"";;
    esac
done
if [ -n "${GPUS_PER_NODE:-}" ]; then
    case $GPUS_PER_NODE in ''|*[!0-9]*|0*)
        die "GPUS_PER_NODE: expected a positive integer, got \"$GPUS_PER_NODE\"";;
    esac
    if [ -n "$gpus" ] && [ "$gpus" != 0 ] && [ "$gpus" != "$GPUS_PER_NODE" ]; then
        die "GPUS_PER_NODE=$GPUS_PER_NODE differs from the allocation's $gpus GPUs per node ($from); expected $gpus"
    fi
    [ -n "$gpus" ] && [ "$gpus" != 0 ] || { gpus=$GPUS_PER_NODE from="GPUS_PER_NODE=$GPUS_PER_NODE"; }
fi
if [ -n "$gpus" ] && [ "$gpus" != 0 ]; then
    if [ -n "$tasks" ] && [ "$tasks" != "$gpus" ]; then
        die "$tasks tasks per node ($src) but $gpus GPUs per node ($from); expected one rank per GPU:" \
            "$gpus tasks per node"
    fi
    gpn=$gpus
elif [ -n "$tasks" ]; then gpn=$tasks
else gpn=4; fi
case $nodes$gpn in *[!0-9]*|'') die "cannot read the allocation's shape";; esac
[ "$nodes" -ge 1 ] && [ "$gpn" -ge 1 ] || die "expected at least 1 node and 1 rank per node, got $nodes x $gpn"
echo "$nodes $gpn"
