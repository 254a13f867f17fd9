/* topology.c — ranks per node: detected with MPI_COMM_TYPE_SHARED and checked to be node-major and
 * equal on every node, or overridden (argument, else DDL_RANKS_PER_NODE) so that one machine can
 * emulate nodes of k ranks. Result 0 means "not node-major on equal nodes". Collective, agreeing on
 * local failures before each collective call (errors.c). */
#include "coll.h"

#include <errno.h>
#include <stdlib.h>

/* An integer environment variable in [min, max], decimal digits only (a leading - is read for the
 * message); *out = 0 when unset or empty. */
int coll_env_long(const char *name, long min, long max, long *out)
{
    const char *s = getenv(name);
    char *end;
    *out = 0;
    if (!s || !*s) return 0;
    errno = 0;
    long v = (*s == '-' || (*s >= '0' && *s <= '9')) ? strtol(s, &end, 10) : (end = (char *)s, 0);
    if (errno || end == s || *end || v < min || v > max)
        return coll_fail(DDL_ERR_ARG, "%s: expected an integer in %ld..%ld, got \"%.32s\"", name, min, max, s);
    *out = v;
    return 0;
}

/* Collective: split by shared memory, then agree (a local failure between the two collective calls
 * must not leave the peers in the second) and compare every rank's view. */
static int detect(MPI_Comm comm, int rank, int *rpn)
{
    MPI_Comm node;
    int k = 0, local = 0, mine[3], all[3], rc = 0;
    COLL_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    if (MPI_Comm_size(node, &k) || MPI_Comm_rank(node, &local))
        rc = coll_fail(DDL_ERR_MPI, "MPI_Comm_size on the node communicator failed");
    if (!rc) rc = coll_test_fail(comm, "topology", DDL_ERR_MPI);
    if ((rc = coll_agree(comm, rc))) goto out;
    /* node-major on equal nodes <=> every rank's local index is rank % k, with one k everywhere */
    mine[0] = rank % k == local ? 0 : 1;
    mine[1] = k;
    mine[2] = -k;
    if (MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, comm)) {
        rc = coll_fail(DDL_ERR_MPI, "MPI_Allreduce in topology detection failed");
        goto out;
    }
    *rpn = (all[0] == 0 && all[1] == -all[2]) ? k : 0;
out:
    MPI_Comm_free(&node);
    return rc;
}

/* Collective. The override (argument, else DDL_RANKS_PER_NODE) must be the same on every rank:
 * ranks that detect and ranks that do not would wait for each other. */
int coll_topology(MPI_Comm comm, int rank, int size, int override, int *rpn)
{
    long env = 0;
    int rc = 0;
    if (override < 0)
        rc = coll_fail(DDL_ERR_ARG, "ranks_per_node: expected >= 0, got %d", override);
    else if (!override && !(rc = coll_env_long("DDL_RANKS_PER_NODE", 1, 1 << 20, &env)))
        override = (int)env;
    if (!rc && override && size % override)
        rc = coll_fail(DDL_ERR_TOPO, "ranks per node %d does not divide the %d ranks", override, size);
    if ((rc = coll_agree(comm, rc)) ||
        (rc = coll_agree_same(comm, override, "ranks per node (ranks_per_node or DDL_RANKS_PER_NODE)")))
        return rc;
    if (override) {
        *rpn = override;
        return 0;
    }
    return detect(comm, rank, rpn);
}
