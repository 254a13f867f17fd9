#!/bin/sh
# ompi_pick.sh — which allreduce algorithm Open MPI's coll/tuned really runs, per rank count and size,
# to hold collectives/ompi_decision.c (the table the simulated `mpi` follows) against the library
# installed here. A small LD_PRELOAD shim, compiled into a temporary folder, wraps Open MPI's
# ompi_coll_base_allreduce_intra_* functions (coll/tuned calls them through the PLT) and names the
# outermost one per call; `ddlbench allreduce -a mpi` sweeps the sizes (float32, one iteration).
# Prints "# ranks size_B algorithm" then one line per rank count and size. Not Open MPI, no C compiler
# or bad options: one line, exit 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "ompi_pick.sh: $*" >&2; exit 2; }
build=build ranks="2 4" min=1K max=1M
while [ $# -gt 0 ]; do
    case $1 in -h|--help) echo "usage: ompi_pick.sh [--build DIR] [--ranks \"2 4\"] [-b MIN] [-e MAX]   (sizes by 2x)"
        exit 0;; esac
    [ $# -ge 2 ] || die "$1: expected a value (see --help)"
    case $1 in --build) build=$2;; --ranks) ranks=$2;; -b) min=$2;; -e) max=$2;;
        *) die "unknown option \"$1\" (see --help)";; esac
    shift 2
done
for r in $ranks; do case $r in ''|*[!0-9]*|0|1) die "--ranks: expected integers >= 2, got \"$r\"";; esac; done
[ -x "$build/ddlbench" ] || die "$build/ddlbench not built (make)"
"${MPIRUN:-mpirun}" --version 2>&1 | grep -q 'Open MPI' || die "needs Open MPI's mpirun (this one is not Open MPI)"
cc=$(command -v cc || command -v gcc) || die "needs a C compiler (cc) for the shim"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cat >"$tmp/shim.c" <<'EOF'
/* Wraps Open MPI's base allreduce algorithms; prints the outermost one of each call (rank 0 of the
 * communicator is not known here: every process prints, the caller keeps distinct lines). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
typedef int (*fn7)(const void *, void *, int, void *, void *, void *, void *);
typedef int (*fn8)(const void *, void *, int, void *, void *, void *, void *, uint32_t);
static int depth;
#define WRAP(fn, label) \
    int fn(const void *s, void *r, int c, void *d, void *o, void *m, void *x) { \
        static fn7 real; if (!real) real = (fn7)dlsym(RTLD_NEXT, #fn); \
        if (!depth) fprintf(stderr, "OMPI_PICK %d %s\n", c, label); \
        depth++; int rc = real(s, r, c, d, o, m, x); depth--; return rc; }
WRAP(ompi_coll_base_allreduce_intra_basic_linear, "basic_linear")
WRAP(ompi_coll_base_allreduce_intra_nonoverlapping, "nonoverlapping")
WRAP(ompi_coll_base_allreduce_intra_recursivedoubling, "recursive_doubling")
WRAP(ompi_coll_base_allreduce_intra_ring, "ring")
WRAP(ompi_coll_base_allreduce_intra_redscat_allgather, "rabenseifner")
int ompi_coll_base_allreduce_intra_ring_segmented(const void *s, void *r, int c, void *d, void *o, void *m,
                                                  void *x, uint32_t seg) {
    static fn8 real; if (!real) real = (fn8)dlsym(RTLD_NEXT, "ompi_coll_base_allreduce_intra_ring_segmented");
    if (!depth) fprintf(stderr, "OMPI_PICK %d segmented_ring\n", c);
    depth++; int rc = real(s, r, c, d, o, m, x, seg); depth--; return rc; }
EOF
"$cc" -shared -fPIC -O1 -o "$tmp/shim.so" "$tmp/shim.c" -ldl 2>"$tmp/cc.log" ||
    die "compiling the shim failed: $(head -n 1 "$tmp/cc.log")"
echo "# ranks size_B algorithm   (Open MPI $("${MPIRUN:-mpirun}" --version 2>&1 | sed -n 's/.*Open MPI) //p' | head -n \
    1), coll/tuned as configured here)"
for np in $ranks; do
    LD_PRELOAD=$tmp/shim.so MPIRUN_FLAGS="${MPIRUN_FLAGS:-} -x LD_PRELOAD" sh "$here/mpilaunch.sh" "$np" \
        "$build/ddlbench" \
        allreduce -a mpi -b "$min" -e "$max" -f 2 -w 0 -n 1 -c 0 >"$tmp/out" 2>&1 </dev/null ||
        die "ddlbench allreduce on $np ranks failed: $(grep -v OMPI_PICK "$tmp/out" | tail -n 1)"
    # the benchmark's calls: float32 counts of the swept sizes (MPI's own small allreduces have other counts)
    awk -v np="$np" '!/^#/ && $1 ~ /^[0-9]+$/ && $5 == "mpi" { want[$2] = $1 }
        /^OMPI_PICK/ { pick[$2] = $3 }
        END { for (c in want) if (c in pick) print np, want[c], pick[c] }' "$tmp/out" "$tmp/out" | sort -n -k2
done
