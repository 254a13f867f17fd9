#!/bin/sh
# mpilaunch.sh NP COMMAND [ARGS...] — start NP ranks on this machine with the right launcher flags.
# Open MPI: --oversubscribe (more ranks than cores is expected here), each rank bound to a core in
# turn (--bind-to core:overload-allowed: rank r on core r mod cores), and the two OMPI_ALLOW_RUN_AS_ROOT
# variables when run as root. Bound, repeated runs agree; unbound, the kernel's placement of the ranks
# changed them: 4-rank rhd allreduce of 1 KiB, 6 runs, 14-50 us unbound against 13 us in every bound
# run; 2 ranks at 256 KiB 24-45 against 24-25 (docs/BENCHMARKS.md, 2026-12-03, fifth session).
# MPICH (hydra): -n NP. MPIRUN picks the launcher.
# Each rank gets OPENBLAS_NUM_THREADS=1 unless the caller set it: ranks share the cores.
set -eu
[ $# -ge 2 ] || { echo "usage: mpilaunch.sh NP COMMAND [ARGS...]" >&2; exit 2; }
np=$1; shift
case $np in ''|*[!0-9]*|0) echo "mpilaunch.sh: NP: expected a positive integer, got \"$np\"" >&2; exit 2;; esac
MPIRUN=${MPIRUN:-mpirun}
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
if "$MPIRUN" --version 2>&1 | grep -q 'Open MPI'; then
    if [ "$(id -u)" = 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    exec "$MPIRUN" --oversubscribe --bind-to core:overload-allowed -np "$np" ${MPIRUN_FLAGS:-} "$@"
fi
exec "$MPIRUN" -n "$np" ${MPIRUN_FLAGS:-} "$@"
