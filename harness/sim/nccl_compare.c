/* nccl_compare.c — predictions of the published nccl-tests points (nccl_compare.h): setup, the model,
 * the simulated CSVs, the error and the goals. */
#include "nccl_compare.h"
#include "ddl.h"
#include "csv.h"
#include "perf_cost.h"
#include "profile.h"
#include "sim.h"
#include "textfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ncmp_setup(const nccl_entry *e, double min_bytes, ncmp_run *r, char *err, size_t errlen)
{
    char why[400];
    memset(r, 0, sizeof *r);
    r->e = e;
    r->algo = strcmp(e->algo, "none") ? e->algo : "nccl-ring";
    if (platform_init(&r->pf, e->machine, e->nodes, 0, why, sizeof why))
        return snprintf(err, errlen, "%s:%d: machine %s at nodes %d: %s", e->path, e->machine_line, e->machine,
                        e->nodes, why), 2;
    const int a = ddl_algo_find(r->algo);
    if (a < 0 || !(ddl_algo_flags(a) & DDL_ALGO_COST))
        return snprintf(err, errlen, "%s:%d: algo: expected none or a registered algorithm with a cost model "
                        "(ddlbench list), got \"%.31s\"", e->path, e->algo_line, r->algo), 2;
    const char *b = strrchr(e->machine, '/') ? strrchr(e->machine, '/') + 1 : e->machine;
    snprintf(r->key, sizeof r->key, "%.*s-%dn-%s", (int)strcspn(b, "."), b, e->nodes, r->algo);
    while (r->first < e->npoints && e->pt[r->first].bytes < min_bytes) r->first++;
    if (r->first == e->npoints)
        return snprintf(err, errlen, "%s: no point of at least --min-bytes %.0f (its largest: %.0f)", e->name,
                        min_bytes, e->pt[e->npoints - 1].bytes), 2;
    return 0;
}

void ncmp_plan_line(const ncmp_run *r, FILE *f)
{
    fprintf(f, "%s %s %d %d %s %.0f %.0f\n", r->key, r->e->machine, r->pf.nodes, r->pf.gpus_per_node, r->algo,
            r->e->pt[r->first].bytes, r->e->pt[r->e->npoints - 1].bytes);
}

static double busbw(double bytes, double seconds, int p)
{
    return seconds > 0 ? bytes / seconds / 1e9 * 2.0 * (p - 1) / (p > 1 ? p : 1) : 0;
}

int ncmp_from_model(ncmp_run *r, char *err, size_t errlen)
{
    profile pr;
    char why[400];
    const char *prof = r->pf.profile[0] ? r->pf.profile : "p100";
    if (profile_load(prof, &pr, why, sizeof why))
        return snprintf(err, errlen, "%s: profile %s: %s", r->e->name, prof, why), 2;
    for (int k = r->first; k < r->e->npoints; k++) {
        const double b = r->e->pt[k].bytes;
        cost_opts o = { NULL, NULL, 0 };
        double t;
        o.gamma = kern_sim_reduce_interp(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns, pr.reduce_ns_per_byte,
                                         (size_t)b) * 1e-9;
        if (perf_cost(&r->pf, r->algo, b, &o, &t, why, sizeof why))
            return snprintf(err, errlen, "%s: algo %s: %s", r->e->name, r->algo, why), 2;
        r->pred[k] = busbw(b, t, platform_ranks(&r->pf)), r->from[k] = 'm';
    }
    return 0;
}

int ncmp_from_sim(ncmp_run *r, const char *dir, char *err, size_t errlen)
{
    char path[4200], why[400], *buf = NULL;
    size_t len = 0;
    csv_doc d;
    int rc = ncmp_from_model(r, err, errlen), col[5], p = platform_ranks(&r->pf);
    static const char *const names[5] = { "size_B", "algo", "placement", "time_us_median", "ranks" };
    FILE *probe;
    memset(&d, 0, sizeof d);
    snprintf(path, sizeof path, "%s/%s.csv", dir, r->key);
    if (rc || !(probe = fopen(path, "r"))) return rc; /* nothing simulated for this key: the model's */
    fclose(probe);
    rc = textfile_read(path, &buf, &len, why, sizeof why);
    if (!rc) rc = csv_read(buf, len, 0, &d, why, sizeof why);
    if (rc) {
        snprintf(err, errlen, "--sim: %s%s%s", rc == 2 && !strstr(why, path) ? path : "",
                 rc == 2 && !strstr(why, path) ? ": " : "", why);
        goto out;
    }
    for (int c = 0; c < 5; c++)
        if ((col[c] = csv_col(&d, names[c])) < 0) {
            rc = 2, snprintf(err, errlen, "--sim: %s: no column %s (expected ddlbench allreduce --csv)", path,
                             names[c]);
            goto out;
        }
    for (int i = 0; i < d.nrows; i++) {
        char *end;
        double b = strtod(csv_cell(&d, i, col[0]), NULL), t = strtod(csv_cell(&d, i, col[3]), &end);
        int k = r->first;
        if (strcmp(csv_cell(&d, i, col[1]), r->algo) || strcmp(csv_cell(&d, i, col[2]), "in")) continue;
        while (k < r->e->npoints && r->e->pt[k].bytes != b) k++;
        if (k == r->e->npoints) continue;
        if (*end || !(t > 0) || !isfinite(t) || atoi(csv_cell(&d, i, col[4])) != p) {
            rc = 2, snprintf(err, errlen, "--sim: %s:%ld: expected a positive time_us_median and ranks %d (%s on %d "
                             "nodes)", path, d.lines[i], p, r->e->machine, r->pf.nodes);
            goto out;
        }
        r->pred[k] = busbw(b, t * 1e-6, p), r->from[k] = 's';
    }
out:
    csv_free(&d);
    free(buf);
    return rc ? 2 : 0;
}

double ncmp_err(double pred, double pub) { return pred / pub - 1; }

double ncmp_tol(double bytes)
{
    return bytes >= NCMP_GOAL_64M ? NCMP_TOL_64M : bytes >= NCMP_GOAL_1M ? NCMP_TOL_1M : 0;
}

void ncmp_tally(const ncmp_run *r, int n, int goal[2], int met[2])
{
    goal[0] = goal[1] = met[0] = met[1] = 0;
    for (int i = 0; i < n; i++)
        for (int k = r[i].first; nccl_cat_scored(r[i].e) && k < r[i].e->npoints; k++) {
            const double b = r[i].e->pt[k].bytes, e = fabs(ncmp_err(r[i].pred[k], r[i].e->pt[k].busbw));
            if (b >= NCMP_GOAL_1M) goal[0]++, met[0] += e <= NCMP_TOL_1M;
            if (b >= NCMP_GOAL_64M) goal[1]++, met[1] += e <= NCMP_TOL_64M;
        }
}
