/* rank.h — which rank this process is before MPI starts, so an error in the options, the same on
 * every rank, is printed once (docs/DESIGN.md: only rank 0 prints). */
#ifndef HARN_RANK_H
#define HARN_RANK_H

/* The launcher's rank before MPI_Init: OMPI_COMM_WORLD_RANK (Open MPI), PMIX_RANK (PMIx), PMI_RANK
 * (MPICH/hydra, Slurm's PMI), the first one set to a rank in 0..2^30; 0 when started alone. */
int launcher_rank(void);

#endif
