#!/bin/sh
# mpilaunch.sh NP COMMAND [ARGS...] — start NP ranks on this machine with the right launcher flags.
# Open MPI: --oversubscribe (more ranks than cores is expected here), --bind-to none, and the two
# OMPI_ALLOW_RUN_AS_ROOT variables when run as root. MPICH (hydra): -n NP. MPIRUN picks the launcher.
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
    exec "$MPIRUN" --oversubscribe --bind-to none -np "$np" ${MPIRUN_FLAGS:-} "$@"
fi
exec "$MPIRUN" -n "$np" ${MPIRUN_FLAGS:-} "$@"
