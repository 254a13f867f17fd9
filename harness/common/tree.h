/* tree.h — files of the source tree that ddlbench reads at run time (harness/sim/profiles,
 * harness/sim/platforms), found from any working directory. */
#ifndef HARN_TREE_H
#define HARN_TREE_H

#include <stddef.h>

/* rel (a path from the tree's root) when it exists from the working directory; else the same path in
 * the tree this executable was built in (build/ddlbench, build/sim/ddlbench-sim, build/cuda/ddlbench:
 * one or two folders below the root) when it exists there, written into buf; else rel. */
const char *tree_path(const char *rel, char *buf, size_t len);

#endif
