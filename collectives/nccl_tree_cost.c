/* nccl_tree_cost.c — the alpha-beta-gamma cost of the nccl_tree row (allreduce_nccl_tree.c), on a
 * ddl_machine (ddl.h), from the same layout (dtree.h) the run uses.
 *
 * A pipeline: each of the F flows moves its n/F bytes in k segments of s (coll_ntree_segment, with the
 * segment the context would get from these links), each segment over H hops (up the chain, up the
 * deeper tree, and back down). Once the pipeline is full, every edge of every flow carries one segment
 * per round in each direction it is used, all at once, so a round lasts as long as the most loaded
 * link takes for its segments:
 *   τ = s · max( messages out of / into a rank / intra_bw,    (its link to the node's switch, which its
 *                                                             messages to other nodes cross too)
 *                messages on a rail NIC, up or down / (nic_bw / nics),
 *                messages on a leaf's uplink, up or down / (its nodes' rail NICs / oversub) ),
 * and at least (α + s/bw) / NT_DEPTH on each hop (the segments in flight must cover its latency),
 * and at least γ·s per input a rank reduces each round (its chain's next rank and, at a head, its
 * tree children: the reductions overlap the messages in flight). On two-socket nodes the messages
 * between the halves also count on the socket link (socket_bw), and with direct links (nvlinks) on
 * their pair's links (count x nvlink_bw) or its path through the host (host_bw).
 * The first segment crosses the H hops alone (α + s/bw each, reduced on the way up); the k segments
 * then pass the busiest link one round each, plus the drain's last round, plus r rounds per tree hop
 * (2·depth) once more than one segment is in flight (a segment crossing a rail then waits behind the
 * other flows' on it): r = 1.5, or 0.75 at depth 1 (2 nodes: a root and a leaf, no node forwarding
 * between a parent and children across the network):
 *   T = 2(g − 1)·(α_intra + s/intra_bw) + 2·depth·(α_inter + s/rail_bw) + (g − 1 + depth)·γ·s
 *       + (k + r·min(k − 1, 2·depth))·τ,
 * α_inter being spine_lat when some tree edge crosses the spine, α_intra socket_lat or host_lat when
 * a chain crosses the sockets or a pair without a direct link. The last two terms were chosen against
 * SimGrid runs of this row on dgxh100 (1, 2 and 4 nodes, 1 MiB to 1 GiB) and minsky (2 nodes;
 * docs/BENCHMARKS.md), not derived: without them the model was 8-20% fast at 8 MiB and at 4 nodes.
 * tests/sim_model.sh holds the model against SimGrid. */
#include "coll.h"
#include "dtree.h"

#include <math.h>
#include <stdlib.h>

#define NT_DEPTH 4 /* allreduce_nccl_tree.c's segments in flight per stream */

typedef struct nt_loads {
    int *out, *in;         /* messages per rank and round */
    int *nic_up, *nic_dn;  /* per rail NIC (node x nics) */
    int *leaf_up, *leaf_dn;/* per leaf switch's uplink (<= NICs) */
    int *sock;             /* two sockets: per node and half, messages to the other half */
    int *pair;             /* direct links (nvlinks): per node and directed pair of local ranks */
    int inter, spine;      /* some message crosses nodes, the spine */
    int slow_hop;          /* some message inside a node crosses the sockets or goes through the host */
} nt_loads;

static int nics_of(const ddl_machine *m) { return m->nics > 1 ? m->nics : 1; }
static int nic_of(const ddl_machine *m, int r)
{
    const int g = m->ranks_per_node;
    return (r / g) * nics_of(m) + (r % g) / (g / nics_of(m));
}
static int leaf_of(const ddl_machine *m, int r)
{
    const int node = r / m->ranks_per_node, rail = nic_of(m, r) % nics_of(m);
    return m->rail_leaves ? (node / m->leaf_nodes) * nics_of(m) + rail : node / m->leaf_nodes;
}

static void count(const ddl_machine *m, nt_loads *ld, int a, int b)
{
    const int g = m->ranks_per_node, la = a % g, lb = b % g, node = a / g;
    ld->out[a]++, ld->in[b]++;
    if (node == b / g) {
        if (m->nvlinks) {
            ld->pair[(size_t)node * g * g + (size_t)la * g + lb]++;
            ld->slow_hop |= !m->nvlinks[la * g + lb];
        } else if (m->sockets == 2 && la / (g / 2) != lb / (g / 2)) {
            ld->sock[2 * node + la / (g / 2)]++;
            ld->slow_hop = 1;
        }
        return;
    }
    ld->inter = 1;
    ld->nic_up[nic_of(m, a)]++, ld->nic_dn[nic_of(m, b)]++;
    if (m->leaf_nodes > 0 && leaf_of(m, a) != leaf_of(m, b))
        ld->spine = 1, ld->leaf_up[leaf_of(m, a)]++, ld->leaf_dn[leaf_of(m, b)]++;
}

static int most(const int *v, int n)
{
    int x = 0;
    for (int i = 0; i < n; i++) x = v[i] > x ? v[i] : x;
    return x;
}

/* The largest pair load over its direct link (count x nvlink_bw) or its path through the host. */
static double pair_time(const ddl_machine *m, const int *pair, double s)
{
    const int g = m->ranks_per_node, nodes = m->ranks / g;
    double t = 0;
    for (size_t i = 0; i < (size_t)nodes * g * g; i++) {
        const int k = m->nvlinks[i % ((size_t)g * g)];
        if (pair[i]) t = fmax(t, s * pair[i] / (k ? k * m->nvlink_bw : m->host_bw));
    }
    return t;
}

/* Seconds per round for segments of s bytes; *reduced: the most inputs any rank reduces per round;
 * *spine: a tree edge crosses the spine, whose latency (spine_lat) is set; *alpha_in: the latency of
 * the slowest hop inside a node (across the sockets, or through the host). 0 or DDL_ERR_NOMEM. */
static int round_time(const ddl_machine *m, double s, double *tau, int *reduced, int *spine, double *alpha_in)
{
    const int p = m->ranks, g = m->ranks_per_node, nn = p / g * nics_of(m), flows = coll_ntree_flows(g);
    const double rail = m->nic_bw / nics_of(m), oversub = m->oversub > 1 ? m->oversub : 1;
    const double up_bw = m->leaf_nodes * (m->rail_leaves ? rail : m->nic_bw) / oversub;
    const size_t pairs = m->nvlinks ? (size_t)p * g : 0;
    int *all = calloc((size_t)3 * p + 4 * (size_t)nn + 2 * (size_t)(p / g) + pairs, sizeof *all), *red;
    nt_loads ld = { 0 };
    if (!all) return coll_fail(DDL_ERR_NOMEM, "cost model: out of memory");
    ld.out = all, ld.in = all + p, red = all + 2 * p, ld.nic_up = all + 3 * p, ld.nic_dn = ld.nic_up + nn;
    ld.leaf_up = ld.nic_dn + nn, ld.leaf_dn = ld.leaf_up + nn, ld.sock = ld.leaf_dn + nn;
    ld.pair = ld.sock + 2 * (p / g);
    for (int f = 0; f < flows; f++)
        for (int r = 0; r < p; r++) {
            coll_ntree_role ro;
            coll_ntree_role_of(p, g, f, r, &ro);
            if (ro.up >= 0) count(m, &ld, r, ro.up);
            for (int j = 0; j < ro.nout; j++) count(m, &ld, r, ro.out[j]);
            red[r] += ro.nin;
        }
    double t = s * fmax(most(ld.out, p), most(ld.in, p)) / m->intra_bw;
    t = fmax(t, s * fmax(most(ld.nic_up, nn), most(ld.nic_dn, nn)) / rail);
    if (ld.spine) t = fmax(t, s * fmax(most(ld.leaf_up, nn), most(ld.leaf_dn, nn)) / up_bw);
    if (m->sockets == 2) t = fmax(t, s * most(ld.sock, 2 * (p / g)) / m->socket_bw);
    if (m->nvlinks) t = fmax(t, pair_time(m, ld.pair, s));
    *alpha_in = m->intra_lat;
    if (ld.slow_hop) *alpha_in = fmax(m->intra_lat, m->nvlinks ? m->host_lat : m->socket_lat);
    if (g > 1) t = fmax(t, (m->intra_lat + s / m->intra_bw) / NT_DEPTH);
    if (ld.inter) t = fmax(t, ((ld.spine && m->spine_lat > 0 ? m->spine_lat : m->inter_lat) +
                               s / fmin(m->intra_bw, rail)) / NT_DEPTH);
    *reduced = most(red, p);
    *tau = fmax(t, m->gamma * *reduced * s); /* a rank's reductions, overlapping its messages in flight */
    *spine = ld.spine && m->spine_lat > 0;
    free(all);
    return 0;
}

int coll_nccl_tree_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    const int g = m->ranks_per_node, nodes = m->ranks / g, flows = coll_ntree_flows(g);
    const int depth = fmax(coll_dtree_depth(nodes, 0), coll_dtree_depth(nodes, 1)), hops = coll_ntree_hops(g, nodes);
    const double b = bytes / flows;
    size_t slot = coll_link_segment(m, COLL_DEFAULT_SEGMENT);
    double s, tau = 0, k, alpha_in = m->intra_lat;
    int reduced = 0, spine = 0, rc;
    (void)sh;
    *seconds = 0;
    if (m->ranks == 1 || bytes <= 0) return 0;
    slot = (slot < COLL_NTREE_SEG_MAX ? slot : COLL_NTREE_SEG_MAX) & ~(size_t)7;
    s = (double)coll_ntree_segment(b, hops, slot);
    if (s > b) s = b;
    k = ceil(b / s);
    if ((rc = round_time(m, s, &tau, &reduced, &spine, &alpha_in))) return rc;
    /* the first segment's hops, unloaded (reduced at each), then every segment through the busiest link */
    *seconds = 2.0 * (g - 1) * (alpha_in + s / m->intra_bw) +
               2.0 * depth * ((spine ? m->spine_lat : m->inter_lat) + s / fmin(m->intra_bw, m->nic_bw / nics_of(m))) +
               (g - 1 + depth) * m->gamma * s + (k + (depth > 1 ? 1.5 : 0.75) * fmin(k - 1, 2.0 * depth)) * tau;
    return 0;
}
