/* test.h — the whole test framework: CHECK counts, TEST_REPORT prints "N passed, N failed".
 * MPI tests reduce their counts over ranks first (MPI_Allreduce of the two counters); only rank 0 prints. */
#ifndef TEST_H
#define TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            test_passed++;                                                 \
        } else {                                                           \
            test_failed++;                                                 \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

/* --net K:B of the MPI tests: ranks K apart count as on different nodes for the message sizes
 * (collectives/nodes.c's test hook) and messages to and from them are cut at B bytes, so that one
 * machine runs the steps whose sends and receives are cut differently. 0 or -1 (bad value). */
static inline int test_net_option(const char *kb)
{
    char k[16];
    const char *colon = strchr(kb, ':');
    if (!colon || colon == kb || (size_t)(colon - kb) >= sizeof k) return -1;
    memcpy(k, kb, (size_t)(colon - kb));
    k[colon - kb] = 0;
    return setenv("DDL_TEST_NODE_RANKS", k, 1) || setenv("DDL_NET_SEGMENT_BYTES", colon + 1, 1) ? -1 : 0;
}

#define TEST_REPORT() (printf("%d passed, %d failed\n", test_passed, test_failed), test_failed != 0)

#endif
