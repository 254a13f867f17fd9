/* settings.c — the interposer's environment, read once at the first interposed call:
 *   DDL_ALGO            libddl's algorithm for every communicator (default auto; ddlbench list)
 *   DDL_MPI_THRESHOLD   a size (65536, 64K, 1M): smaller vectors stay with MPI (default 64K)
 *   DDL_MPI_VERBOSE     1: a line per communicator on its rank 0 (what it resolved to; the calls
 *                       libddl took, when it is freed)
 *   DDL_MPI_MULTIPLE    1: route under MPI_THREAD_MULTIPLE too; the program promises that one thread
 *                       at a time makes collective calls (libddl's contexts are not thread-safe)
 * libddl reads its own (DDL_GRID, DDL_PATTERNS, DDL_RANKS_PER_NODE, DDL_SEGMENT_BYTES, ...) when a
 * context is made. A bad value is one line on rank 0 of MPI_COMM_WORLD and every call goes to MPI:
 * the program runs on, as it would without the library. */
#include "dmpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dmpi_settings settings;

static int world_rank0(void)
{
    int rank = -1;
    return PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 0;
}

static int bad(const char *var, const char *value, const char *expected)
{
    if (world_rank0()) {
        printf("ddl_mpi: %s: expected %s, got \"%.64s\"; every collective goes to MPI\n", var, expected, value);
        fflush(stdout);
    }
    return -1;
}

static int flag(const char *var, int *out)
{
    const char *v = getenv(var);
    *out = 0;
    if (!v || !*v || !strcmp(v, "0")) return 0;
    if (!strcmp(v, "1")) return *out = 1, 0;
    return bad(var, v, "0 or 1");
}

static int algo_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ddl_algo_count() && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "", ddl_algo_name(i));
    return 0;
}

static int read_env(dmpi_settings *s)
{
    const char *thr = getenv("DDL_MPI_THRESHOLD");
    char names[256];
    int multiple = 0, provided = MPI_THREAD_SINGLE;
    s->algo = getenv("DDL_ALGO") && *getenv("DDL_ALGO") ? getenv("DDL_ALGO") : "auto";
    if ((s->algo_index = ddl_algo_find(s->algo)) < 0)
        return algo_names(names, sizeof names), bad("DDL_ALGO", s->algo, names);
    s->algo_flags = ddl_algo_flags(s->algo_index);
    s->threshold = DMPI_THRESHOLD_DEFAULT;
    if (thr && *thr && dmpi_parse_size(thr, &s->threshold))
        return bad("DDL_MPI_THRESHOLD", thr, "a size in bytes (65536, 64K, 1M; at most 2^50)");
    if (flag("DDL_MPI_VERBOSE", &s->verbose) || flag("DDL_MPI_MULTIPLE", &multiple)) return -1;
    if (PMPI_Query_thread(&provided) != MPI_SUCCESS) return -1;
    if (provided == MPI_THREAD_MULTIPLE && !multiple) {
        if (s->verbose && world_rank0()) {
            printf("ddl_mpi: MPI_THREAD_MULTIPLE: every collective goes to MPI (libddl's contexts are not "
                   "thread-safe; DDL_MPI_MULTIPLE=1 if one thread at a time makes collective calls)\n");
            fflush(stdout);
        }
        return -1;
    }
    return 0;
}

/* The first call's thread reads them; a program under MPI_THREAD_MULTIPLE never routes unless
 * DDL_MPI_MULTIPLE=1, whose promise covers this first read too. */
const dmpi_settings *dmpi_settings_get(void)
{
    int init = 0, fin = 0;
    if (!settings.loaded) {
        if (PMPI_Initialized(&init) != MPI_SUCCESS || !init || PMPI_Finalized(&fin) != MPI_SUCCESS || fin)
            return &settings; /* erroneous calls outside MPI: MPI answers them, nothing is read */
        settings.enabled = read_env(&settings) == 0;
        settings.loaded = 1;
    }
    return &settings;
}

void dmpi_settings_finalizing(void) { settings.finalized = 1; }
