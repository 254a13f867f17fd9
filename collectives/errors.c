/* errors.c — error codes, their names, the calling thread's last message (coll_fail: the one
 * recorder below the API), the agreement that turns one rank's failure into every rank's before a
 * collective step, and the test hook that injects such failures (docs/DESIGN.md, "Errors"). */
#include "coll.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[512];

static const char *const names[DDL_ERR_COUNT_] = {
    [DDL_OK] = "success",
    [DDL_ERR_ARG] = "invalid argument",
    [DDL_ERR_ALGO] = "unknown algorithm",
    [DDL_ERR_GRID] = "invalid grid",
    [DDL_ERR_TOPO] = "unsupported topology",
    [DDL_ERR_NOMEM] = "out of memory",
    [DDL_ERR_MPI] = "MPI error",
    [DDL_ERR_DEVICE] = "device (CUDA) error",
};

const char *ddl_strerror(int code)
{
    if (code < 0 || code >= DDL_ERR_COUNT_) return "unknown error code";
    return names[code];
}

const char *ddl_last_error(void) { return last_error[0] ? last_error : "no error"; }

int coll_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

int coll_mpi_fail(int mpi_rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(mpi_rc, msg, &len) != MPI_SUCCESS) msg[0] = '\0';
    return coll_fail(DDL_ERR_MPI, "%.120s failed: %s", what, msg);
}

/* Cost: one MPI_Allreduce of two ints; on a failure one MPI_Bcast of the message more. */
int coll_agree(MPI_Comm comm, int rc)
{
    struct { int failed, rank; } mine = { rc != 0, 0 }, first;
    struct { int code; char msg[sizeof last_error - 64]; } what = { rc, "" };
    int mrc = MPI_Comm_rank(comm, &mine.rank);
    /* MPI_MAXLOC: any failure wins, and of the failing ranks the lowest */
    if (mrc == MPI_SUCCESS) mrc = MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MAXLOC, comm);
    if (mrc != MPI_SUCCESS) return rc ? rc : coll_mpi_fail(mrc, "MPI_Allreduce (agreement)");
    if (!first.failed) return 0;
    if (first.rank == mine.rank) snprintf(what.msg, sizeof what.msg, "%.*s", (int)sizeof what.msg - 1, last_error);
    mrc = MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first.rank, comm);
    if (rc) return rc; /* a rank that failed keeps its own code and message */
    if (mrc != MPI_SUCCESS) return coll_mpi_fail(mrc, "MPI_Bcast (agreement)");
    return coll_fail(what.code, "rank %d failed: %s", first.rank, what.msg);
}

int coll_agree_same(MPI_Comm comm, long value, const char *what)
{
    long mine[2] = { value, -value }, all[2];
    COLL_MPI(MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_MAX, comm));
    if (all[0] != -all[1]) return coll_fail(DDL_ERR_ARG, "%s differs between ranks", what);
    return 0;
}

/* DDL_TEST_FAIL="POINT:RANK": the failure a test injects to check that every rank fails in time.
 *   alloc     ddl_ctx_create's buffer allocation (DDL_ERR_NOMEM)
 *   topology  ranks-per-node detection, between its two collective calls (DDL_ERR_MPI)
 *   setup     the algorithm's setup, before its collective steps (ddl, auto), else after it (DDL_ERR_ARG)
 * Read at every check (ddl_ctx_create only: never in a timed call). */
int coll_test_fail(MPI_Comm comm, const char *point, int code)
{
    static const char *const points[] = { "alloc", "topology", "setup" };
    const char *env = getenv("DDL_TEST_FAIL"), *colon;
    char *end = NULL;
    long r = -1;
    int me = -1, known = 0;
    if (!env || !*env) return 0;
    if ((colon = strchr(env, ':'))) {
        errno = 0;
        r = strtol(colon + 1, &end, 10);
        for (size_t i = 0; i < sizeof points / sizeof *points; i++)
            known |= strlen(points[i]) == (size_t)(colon - env) && !strncmp(env, points[i], (size_t)(colon - env));
    }
    if (!colon || !known || errno || end == colon + 1 || *end || r < 0)
        return coll_fail(DDL_ERR_ARG, "DDL_TEST_FAIL: expected alloc|topology|setup:RANK, got \"%.32s\"", env);
    if (strlen(point) != (size_t)(colon - env) || strncmp(env, point, (size_t)(colon - env))) return 0;
    if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS || me != r) return 0;
    return coll_fail(code, "%s failed: injected on rank %d by DDL_TEST_FAIL", point, me);
}
