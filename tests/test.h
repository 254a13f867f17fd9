/* test.h — the whole test framework: CHECK counts, TEST_REPORT prints "N passed, N failed".
 * MPI tests reduce their counts over ranks first (MPI_Allreduce of the two counters); only rank 0 prints. */
#ifndef TEST_H
#define TEST_H

#include <stdio.h>

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

#define TEST_REPORT() (printf("%d passed, %d failed\n", test_passed, test_failed), test_failed != 0)

#endif
