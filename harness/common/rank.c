/* rank.c — the launcher's rank before MPI_Init (rank.h). */
#include "rank.h"

#include "parse.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int held = -1; /* the real stderr while held, else -1 */

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

int rank_launched(void)
{
    static int launched = -1; /* read once, before MPI_Init: Open MPI's singleton sets OMPI_* itself */
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK",
                                        "SLURM_STEP_ID", "MPI_LOCALNRANKS" };
    for (unsigned i = 0; launched < 0 && i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i])) launched = 1;
    if (launched < 0) launched = 0;
    return launched;
}

void rank_hold_stderr(void)
{
    (void)rank_launched(); /* main.c calls this first thing: before any MPI_Init */
    if (held >= 0 || launcher_rank() == 0) return;
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) return;
    fflush(stderr);
    held = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (held >= 0) dup2(null, 2);
    close(null);
}

void rank_release_stderr(void)
{
    if (held < 0) return;
    fflush(stderr);
    dup2(held, 2);
    close(held);
    held = -1;
}
