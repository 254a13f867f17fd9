/* parallel_contexts.c — minimal reproducer: why ddlbench-sim cannot use SimGrid's parallel contexts
 * (--cfg=contexts/nthreads:N, N > 1) with SimGrid 3.32. Run by tests/sim/parallel_contexts.sh.
 *
 * Each rank keeps its compute clock in a global, as kernels/compute_sim.c does: SMPI gives every
 * rank its own copy of the globals by copying the executable once per rank (/tmp/NAME_PID_RANK.so)
 * and dlopen-ing the copy ("smpi/privatization:dlopen", the default). Three steps of 100 ms of
 * "compute" (sleep to the clock) and a barrier must end at 0.300 s on every rank. With nthreads > 1
 * the ranks' start-up, copies included, runs on several threads at once, and SimGrid 3.32 races on
 * those copies: some runs abort ("Cannot write into /tmp/..._2.so: File exists", "dlopen failed:
 * ... No such file or directory"), and some finish with two ranks on one copy — one clock advanced
 * by both, so the run ends at 0.5-0.6 s: a silently wrong result. */
#include <mpi.h>
#include <simgrid/actor.h>
#include <stdio.h>

static double clock_end; /* per rank only if privatisation gave this rank its own copy */

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int step = 0; step < 3; step++) {
        double now = MPI_Wtime();
        if (clock_end < now) clock_end = now;
        clock_end += 0.1;
        double wait = clock_end - MPI_Wtime();
        if (wait > 0) sg_actor_sleep_for(wait);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t = MPI_Wtime(), tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("end %.3f s on %d ranks (expected 0.300)\n", tmax, size);
    MPI_Finalize();
    return 0;
}
