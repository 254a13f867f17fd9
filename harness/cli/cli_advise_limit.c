/* cli_advise_limit.c — `ddlbench advise --limit PCT` (cli_advise.h, limit.h): for each algorithm with a
 * cost model, the largest GPU count keeping PCT% per-GPU efficiency against one node, as is and with
 * the NICs' bandwidth or the step time halved or doubled. */
#include "cli_advise.h"
#include "ddl.h"
#include "limit.h"
#include "wire.h"

#include <stdio.h>

static void cell(const limit_out *r)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s%d (%.1f%%)", r->beyond && r->gpus == r->tried ? ">=" : "", r->gpus, r->eff);
    printf(" %16s", buf);
}

int advise_limit(const advise_opts *o, const platform *pf, const profile *pr)
{
    char err[400];
    limit_in in = { o->model, o->image, o->batch, o->global_batch, o->preset, pf->gpus_per_node, pf->nodes, pr,
                    wire_bytes(o->grad_dtype), (size_t)25 << 20, o->limit };
    printf("# ddlbench advise --limit %g: %s, %s%ld%s, image %ld, gradients %s, on %s (%d GPUs a node, 1 to %d nodes), "
           "profile %s, 25 MiB buckets (alpha-beta-gamma model)\n", o->limit, o->model,
           o->global_batch ? "global batch " : "batch ", o->global_batch ? o->global_batch : o->batch,
           o->global_batch ? " (strong scaling)" : " per GPU (weak scaling)", o->image, wire_name(o->grad_dtype),
           o->preset, pf->gpus_per_node, pf->nodes, o->profile);
    printf("# the largest GPU count keeping >= %g%% per-GPU efficiency against 1 node (its efficiency); >=N: still\n"
           "# above at the largest count tried. Cases: as is, the NICs' bandwidth x0.5 and x2, the step's compute\n"
           "# time x0.5 and x2 (the profile's GEMM, memory and SGD rates x2 and x0.5)\n#      algo", o->limit);
    for (int c = 0; c < LIMIT_CASES; c++) printf(" %16s", limit_case_name(c));
    printf("\n");
    for (int a = 0; a < ddl_algo_count(); a++) {
        if (!(ddl_algo_flags(a) & DDL_ALGO_COST)) continue;
        limit_out r[LIMIT_CASES];
        for (int c = 0; c < LIMIT_CASES; c++) {
            int rc = limit_largest(&in, ddl_algo_name(a), c, &r[c], err, sizeof err);
            if (rc) return fprintf(stderr, "ddlbench advise: --limit: %s: %s\n", ddl_algo_name(a), err), rc;
        }
        printf("%11s", ddl_algo_name(a));
        for (int c = 0; c < LIMIT_CASES; c++) cell(&r[c]);
        printf("\n");
    }
    return 0;
}
