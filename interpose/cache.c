/* cache.c — one dmpi_entry per communicator, cached as an attribute (MPI_Comm_create_keyval).
 * The entry is made on the first call libddl would take, by every rank of the communicator at
 * once (route.c's decision is the same on every rank), so making it may be collective:
 *   1. the settings that decide routing (threshold, algorithm) are compared across the ranks with
 *      one PMPI_Allreduce: if they differ, the communicator stays with MPI on every rank;
 *   2. ddl_ctx_create, collective, agrees on its own failure: a rank that fails fails it on all.
 * Either way every rank stores the same answer, so no rank routes where another does not.
 * Intercommunicators get an entry without a context (no collective step). The keyval's copy
 * callback is MPI_COMM_NULL_COPY_FN (a duplicate makes its own context on first use); its delete
 * callback frees the context when the communicator is freed, and MPI_Finalize (ddl_mpi.c) deletes
 * the attribute of every communicator still holding one, so every context goes before MPI does. */
#include "dmpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int keyval = MPI_KEYVAL_INVALID;
static dmpi_entry *entries;              /* live entries, oldest first */
static const char *const coll_names[DMPI_COLL_COUNT] = { "allreduce", "reduce_scatter_block", "allgather" };

static void unlink_entry(dmpi_entry *e)
{
    for (dmpi_entry **p = &entries; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

static int delete_entry(MPI_Comm comm, int key, void *value, void *extra)
{
    dmpi_entry *e = value;
    (void)comm, (void)key, (void)extra;
    if (e->ctx && dmpi_settings_get()->verbose && e->rank == 0) { /* one write: ranks share the output */
        char line[256];
        int used = snprintf(line, sizeof line, "ddl_mpi: comm %s freed: libddl took", e->name);
        for (int c = 0; c < DMPI_COLL_COUNT && used > 0 && (size_t)used < sizeof line; c++)
            used += snprintf(line + used, sizeof line - (size_t)used, " %s=%lu", coll_names[c], e->calls[c]);
        printf("%s\n", line);
        fflush(stdout);
    }
    unlink_entry(e);
    ddl_ctx_free(e->ctx);
    free(e);
    return MPI_SUCCESS;
}

/* Step 1 of the file header: 0 when every rank has the same settings. */
static int same_settings(MPI_Comm comm, const dmpi_settings *s, int *same)
{
    long mine[4] = { (long)s->threshold, -(long)s->threshold, s->algo_index, -s->algo_index }, all[4];
    int rc = PMPI_Allreduce(mine, all, 4, MPI_LONG, MPI_MAX, comm);
    *same = rc == MPI_SUCCESS && all[0] == -all[1] && all[2] == -all[3];
    return rc;
}

static void say(const dmpi_entry *e, const char *what, const char *detail)
{
    if (e->rank != 0) return;
    printf("ddl_mpi: comm %s: %s%s\n", e->name, what, detail);
    fflush(stdout);
}

static void make_context(dmpi_entry *e, MPI_Comm comm, const dmpi_settings *s)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    char desc[256];
    int same = 0, size = 0;
    if (same_settings(comm, s, &same) != MPI_SUCCESS) return;
    if (!same) {
        say(e, "DDL_ALGO or DDL_MPI_THRESHOLD differs between ranks; ", "its collectives go to MPI");
        return;
    }
    cfg.algo = s->algo;
    if (ddl_ctx_create(comm, &cfg, &e->ctx)) {
        e->ctx = NULL;
        say(e, "no libddl context, its collectives go to MPI: ", ddl_last_error());
        return;
    }
    if (!s->verbose) return;
    PMPI_Comm_size(comm, &size);
    if (ddl_ctx_describe(e->ctx, desc, sizeof desc)) snprintf(desc, sizeof desc, "%s", ddl_ctx_algo(e->ctx));
    if (e->rank != 0) return;
    printf("ddl_mpi: comm %s: %d ranks, DDL_ALGO=%s threshold=%zu B -> libddl %s\n", e->name, size, s->algo,
           s->threshold, desc);
    fflush(stdout);
}

static dmpi_entry *new_entry(MPI_Comm comm, const dmpi_settings *s)
{
    dmpi_entry *e = calloc(1, sizeof *e);
    int inter = 0, len = 0;
    if (!e) return NULL; /* this rank passes this call to MPI; as the others may not, MPI will say */
    e->comm = comm;
    PMPI_Comm_rank(comm, &e->rank);
    if (PMPI_Comm_get_name(comm, e->name, &len) != MPI_SUCCESS || !len)
        snprintf(e->name, sizeof e->name, "(unnamed)");
    if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter) make_context(e, comm, s);
    if (PMPI_Comm_set_attr(comm, keyval, e) != MPI_SUCCESS) {
        ddl_ctx_free(e->ctx);
        free(e);
        return NULL;
    }
    dmpi_entry **p = &entries;
    while (*p) p = &(*p)->next;
    *p = e;
    return e;
}

dmpi_entry *dmpi_entry_get(MPI_Comm comm)
{
    const dmpi_settings *s = dmpi_settings_get();
    dmpi_entry *e = NULL;
    int found = 0;
    if (!s->enabled || s->finalized || comm == MPI_COMM_NULL) return NULL;
    if (keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_entry, &keyval, NULL) != MPI_SUCCESS) {
        keyval = MPI_KEYVAL_INVALID;
        return NULL;
    }
    if (PMPI_Comm_get_attr(comm, keyval, &e, &found) != MPI_SUCCESS) return NULL;
    if (!found) e = new_entry(comm, s);
    return e && e->ctx ? e : NULL;
}

void dmpi_cache_finalize(void)
{
    while (entries) {
        dmpi_entry *e = entries;
        if (PMPI_Comm_delete_attr(e->comm, keyval) != MPI_SUCCESS) delete_entry(e->comm, keyval, e, NULL);
    }
    if (keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&keyval);
}
