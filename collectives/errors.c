/* errors.c — error codes, their names, and the calling thread's last message. */
#include "coll.h"

#include <stdarg.h>
#include <stdio.h>

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
