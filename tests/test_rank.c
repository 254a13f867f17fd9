/* test_rank.c — launcher_rank: the launcher's variables in their order, junk ignored, 0 alone. */
#include "rank.h"
#include "test.h"

#include <stdlib.h>

int main(void)
{
    unsetenv("OMPI_COMM_WORLD_RANK"), unsetenv("PMIX_RANK"), unsetenv("PMI_RANK");
    CHECK(launcher_rank() == 0, "started alone: 0");
    setenv("PMI_RANK", "5", 1);
    CHECK(launcher_rank() == 5, "hydra's PMI_RANK");
    setenv("PMIX_RANK", "3", 1);
    CHECK(launcher_rank() == 3, "PMIx before PMI");
    setenv("OMPI_COMM_WORLD_RANK", "x", 1);
    CHECK(launcher_rank() == 3, "a rank that is not a number is skipped");
    setenv("OMPI_COMM_WORLD_RANK", "1", 1);
    CHECK(launcher_rank() == 1, "Open MPI's first");
    setenv("OMPI_COMM_WORLD_RANK", "-1", 1), unsetenv("PMIX_RANK"), unsetenv("PMI_RANK");
    CHECK(launcher_rank() == 0, "a negative rank is no rank");
    return TEST_REPORT();
}
