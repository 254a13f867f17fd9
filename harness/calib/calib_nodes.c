/* calib_nodes.c — where the ranks of `ddlbench calibrate --network` sit (calib_net.h): ranks per node
 * (DDL_RANKS_PER_NODE or MPI_COMM_TYPE_SHARED; between real nodes, libddl's network piece) and the
 * most ranks of the job on one machine; the measuring state's buffers. Collective over MPI_COMM_WORLD. */
#include "calib_net.h"
#include "compute.h"
#include "ddl.h"
#include "mem.h"
#include "parse.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ranks per node: DDL_RANKS_PER_NODE, else the MPI_COMM_TYPE_SHARED group (checked node-major and
 * equal). 0, or 2 with a message. */
int net_ranks_per_node(net_state *s, char *err, size_t errlen)
{
    const char *env = getenv("DDL_RANKS_PER_NODE");
    long k = 0;
    if (env && *env && (parse_int(env, 1, 1 << 20, &k) || s->size % k)) {
        snprintf(err, errlen, "DDL_RANKS_PER_NODE: expected a divisor of the %d ranks, got \"%.20s\"", s->size, env);
        return 2;
    }
    if (!k) {
        MPI_Comm node;
        int local, n, mine[3], all[3];
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &n);
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
        mine[0] = s->rank % n != local, mine[1] = n, mine[2] = -n;
        MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (all[0] || all[1] != -all[2]) {
            snprintf(err, errlen, "ranks are not node-major on nodes of equal size; expected e.g. --map-by core");
            return 2;
        }
        k = n;
        /* real nodes: libddl cuts its messages between them (nodes.c); under SMPI it sends one size
         * everywhere (context.c), and so does this */
        if (!kern_simulated() && s->size > n) {
            const char *e = getenv("DDL_NET_SEGMENT_BYTES");
            long b = DDL_NET_SEGMENT_DEFAULT;
            if (e && *e && parse_int(e, 64, 1 << 30, &b)) {
                snprintf(err, errlen, "DDL_NET_SEGMENT_BYTES: expected 64..%d, got \"%.20s\"", 1 << 30, e);
                return 2;
            }
            s->piece = (size_t)b & ~(size_t)7;
        }
    }
    s->rpn = (int)k, s->nodes = s->size / (int)k;
    if (s->rpn < 2 && s->nodes < 2) {
        snprintf(err, errlen, "expected at least 2 ranks");
        return 2;
    }
    return 0;
}

/* Ranks of this job on this rank's machine: those that share its kernel (the same boot_id, which network
 * namespaces and containers share: the emulated cluster's nodes are one machine), the most of any
 * machine; the ranks a node without /proc. Collective. */
int net_ranks_per_machine(const net_state *s)
{
    unsigned long long id = 1469598103934665603ULL, *all = malloc((size_t)s->size * sizeof *all);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    int c, most = s->rpn, none = !f || !all, anynone = 0;
    while (f && (c = fgetc(f)) != EOF) id = (id ^ (unsigned char)c) * 1099511628211ULL; /* FNV-1a */
    if (f) fclose(f);
    MPI_Allreduce(&none, &anynone, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* all gather, or none */
    if (!anynone) {
        MPI_Allgather(&id, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
        for (int i = 0; i < s->size; i++) {
            int k = 0;
            for (int j = 0; j < s->size; j++) k += all[j] == all[i];
            if (k > most) most = k;
        }
    }
    free(all);
    return most;
}

int net_state_open(net_state *s, const net_opts *o, const double *n, int count, char *err, size_t errlen)
{
    int rc, bad, anybad;
    memset(s, 0, sizeof *s);
    s->o = o, s->skew = -1;
    *err = '\0';
    MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s->size);
    if ((rc = net_ranks_per_node(s, err, errlen))) {
        if (s->rank != 0) *err = '\0';
        return rc;
    }
    s->here = net_ranks_per_machine(s);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->over = !kern_simulated() && cores > 0 && s->here > cores;
    size_t maxb = (size_t)n[count - 1];
    if (s->rpn >= 2 && maxb < NET_WS_MAX) maxb = NET_WS_MAX; /* the working-set sweep's largest vector */
    if (maxb < NET_SKEW_BYTES * NET_SKEW_REPS) maxb = NET_SKEW_BYTES * NET_SKEW_REPS; /* the skew's exchanges */
    s->sbuf = kern_buf_alloc(maxb), s->rbuf = kern_buf_alloc(maxb);
    s->t = malloc((size_t)o->iters * sizeof *s->t), s->tmax = malloc((size_t)o->iters * sizeof *s->tmax);
    bad = !s->sbuf || !s->rbuf || !s->t || !s->tmax;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        if (bad) snprintf(err, errlen, "rank %d: out of memory for 2 x %zu bytes", s->rank, maxb);
        return 1;
    }
    memset(s->sbuf, s->rank & 0x7f, maxb);
    return 0;
}

void net_state_close(net_state *s)
{
    kern_buf_free(s->sbuf);
    kern_buf_free(s->rbuf);
    free(s->t);
    free(s->tmax);
    s->sbuf = s->rbuf = NULL, s->t = s->tmax = NULL;
}
