#!/bin/sh
# check_mpich.sh MPICH_BUILD TEST... — what `make check-mpich` runs once make has built the MPICH
# flavour (mpicc.mpich) into MPICH_BUILD: each MPI test at 2 ranks under mpirun.mpich, then the
# interposer's and the cluster tests (tests/pmpi.sh, tests/cluster.sh) on that build. MPICH's progress
# engine spins, so on 2 shared cores only a few ranks are practical. Exit 0, or 1 at the first failure.
set -eu
[ $# -ge 1 ] || { echo "usage: check_mpich.sh MPICH_BUILD TEST..." >&2; exit 2; }
mb=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
for t in "$@"; do MPIRUN=mpirun.mpich sh "$here/mpilaunch.sh" 2 "$mb/tests/$t"; done
BUILD=$mb MPIRUN=mpirun.mpich PMPI_MPICH=1 sh "$here/../../tests/pmpi.sh"
BUILD=$mb MPIRUN=mpirun.mpich sh "$here/../../tests/cluster.sh"
