/* dtree.h — the two complementary binary trees of NCCL's double binary tree (Sanders, Speck & Träff
 * 2009; NCCL 2.4), over n nodes 0..n-1: pure index arithmetic (dtree.c, tests/test_dtree.c).
 *
 * Both trees keep the nodes in order (an in-order binary tree over the node indices, as NCCL's
 * trees.cc ncclGetBtree). Tree 0's leaves are the odd nodes, tree 1's the even ones, so for n >= 2
 * every node is interior (a forwarder) in exactly one tree and a leaf in the other, and each tree
 * carrying half the data leaves every node sending and receiving about as much as a ring would.
 * NCCL gets tree 1 by mirroring tree 0 (n even) or shifting it by one (n odd, where node 0 is then
 * interior in both); here tree 1 is built the same way as tree 0 with the other parity, which gives
 * the complementary property for every n. Each range of nodes picks as its root the node of the
 * interior parity nearest its middle; the nodes left and right of it form the two subtrees. Depth
 * (edges from the root to the deepest leaf): at most ceil(lg n) + 1. */
#ifndef COLL_DTREE_H
#define COLL_DTREE_H

#include <stddef.h>

/* Node `node`'s place in tree `tree` (0 or 1) over n >= 1 nodes: its parent and its (up to two)
 * children, -1 where there is none (the root has no parent; child[0] is the left one). */
void coll_dtree(int n, int tree, int node, int *parent, int child[2]);
int coll_dtree_root(int n, int tree);
/* Edges from the root to the deepest leaf of tree `tree` (0 for n = 1). */
int coll_dtree_depth(int n, int tree);

/* The nccl_tree row's layout (allreduce_nccl_tree.c, its cost in nccl_tree_cost.c): p ranks on nodes
 * of g (node-major; g = 1 when there is no node structure). The vector is cut into `flows` pieces
 * (coll_ntree_flows: 2 x min(g, 16)), two per channel: flow f runs over tree f % 2 with, on every
 * node, local rank f / 2 (mod g) as its head, the node's end of the tree, and a chain through the
 * node's other ranks in local order from the head (head, head+1, .., wrapping). So the channels of a
 * node leave it through different ranks: with a NIC per GPU (rails), each channel's two trees use its
 * own rail, where the node is interior in one and a leaf in the other, and every rail carries alike. */
#define COLL_NTREE_MAX_FLOWS 32
typedef struct coll_ntree_role {
    int nin, in[3];   /* reduce inputs, in reduction order: the chain's next rank, the children's heads */
    int up;           /* where partial sums go and whence the result comes: the chain's previous rank, or
                         the parent node's head; -1: the root's head, which owns the result */
    int nout, out[3]; /* where the result goes: the chain's next rank, the children's heads */
} coll_ntree_role;
int coll_ntree_flows(int g);
void coll_ntree_role_of(int p, int g, int f, int rank, coll_ntree_role *role);
/* Hops of the longest path a segment takes: up the chain and the deeper tree, and back down. */
int coll_ntree_hops(int g, int nodes);
/* The segment (bytes, a multiple of 8) of a flow of flow_bytes: about flow_bytes / (2 hops), so the
 * pipeline's fill (one segment over the hops, against 2·hops segments through the busiest link, which
 * carries several at once) is a small part of the time, at least 64 KiB (per-message costs), at most
 * slot_bytes (the landing slots: the context's segment, at most 1 MiB). */
#define COLL_NTREE_SEG_MIN (64u << 10)
#define COLL_NTREE_SEG_MAX (1u << 20)
size_t coll_ntree_segment(double flow_bytes, int hops, size_t slot_bytes);

#endif
