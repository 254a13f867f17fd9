/* test_dtree.c — the double binary tree's two trees (collectives/dtree.c) for n = 1..64 nodes: each
 * tree holds every node exactly once (one root, every other node reached from it by following
 * children, no node twice), parent and child links agree both ways, every node is interior in at most
 * one tree (exactly one for n >= 2: the two trees are complementary), the depth is at most
 * ceil(lg n) + 1 and equals the longest walk up the parent links, and the two roots differ. */
#include "dtree.h"
#include "partition.h"
#include "test.h"

#define NMAX 64

/* Walks tree t from its root by the child links: each node seen once, the parent links the inverse. */
static int walk(int n, int t, int node, int up, int *seen, int *deepest, int depth)
{
    int parent, child[2], ok = 1;
    if (node < 0 || node >= n || seen[node]++) return 0;
    coll_dtree(n, t, node, &parent, child);
    ok &= parent == up;
    if (depth > *deepest) *deepest = depth;
    for (int c = 0; c < 2; c++)
        if (child[c] >= 0) ok &= walk(n, t, child[c], node, seen, deepest, depth + 1);
    return ok;
}

static void test_tree(int n, int t)
{
    int seen[NMAX] = { 0 }, deepest = 0, roots = 0, up_depth = 0, ok;
    for (int v = 0; v < n; v++) {
        int parent, child[2], d = 0;
        coll_dtree(n, t, v, &parent, child);
        roots += parent < 0;
        for (int u = v; d <= n; d++) { /* up to the root: never a cycle */
            int pu, cu[2];
            coll_dtree(n, t, u, &pu, cu);
            if (pu < 0) break;
            u = pu;
        }
        up_depth = d > up_depth ? d : up_depth;
    }
    ok = walk(n, t, coll_dtree_root(n, t), -1, seen, &deepest, 0);
    for (int v = 0; v < n; v++) ok &= seen[v] == 1;
    CHECK(ok && roots == 1, "n=%d tree %d: every node once from the root, links consistent (%d roots)", n, t, roots);
    CHECK(deepest == coll_dtree_depth(n, t) && up_depth == deepest && deepest <= coll_log2(n) + 1,
          "n=%d tree %d: depth %d (walk up %d, reported %d), at most %d", n, t, deepest, up_depth,
          coll_dtree_depth(n, t), coll_log2(n) + 1);
}

/* Interior in at most one tree; for n >= 2 in exactly one, and the roots differ. */
static void test_complement(int n)
{
    int twice = 0, never = 0;
    for (int v = 0; v < n; v++) {
        int interior = 0;
        for (int t = 0; t < 2; t++) {
            int parent, child[2];
            coll_dtree(n, t, v, &parent, child);
            interior += child[0] >= 0 || child[1] >= 0;
        }
        twice += interior == 2;
        never += interior == 0;
    }
    CHECK(twice == 0 && (n == 1 || never == 0), "n=%d: %d nodes interior in both trees, %d in neither", n, twice,
          never);
    CHECK(n == 1 || coll_dtree_root(n, 0) != coll_dtree_root(n, 1), "n=%d: the roots differ", n);
}

int main(void)
{
    int parent, child[2];
    for (int n = 1; n <= NMAX; n++) {
        test_tree(n, 0);
        test_tree(n, 1);
        test_complement(n);
    }
    coll_dtree(1, 0, 0, &parent, child);
    CHECK(parent == -1 && child[0] == -1 && child[1] == -1, "one node: a lone root");
    coll_dtree(6, 0, 2, &parent, child); /* dtree.c's picture */
    CHECK(parent == -1 && child[0] == 0 && child[1] == 4, "n=6 tree 0: root 2 over 0 and 4");
    coll_dtree(6, 1, 5, &parent, child);
    CHECK(parent == 3 && child[0] == 4 && child[1] == -1, "n=6 tree 1: 5 under 3 over 4");
    coll_dtree(6, 0, 6, &parent, child);
    CHECK(parent == -1 && child[0] == -1 && child[1] == -1, "a node out of range has no links");
    return TEST_REPORT();
}
