/* dmpi.h — the interposer's state, shared by its files: the settings read once from the environment
 * (settings.c) and the per-communicator entries cached as attributes (cache.c). docs/DESIGN.md,
 * "The PMPI interposer", says how it decides and what it never touches. */
#ifndef DMPI_H
#define DMPI_H

#include "route.h"

#include <ddl.h>

#define DMPI_EXPORT __attribute__((visibility("default")))
#define DMPI_THRESHOLD_DEFAULT ((size_t)64 * 1024)

/* What the environment says, read at the first interposed call (after MPI_Init). */
typedef struct dmpi_settings {
    int loaded;              /* read already */
    int enabled;             /* 0: every call goes to MPI (a bad setting, MPI_THREAD_MULTIPLE) */
    const char *algo;        /* DDL_ALGO (default "auto") */
    int algo_index;          /* ddl_algo_find(algo) */
    unsigned algo_flags;     /* ddl_algo_flags(algo_index) */
    size_t threshold;        /* DDL_MPI_THRESHOLD, bytes */
    int verbose;             /* DDL_MPI_VERBOSE=1 */
    int finalized;           /* MPI_Finalize has begun: MPI from here on */
} dmpi_settings;

/* One communicator's state, its attribute value. ctx NULL: this communicator stays with MPI. */
typedef struct dmpi_entry {
    MPI_Comm comm;           /* the user's communicator (for MPI_Finalize's sweep) */
    ddl_ctx *ctx;            /* libddl's context, or NULL */
    char name[MPI_MAX_OBJECT_NAME]; /* MPI_Comm_get_name at creation */
    int rank;                /* in comm */
    unsigned long calls[DMPI_COLL_COUNT]; /* calls libddl took */
    struct dmpi_entry *next; /* the list MPI_Finalize sweeps, in creation order */
} dmpi_entry;

/* settings.c */
const dmpi_settings *dmpi_settings_get(void);
void dmpi_settings_finalizing(void);
/* cache.c: the entry of comm, made collectively on the first call libddl would take; NULL: MPI. */
dmpi_entry *dmpi_entry_get(MPI_Comm comm);
void dmpi_cache_finalize(void);

#endif
