/* ddl_mpi.c — libddl_mpi.so: MPI_Allreduce, MPI_Reduce_scatter_block and MPI_Allgather of any MPI
 * program through libddl's algorithms, by the MPI profiling interface (MPI 3.1 §14.2):
 *   mpirun -np 4 env LD_PRELOAD=$PWD/build/libddl_mpi.so ./program
 * Each entry point asks route.c whether libddl takes the call (predefined type and op libddl has, at
 * least DDL_MPI_THRESHOLD bytes, an intracommunicator) and cache.c for the communicator's context;
 * anything else goes to PMPI_* unchanged. libddl's own MPI calls inside this library are bound to
 * PMPI_* when it is built (the Makefile's objcopy --redefine-sym), so they never come back here.
 * A libddl failure returns an error code of this library's class through the communicator's error
 * handler (MPI_Comm_call_errhandler), its string saying what failed. */
#include "dmpi.h"

#include <stdio.h>

static int err_class = -1, err_codes[DDL_ERR_COUNT_];

/* The MPI error code of libddl's rc: one per DDL_ERR_*, made at the first failure, its string
 * replaced by each failure's message (MPI 3.1 §8.5 allows it); MPI_ERR_OTHER if MPI cannot add one. */
static int error_code(int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    if (rc <= 0 || rc >= DDL_ERR_COUNT_) rc = DDL_ERR_ARG;
    if (err_class < 0) {
        if (PMPI_Add_error_class(&err_class) != MPI_SUCCESS) return MPI_ERR_OTHER;
        for (int i = 1; i < DDL_ERR_COUNT_; i++)
            if (PMPI_Add_error_code(err_class, &err_codes[i]) != MPI_SUCCESS) err_codes[i] = MPI_ERR_OTHER;
    }
    snprintf(msg, sizeof msg, "libddl (ddl_mpi): %s: %s", ddl_strerror(rc), ddl_last_error());
    if (err_codes[rc] != MPI_ERR_OTHER) PMPI_Add_error_string(err_codes[rc], msg);
    return err_codes[rc];
}

static int result(MPI_Comm comm, int rc)
{
    if (!rc) return MPI_SUCCESS;
    const int code = error_code(rc);
    PMPI_Comm_call_errhandler(comm, code);
    return code;
}

/* The entry of comm when libddl takes this call (route.c), else NULL. */
static dmpi_entry *routed(MPI_Comm comm, dmpi_coll coll, int dtype, int op, size_t count, size_t unit)
{
    const dmpi_settings *s = dmpi_settings_get();
    int p = 1;
    if (!s->enabled || s->finalized || dtype < 0) return NULL;
    if (coll != DMPI_ALLREDUCE && PMPI_Comm_size(comm, &p) != MPI_SUCCESS) return NULL;
    dmpi_call c = { coll, dtype, op, (size_t)p * count * unit, s->threshold, s->algo_flags };
    return dmpi_route(&c, NULL) ? dmpi_entry_get(comm) : NULL;
}

DMPI_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    const int dt = dmpi_reduce_dtype(datatype);
    dmpi_entry *e = count > 0 ? routed(comm, DMPI_ALLREDUCE, dt, dmpi_op(op), (size_t)count,
                                       dt < 0 ? 0 : ddl_dtype_size((ddl_dtype)dt)) : NULL;
    if (!e) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    e->calls[DMPI_ALLREDUCE]++;
    return result(comm, ddl_allreduce(e->ctx, sendbuf, recvbuf, (size_t)count, (ddl_dtype)dt, (ddl_op)dmpi_op(op)));
}

DMPI_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm)
{
    const int dt = dmpi_reduce_dtype(datatype);
    dmpi_entry *e = recvcount > 0 ? routed(comm, DMPI_REDUCE_SCATTER, dt, dmpi_op(op), (size_t)recvcount,
                                           dt < 0 ? 0 : ddl_dtype_size((ddl_dtype)dt)) : NULL;
    if (!e) return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    e->calls[DMPI_REDUCE_SCATTER]++;
    return result(comm, ddl_reduce_scatter(e->ctx, sendbuf, recvbuf, (size_t)recvcount, (ddl_dtype)dt,
                                           (ddl_op)dmpi_op(op)));
}

/* A gather moves words: any 4- or 8-byte predefined type goes as 32-bit words (route.c). The send
 * side must be the receive side's type and count (or MPI_IN_PLACE); see docs/DESIGN.md for the
 * one case MPI allows that this cannot see. */
DMPI_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    size_t words = 0;
    const int dt = dmpi_move_dtype(recvtype, &words);
    const int same = sendbuf == MPI_IN_PLACE || (sendtype == recvtype && sendcount == recvcount);
    dmpi_entry *e = recvcount > 0 && same ? routed(comm, DMPI_ALLGATHER, dt, -1, (size_t)recvcount * words, 4) : NULL;
    if (!e) return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    e->calls[DMPI_ALLGATHER]++;
    return result(comm, ddl_allgather(e->ctx, sendbuf, recvbuf, (size_t)recvcount * words, (ddl_dtype)dt));
}

/* Every context goes before MPI does (cache.c); calls after this point go to MPI. */
DMPI_EXPORT int MPI_Finalize(void)
{
    dmpi_cache_finalize();
    dmpi_settings_finalizing();
    return PMPI_Finalize();
}
