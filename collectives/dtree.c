/* dtree.c — the double binary tree's two trees (dtree.h). A tree over the range [lo, hi) of node
 * indices: its root is pick(lo, hi), its subtrees the ranges [lo, root) and [root + 1, hi). A range of
 * one node is a leaf; a longer one roots at a node of the interior parity, and its neighbours, which
 * are all that a subtree of one node can hold, have the leaf parity. So the leaves of tree t are
 * exactly the nodes of parity `leaf`, and every node of the other parity has a child.
 *
 *   n = 6   tree 0 (leaves odd)          tree 1 (leaves even)
 *                 2                             3
 *               /   \                         /   \
 *              0     4                       1     5
 *               \   / \                     / \   /
 *                1 3   5                   0   2 4          */
#include "dtree.h"

static int leaf_parity(int tree) { return tree ? 0 : 1; }

/* The root of [lo, hi): the node of the interior parity nearest its middle (the middle, else the
 * node just below it, which a range of two or more always holds). */
static int pick(int lo, int hi, int leaf)
{
    const int mid = lo + (hi - lo) / 2;
    if (hi - lo == 1) return lo;
    return (mid & 1) != leaf ? mid : mid - 1;
}

void coll_dtree(int n, int tree, int node, int *parent, int child[2])
{
    const int leaf = leaf_parity(tree);
    int lo = 0, hi = n, up = -1;
    *parent = child[0] = child[1] = -1;
    if (n < 1 || node < 0 || node >= n) return;
    for (;;) {
        const int r = pick(lo, hi, leaf);
        if (r == node) {
            *parent = up;
            if (r > lo) child[0] = pick(lo, r, leaf);
            if (r + 1 < hi) child[1] = pick(r + 1, hi, leaf);
            return;
        }
        up = r;
        if (node < r) hi = r;
        else lo = r + 1;
    }
}

int coll_dtree_root(int n, int tree) { return n < 1 ? -1 : pick(0, n, leaf_parity(tree)); }

static int depth_of(int lo, int hi, int leaf)
{
    if (hi - lo <= 1) return 0;
    const int r = pick(lo, hi, leaf), a = depth_of(lo, r, leaf), b = depth_of(r + 1, hi, leaf);
    return 1 + (a > b ? a : b);
}

int coll_dtree_depth(int n, int tree) { return n < 1 ? 0 : depth_of(0, n, leaf_parity(tree)); }

int coll_ntree_flows(int g)
{
    return 2 * (g < 1 ? 1 : g > COLL_NTREE_MAX_FLOWS / 2 ? COLL_NTREE_MAX_FLOWS / 2 : g);
}

void coll_ntree_role_of(int p, int g, int f, int rank, coll_ntree_role *role)
{
    const int node = rank / g, head = f / 2 % g, pos = (rank % g - head + g) % g, base = node * g;
    int parent, child[2];
    role->nin = role->nout = 0;
    role->up = pos > 0 ? base + (head + pos - 1) % g : -1;
    if (pos + 1 < g) role->in[role->nin++] = role->out[role->nout++] = base + (head + pos + 1) % g;
    if (pos > 0) return;
    coll_dtree(p / g, f % 2, node, &parent, child);
    if (parent >= 0) role->up = parent * g + head;
    for (int c = 0; c < 2; c++)
        if (child[c] >= 0) role->in[role->nin++] = role->out[role->nout++] = child[c] * g + head;
}

int coll_ntree_hops(int g, int nodes)
{
    const int a = coll_dtree_depth(nodes, 0), b = coll_dtree_depth(nodes, 1);
    return 2 * (g - 1 + (a > b ? a : b));
}

size_t coll_ntree_segment(double flow_bytes, int hops, size_t slot_bytes)
{
    double s = flow_bytes / (2.0 * (hops > 0 ? hops : 1));
    if (s < COLL_NTREE_SEG_MIN) s = COLL_NTREE_SEG_MIN;
    if (s > (double)slot_bytes) s = (double)slot_bytes;
    size_t b = (size_t)s & ~(size_t)7;
    return b < 8 ? 8 : b;
}
