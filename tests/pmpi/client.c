/* client.c — a plain MPI program, no libddl in it: tests/pmpi.sh runs it under build/libddl_mpi.so
 * (LD_PRELOAD), with Open MPI and with MPICH. Data depend on rank and index and sum exactly (small
 * integers), so every result is checked exactly whoever computed it: libddl (vectors of 64 KiB and
 * more, float, double, int, SUM/MAX/MIN) or MPI (small vectors, long, a user op, a derived type, an
 * intercommunicator).
 *   --errors    also a libddl failure (NULL buffers on a routed call): it must come back as an MPI
 *               error code through the communicator's error handler (only where libddl routes)
 *   --multiple  MPI_Init_thread(MPI_THREAD_MULTIPLE): the library must pass everything to MPI
 * Rank 0 prints "N passed, N failed" (failures summed over ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 40000 /* 160 KB of float: above the default 64 KiB threshold */

static int failed, passed;
static int handler_calls;

static void check(int cond, const char *what, int rank)
{
    if (cond) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL rank %d: %s\n", rank, what);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) ((float *)inout)[i] += ((float *)in)[i];
}

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
    handler_calls++;
}

/* Allreduce: float SUM (in and out of place, large and small), double MAX, int MIN, long SUM, user op. */
static void allreduces(MPI_Comm comm, const char *name)
{
    int r, p, bad = 0;
    char what[128];
    MPI_Op mine;
    float *f = malloc(N * sizeof *f), *g = malloc(N * sizeof *g);
    double *d = malloc(N * sizeof *d);
    int *k = malloc(N * sizeof *k);
    long *l = malloc(N * sizeof *l);
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    for (int n = N; n >= 10; n = n == N ? 10 : 0) {
        for (int i = 0; i < n; i++) f[i] = (float)((r + 1) * (i % 7 + 1));
        MPI_Allreduce(f, g, n, MPI_FLOAT, MPI_SUM, comm);
        MPI_Allreduce(MPI_IN_PLACE, f, n, MPI_FLOAT, MPI_SUM, comm);
        bad = 0;
        for (int i = 0; i < n; i++) bad |= g[i] != (float)((i % 7 + 1) * p * (p + 1) / 2) || f[i] != g[i];
        snprintf(what, sizeof what, "%s: float SUM of %d", name, n);
        check(!bad, what, r);
    }
    for (int i = 0; i < N; i++) d[i] = r * (i % 5), k[i] = (r + 1) * (i % 3 + 1), l[i] = r + i;
    MPI_Allreduce(MPI_IN_PLACE, d, N, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, k, N, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, l, N, MPI_LONG, MPI_SUM, comm);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad |= d[i] != (p - 1) * (i % 5) || k[i] != i % 3 + 1 || l[i] != (long)p * i + (long)p * (p - 1) / 2;
    snprintf(what, sizeof what, "%s: double MAX, int MIN, long SUM", name);
    check(!bad, what, r);
    MPI_Op_create(user_sum, 1, &mine);
    for (int i = 0; i < N; i++) f[i] = (float)(r + i % 11);
    MPI_Allreduce(f, g, N, MPI_FLOAT, mine, comm);
    MPI_Op_free(&mine);
    bad = 0;
    for (int i = 0; i < N; i++) bad |= g[i] != (float)(p * (i % 11) + p * (p - 1) / 2);
    snprintf(what, sizeof what, "%s: float user op", name);
    check(!bad, what, r);
    free(f), free(g), free(d), free(k), free(l);
}

/* The halves: reduce-scatter (float SUM, out of and in place) and allgather (int, double; in place). */
static void halves(MPI_Comm comm, const char *name)
{
    int r, p, bad = 0;
    char what[128];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    const int m = N;
    float *s = malloc((size_t)p * m * sizeof *s), *o = malloc(m * sizeof *o);
    int *a = malloc((size_t)p * m * sizeof *a);
    double *b = malloc((size_t)p * m * sizeof *b), *mine = malloc(m * sizeof *mine);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < p * m; i++) s[i] = (float)((r + 1) * (i % 13));
        if (pass) MPI_Reduce_scatter_block(MPI_IN_PLACE, s, m, MPI_FLOAT, MPI_SUM, comm);
        else MPI_Reduce_scatter_block(s, o, m, MPI_FLOAT, MPI_SUM, comm);
        bad = 0;
        for (int i = 0; i < m; i++) bad |= (pass ? s : o)[i] != (float)((r * m + i) % 13 * p * (p + 1) / 2);
        snprintf(what, sizeof what, "%s: reduce_scatter_block float SUM %s", name, pass ? "in place" : "out of place");
        check(!bad, what, r);
    }
    for (int i = 0; i < m; i++) a[(size_t)r * m + i] = r * 1000 + i % 100, mine[i] = r + 0.5 * (i % 9);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, m, MPI_INT, comm);
    MPI_Allgather(mine, m, MPI_DOUBLE, b, m, MPI_DOUBLE, comm);
    bad = 0;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < m; i++)
            bad |= a[(size_t)q * m + i] != q * 1000 + i % 100 || b[(size_t)q * m + i] != q + 0.5 * (i % 9);
    snprintf(what, sizeof what, "%s: allgather int in place, double", name);
    check(!bad, what, r);
    free(s), free(o), free(a), free(b), free(mine);
}

/* What MPI keeps: an intercommunicator (each group gets the other group's sum), a derived type. */
static void passthrough(MPI_Comm split)
{
    int r, p, bad = 0;
    MPI_Comm inter;
    MPI_Datatype one;
    float *f = malloc(N * sizeof *f), *g = malloc(N * sizeof *g);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Intercomm_create(split, 0, MPI_COMM_WORLD, r % 2 ? 0 : 1, 7, &inter);
    MPI_Comm_set_name(inter, "inter");
    for (int i = 0; i < N; i++) f[i] = (float)((r + 1) * (i % 7 + 1));
    MPI_Allreduce(f, g, N, MPI_FLOAT, MPI_SUM, inter);
    int other = 0; /* the other group's sum of (q + 1) over its world ranks q */
    for (int q = 0; q < p; q++) other += q % 2 != r % 2 ? q + 1 : 0;
    for (int i = 0; i < N; i++) bad |= g[i] != (float)(other * (i % 7 + 1));
    check(!bad, "intercommunicator: float SUM", r);
    MPI_Comm_free(&inter);
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_commit(&one);
    int *a = malloc((size_t)p * N * sizeof *a), *mine = malloc(N * sizeof *mine);
    for (int i = 0; i < N; i++) mine[i] = r * 1000 + i % 97;
    MPI_Allgather(mine, N, one, a, N, one, MPI_COMM_WORLD);
    bad = 0;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < N; i++) bad |= a[(size_t)q * N + i] != q * 1000 + i % 97;
    check(!bad, "derived type: allgather", r);
    MPI_Type_free(&one);
    free(f), free(g), free(a), free(mine);
}

/* A libddl failure: an MPI error code through comm's handler, its string naming libddl. */
static void errors(MPI_Comm world)
{
    MPI_Comm dup;
    MPI_Errhandler eh;
    char msg[MPI_MAX_ERROR_STRING] = "";
    int r, len = 0, rc;
    MPI_Comm_rank(world, &r);
    MPI_Comm_dup(world, &dup);
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(dup, eh);
    rc = MPI_Allreduce(NULL, NULL, N, MPI_FLOAT, MPI_SUM, dup);
    if (rc != MPI_SUCCESS) MPI_Error_string(rc, msg, &len);
    check(rc != MPI_SUCCESS && handler_calls == 1 && strstr(msg, "libddl"), "errors: a libddl failure", r);
    if (r == 0) printf("# error string: %s\n", msg);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    int r, provided, want = MPI_THREAD_SINGLE, err = 0, sums[2];
    MPI_Comm split, dup;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--errors")) err = 1;
        else if (!strcmp(argv[i], "--multiple")) want = MPI_THREAD_MULTIPLE;
        else return fprintf(stderr, "pmpi_client: unknown argument \"%s\"\n", argv[i]), 2;
    }
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &split);
    MPI_Comm_set_name(split, r % 2 ? "split1" : "split0");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_name(dup, "dup");
    allreduces(MPI_COMM_WORLD, "world");
    allreduces(split, "split");
    halves(MPI_COMM_WORLD, "world");
    halves(dup, "dup");
    if (err) errors(MPI_COMM_WORLD);
    passthrough(split);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    int mine[2] = { passed, failed };
    MPI_Reduce(mine, sums, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0) printf("%d passed, %d failed\n", sums[0], sums[1]);
    MPI_Finalize();
    return sums[1] != 0 && r == 0;
}
