#!/bin/sh
# launch.sh — the one launcher of the scripts (sweep, fidelity, jitter, study, the run's allreduce
# sweep): starts PROGRAM [ARGS...] as -n RANKS ranks, -g RANKS_PER_NODE a node (default all on one),
# on the backend -b, every launch placed as asked:
#   simulated  SMPI on the platform folder -p DIR (ddlbench platform -o DIR; simlaunch.sh)
#   real       Open MPI or MPICH on this machine (mpilaunch.sh)
#   emulated   real MPI on the emulated cluster -e NAME (emucluster.sh --name NAME run --ppn G)
#   scheduler  the allocation's own launcher, naming the nodes and the ranks per node of each launch
#              (n = RANKS / RANKS_PER_NODE nodes, rounded up), so a 1-node point runs on one node:
#     Slurm  srun -N n --ntasks-per-node G --cpu-bind=cores [--gpus-per-task=1] -n RANKS
#            (--gpus-per-task where the allocation has GPUs: SLURM_GPUS_ON_NODE, SLURM_GPUS_PER_NODE)
#     LSF    jsrun --nrs RANKS --rs_per_host G --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 (jsrun on
#            PATH or LAUNCHER=jsrun), else mpirun on the first n hosts of LSB_DJOB_HOSTFILE (its
#            first line, the launch node, not counted)
#     PBS    mpirun on the first n hosts of PBS_NODEFILE
#            (mpirun: Open MPI --host h1:G,h2:G --map-by ppr:G:node -np RANKS; MPICH -hosts h1,h2
#            -ppn G -n RANKS; MPIRUN picks the program)
#     MPILAUNCH, when set: "$MPILAUNCH RANKS PROGRAM ARGS" (a launcher of your own: placement is yours)
#   mpi        scheduler inside an allocation (SLURM_JOB_ID, LSB_JOBID, PBS_JOBID) or with MPILAUNCH,
#              else real
# Every rank learns the shape from DDL_RANKS_PER_NODE. --dry-run prints the command, one line, and
# runs nothing; --which prints the launcher -b resolves to (srun, jsrun, mpirun, mpilaunch.sh, ...).
# Usage: launch.sh [--dry-run|--which] -b BACKEND -n RANKS [-g RANKS_PER_NODE] [-p DIR] [-e NAME]
#        PROGRAM [ARGS...]. Bad input: one line, exit 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "launch.sh: $*" >&2; exit 2; }
mode=run backend="" np="" ppn="" dir="" emu=""
while [ $# -gt 0 ]; do
    case $1 in
    --dry-run) mode=dry; shift; continue;;
    --which) mode=which; shift; continue;;
    -b|-n|-g|-p|-e) [ $# -ge 2 ] || die "$1: expected a value after it";;
    *) break;;
    esac
    case $1 in -b) backend=$2;; -n) np=$2;; -g) ppn=$2;; -p) dir=$2;; -e) emu=$2;; esac
    shift 2
done
case $np in ''|*[!0-9]*|0*) die "-n: expected a positive integer, got \"$np\"";; esac
[ -n "$ppn" ] || ppn=$np
case $ppn in ''|*[!0-9]*|0*) die "-g: expected a positive integer, got \"$ppn\"";; esac
[ $# -ge 1 ] || [ "$mode" = which ] || die "expected the program to launch"
[ $# -ge 1 ] || set -- program
nodes=$(((np + ppn - 1) / ppn))
inalloc=${SLURM_JOB_ID:-}${LSB_JOBID:-}${PBS_JOBID:-}
if [ "$backend" = mpi ]; then
    if [ -n "${MPILAUNCH:-}" ] || [ -n "$inalloc" ]; then backend=scheduler; else backend=real; fi
fi
# hosts FILE SKIP: the first $nodes distinct hosts of a one-line-per-slot file, comma-separated,
# each as the MPI asks for it (Open MPI h:slots); SKIP 1: the first line (LSF's launch node) is not one
hosts() {
    awk -v skip="$2" -v n="$nodes" -v g="$ppn" -v ompi="$3" 'NR == 1 && skip { next }
        NF && !($1 in s) { s[$1] = 1; if (k < n) h[++k] = $1 }
        END { if (k < n) { print "only " k; exit }
              for (i = 1; i <= k; i++) printf "%s%s%s", (i > 1 ? "," : ""), h[i], (ompi ? ":" g : ""); print "" }' "$1"
}
# mpi_hosts FILE SKIP: sets ompi and h (the hosts) for mpirun on the first $nodes hosts of FILE
mpi_hosts() {
    [ -f "$1" ] || die "the allocation's hostfile \"$1\" is missing (LSB_DJOB_HOSTFILE, PBS_NODEFILE)"
    ompi=0; "${MPIRUN:-mpirun}" --version 2>&1 | grep -q 'Open MPI' && ompi=1
    h=$(hosts "$1" "$2" "$ompi")
    case $h in "only "*) die "$nodes nodes of $ppn ranks asked, the allocation has ${h#only } (in $1)";; esac
}
shape="DDL_RANKS_PER_NODE=$ppn " # printed by --dry-run before a local launcher; a scheduler's carries it
case $backend in
simulated)
    [ -n "$dir" ] || die "-b simulated: expected the platform folder -p DIR"
    set -- sh "$here/simlaunch.sh" "$np" "$dir" "$@";;
real) set -- sh "$here/mpilaunch.sh" "$np" "$@";;
emulated)
    [ -n "$emu" ] || die "-b emulated: expected the cluster's name -e NAME"
    set -- sh "$here/emucluster.sh" --name "$emu" run --ppn "$ppn" -- sh "$here/mpilaunch.sh" "$np" "$@";;
scheduler)
    shape=""
    if [ -n "${MPILAUNCH:-}" ]; then
        # shellcheck disable=SC2086 # a launcher's words
        set -- $MPILAUNCH "$np" "$@"
    elif [ -n "${SLURM_JOB_ID:-}" ]; then
        case ${SLURM_GPUS_ON_NODE:-}${SLURM_GPUS_PER_NODE:-} in
        ''|0) set -- srun -N "$nodes" --ntasks-per-node "$ppn" --cpu-bind=cores -n "$np" "$@";;
        *) set -- srun -N "$nodes" --ntasks-per-node "$ppn" --cpu-bind=cores --gpus-per-task=1 -n "$np" "$@";;
        esac
    elif [ -n "${LSB_JOBID:-}" ] && { command -v jsrun >/dev/null 2>&1 || [ "${LAUNCHER:-}" = jsrun ]; }; then
        set -- jsrun --nrs "$np" --rs_per_host "$ppn" --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 "$@"
    elif [ -n "${LSB_JOBID:-}${PBS_JOBID:-}" ]; then
        if [ -n "${LSB_JOBID:-}" ]; then mpi_hosts "${LSB_DJOB_HOSTFILE:-}" 1; else mpi_hosts "${PBS_NODEFILE:-}" 0; fi
        if [ "$ompi" = 1 ]; then set -- "${MPIRUN:-mpirun}" --host "$h" --map-by "ppr:$ppn:node" -np "$np" "$@"
        else set -- "${MPIRUN:-mpirun}" -hosts "$h" -ppn "$ppn" -n "$np" "$@"; fi
    else die "-b scheduler: not inside a Slurm, LSF or PBS allocation and no MPILAUNCH launcher"; fi;;
*) die "-b: expected simulated, real, emulated, scheduler or mpi, got \"$backend\"";;
esac
if [ "$mode" = which ]; then
    case $1 in sh) basename "$2";; *) basename "$1";; esac
    exit 0
fi
if [ "$mode" = dry ]; then echo "$shape$*"; exit 0; fi
export DDL_RANKS_PER_NODE="$ppn"
exec "$@" </dev/null
