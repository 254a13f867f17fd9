#!/bin/sh
# fidelity_alloc.sh [NODES] [RANKS_PER_NODE] — the shape of the batch allocation that
# `fidelity.sh --backend mpi` runs on, as "NODES RANKS_PER_NODE" on stdout. Empty arguments are read
# from the scheduler, as the batch scripts (batch/) read them:
#   Slurm  SLURM_JOB_NUM_NODES (or SLURM_NNODES), SLURM_NTASKS_PER_NODE ("4(x16)" -> 4)
#   LSF    LSB_DJOB_HOSTFILE: one line per slot, the launch node first (not counted)
#   PBS    PBS_NODEFILE: one line per slot
# Outside an allocation only MPILAUNCH (a launcher that takes NP and the command) with both numbers
# given will do. Errors: one line on stderr, exit 2 (fidelity.sh then writes nothing).
set -u
nodes=${1:-} gpn=${2:-}
die() { echo "fidelity.sh: --backend mpi: $*" >&2; exit 2; }
slots() { # hostfile [skip the first line]: nodes and slots on the first node
    awk -v skip="$2" 'NR == 1 && skip { next } NF { if (!($1 in c)) { o[++n] = $1 }; c[$1]++ }
        END { if (n) print n, c[o[1]] }' "$1"
}
if [ -n "${SLURM_JOB_ID:-}" ]; then
    [ -n "$nodes" ] || nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
    t=${SLURM_NTASKS_PER_NODE:-1}; [ -n "$gpn" ] || gpn=${t%%(*}
elif [ -n "${LSB_JOBID:-}" ] || [ -n "${PBS_JOBID:-}" ]; then
    f=${LSB_DJOB_HOSTFILE:-${PBS_NODEFILE:-}} skip=0
    [ -n "${LSB_JOBID:-}" ] && f=${LSB_DJOB_HOSTFILE:-} skip=1
    if [ -n "$f" ] && [ -f "$f" ]; then
        set -- $(slots "$f" "$skip")
        [ -n "$nodes" ] || nodes=${1:-1}
        [ -n "$gpn" ] || gpn=${2:-1}
    fi
    [ -n "$nodes" ] && [ -n "$gpn" ] || die "the allocation's hostfile (LSB_DJOB_HOSTFILE or PBS_NODEFILE) is missing: give --nodes and --ranks-per-node"
elif [ -z "${MPILAUNCH:-}" ]; then
    die "not inside a Slurm, LSF or PBS allocation and no MPILAUNCH launcher (run it in one, set MPILAUNCH, or use BACKEND=sim: this machine)"
else
    [ -n "$nodes" ] && [ -n "$gpn" ] || die "outside an allocation, MPILAUNCH needs --nodes and --ranks-per-node"
fi
for v in "$nodes" "$gpn"; do case $v in ''|*[!0-9]*|0) die "--nodes/--ranks-per-node: expected positive integers, got \"$nodes\" and \"$gpn\"";; esac; done
[ $((nodes * gpn)) -ge 2 ] || die "expected at least 2 ranks in the allocation, got $nodes node(s) x $gpn"
echo "$nodes $gpn"
