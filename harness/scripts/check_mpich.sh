#!/bin/sh
# check_mpich.sh MPICH_BUILD — what `make check-mpich` runs: make (MAKE, default make) builds the MPICH
# flavour (mpicc.mpich, CUDA=0) into MPICH_BUILD; then each MPI test at 2 ranks under mpirun.mpich, then the
# interposer's and the cluster tests (tests/pmpi.sh, tests/cluster.sh) on that build. MPICH's progress
# engine spins, so on 2 shared cores only a few ranks are practical. Exit 0, or 1 at the first failure.
set -eu
[ $# -eq 1 ] || { echo "usage: check_mpich.sh MPICH_BUILD" >&2; exit 2; }
mb=$1
here=$(cd "$(dirname "$0")" && pwd)
tests="test_allreduce test_collectives test_api"
${MAKE:-make} -C "$here/../.." --no-print-directory MPICC=mpicc.mpich BUILD="$mb" CUDA=0 "$mb/ddlbench" \
    "$mb/libddl_mpi.so" "$mb/tests/pmpi_client" $(for t in $tests; do echo "$mb/tests/$t"; done) >/dev/null
for t in $tests; do MPIRUN=mpirun.mpich sh "$here/mpilaunch.sh" 2 "$mb/tests/$t"; done
BUILD=$mb MPIRUN=mpirun.mpich PMPI_MPICH=1 sh "$here/../../tests/pmpi.sh"
BUILD=$mb MPIRUN=mpirun.mpich sh "$here/../../tests/cluster.sh"
