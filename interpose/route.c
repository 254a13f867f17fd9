/* route.c — the interposer's decision, a pure function of the call (route.h). libddl takes a call
 * when all of these hold, else MPI does, unchanged:
 *   - the datatype is predefined and one libddl reduces (float32, float64, int32) or, for a gather,
 *     any fixed-size predefined type of 4 or 8 bytes (moved as 32-bit words);
 *   - the op is MPI_SUM, MPI_MAX or MPI_MIN (predefined, commutative; user ops never);
 *   - the whole vector is at least the threshold (and not empty);
 *   - the algorithm has the collective (ddl_algo_flags: DDL_ALGO_RSAG for the halves).
 * A predefined datatype is contiguous, so the buffers are. Everything here is equal on every rank
 * of a correct MPI program (MPI requires the same count, datatype and op of a reduction on every
 * rank), so every rank decides alike without talking. */
#include "route.h"

#include <ddl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dmpi_reduce_dtype(MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL) return -1;
    if (type == MPI_FLOAT) return DDL_FLOAT32;
    if (type == MPI_DOUBLE) return DDL_FLOAT64;
    if (type == MPI_INT32_T || (type == MPI_INT && sizeof(int) == 4)) return DDL_INT32;
    return -1;
}

int dmpi_move_dtype(MPI_Datatype type, size_t *words)
{
    const MPI_Datatype four[] = { MPI_FLOAT, MPI_INT, MPI_UNSIGNED, MPI_INT32_T, MPI_UINT32_T };
    const MPI_Datatype eight[] = { MPI_DOUBLE, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_INT64_T,
                                   MPI_UINT64_T, MPI_LONG, MPI_UNSIGNED_LONG };
    const size_t fs[] = { sizeof(float), sizeof(int), sizeof(unsigned), 4, 4 };
    const size_t es[] = { sizeof(double), sizeof(long long), sizeof(unsigned long long), 8, 8,
                          sizeof(long), sizeof(unsigned long) };
    *words = 0;
    if (type == MPI_DATATYPE_NULL) return -1;
    for (size_t i = 0; i < sizeof four / sizeof *four; i++)
        if (type == four[i] && fs[i] == 4) return *words = 1, DDL_INT32;
    for (size_t i = 0; i < sizeof eight / sizeof *eight; i++)
        if (type == eight[i] && es[i] == 8) return *words = 2, DDL_INT32;
    return -1;
}

int dmpi_op(MPI_Op op)
{
    if (op == MPI_OP_NULL) return -1;
    if (op == MPI_SUM) return DDL_SUM;
    if (op == MPI_MAX) return DDL_MAX;
    if (op == MPI_MIN) return DDL_MIN;
    return -1;
}

int dmpi_route(const dmpi_call *c, const char **why)
{
    const char *no = NULL;
    if ((unsigned)c->coll >= DMPI_COLL_COUNT)
        no = "not an interposed collective";
    else if (c->dtype < 0 || c->dtype >= DDL_DTYPE_COUNT)
        no = "datatype libddl does not have (derived, user or other predefined)";
    else if (c->coll != DMPI_ALLGATHER && (c->op < 0 || c->op >= DDL_OP_COUNT))
        no = "op libddl does not have (user-defined or other predefined)";
    else if (c->bytes == 0)
        no = "empty";
    else if (c->bytes < c->threshold)
        no = "below the threshold";
    else if (c->coll != DMPI_ALLREDUCE && !(c->algo_flags & DDL_ALGO_RSAG))
        no = "algorithm without reduce-scatter and allgather";
    if (why) *why = no ? no : "libddl";
    return !no;
}

int dmpi_parse_size(const char *s, size_t *out)
{
    static const char *const units[] = { "", "K", "M", "G" };
    char *end = NULL;
    unsigned long long v;
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    for (int u = 0; u < 4; u++) {
        const size_t n = strlen(units[u]);
        if (strncmp(end, units[u], n)) continue;
        const char *rest = end + n;
        if (*rest && strcmp(rest, "B") && !(u && !strcmp(rest, "iB"))) continue;
        for (int k = 0; k < u; k++) {
            if (v > (1ULL << 50) / 1024) return -1;
            v *= 1024;
        }
        if (v > (1ULL << 50)) return -1;
        *out = (size_t)v;
        return 0;
    }
    return -1;
}
