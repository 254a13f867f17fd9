/* rank.h — which rank this process is before MPI starts, so an error in the options, the same on
 * every rank, is printed once (docs/DESIGN.md: only rank 0 prints). */
#ifndef HARN_RANK_H
#define HARN_RANK_H

/* The launcher's rank before MPI_Init: OMPI_COMM_WORLD_RANK (Open MPI), PMIX_RANK (PMIx), PMI_RANK
 * (MPICH/hydra, Slurm's PMI), the first one set to a rank in 0..2^30; 0 when started alone. */
int launcher_rank(void);

/* 1 when a launcher (mpirun, srun, hydra) started this process, as its environment said at the start
 * (rank_hold_stderr reads it before MPI_Init); 0 when it was started alone (an MPI singleton). */
int rank_launched(void);

/* An error before MPI starts (options, files) is the same on every rank, so on the launcher's ranks
 * other than 0 rank_hold_stderr (main.c, first thing) sends stderr to /dev/null, and
 * rank_release_stderr (each subcommand, right after MPI_Init) gives it back: from then on a failing
 * rank says why itself. Both are no-ops alone or on rank 0. */
void rank_hold_stderr(void);
void rank_release_stderr(void);

#endif
