/* rank.c — the launcher's rank before MPI_Init (rank.h). */
#include "rank.h"

#include "parse.h"

#include <stdlib.h>

int launcher_rank(void)
{
    static const char *vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK" };
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *s = getenv(vars[i]);
        long r;
        if (s && !parse_int(s, 0, 1L << 30, &r)) return (int)r;
    }
    return 0;
}
