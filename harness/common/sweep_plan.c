/* sweep_plan.c — the sweep's launches in starting order and their cost (see sweep_plan.h). The
 * weights are the integer arithmetic sweep.sh did, so the order and estimates did not move. */
#include "sweep_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sweep_counts(long nodes, long gpn, long *counts, int max)
{
    int k = 0;
    counts[k++] = 1;
    for (long n = 1;;) {
        if (n * gpn > 1 && k < max) counts[k++] = n * gpn;
        if (n >= nodes) break;
        n *= 2;
        if (n > nodes) n = nodes;
    }
    return k;
}

static int has_algo(const char *algos, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = algos; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, k) && (p[k] == ',' || !p[k])) return 1;
    return 0;
}

int sweep_ring_modelled(const sweep_params *p, long g)
{
    return !strcmp(p->backend, "sim") && p->n_ring_max > 0 && g > p->n_ring_max && has_algo(p->algos, "ring");
}

/* --steps N and --warmup N of --train-args (10 and 2 when absent or not plain digits). */
static void steps(const char *train_args, long long *steps, long long *warm)
{
    char buf[4096], *save = NULL, *prev = NULL, *s = "10", *w = "2";
    snprintf(buf, sizeof buf, "%s", train_args);
    for (char *a = strtok_r(buf, " \t\n", &save); a; prev = a, a = strtok_r(NULL, " \t\n", &save)) {
        if (prev && !strcmp(prev, "--steps")) s = a;
        if (prev && !strcmp(prev, "--warmup")) w = a;
    }
    int digits =
        s[strspn(s, "0123456789")] == '\0' && w[strspn(w, "0123456789")] == '\0' && strlen(s) < 10 && strlen(w) < 10;
    *steps = digits ? atoll(s) : 10;
    *warm = digits ? atoll(w) : 2;
}

long long sweep_weight(const sweep_params *p, int nbuckets, long g)
{
    long long nalg = 0, nq = 0, st, wu;
    for (const char *a = p->algos; a; a = strchr(a, ',') ? strchr(a, ',') + 1 : NULL) {
        size_t k = strcspn(a, ",");
        nalg += k > 0;
        nq += (k == 3 && !strncmp(a, "mpi", 3)) || (k == 4 && !strncmp(a, "ring", 4));
    }
    if (!strcmp(p->backend, "model")) return nalg * (g / 1024 + 1); /* no launch: perf_cost's O(g) loops */
    if (sweep_ring_modelled(p, g)) nalg--, nq--;                      /* the ring from the model: no launch */
    steps(p->train_args, &st, &wu);
    long long mp = (nbuckets > 0 ? nbuckets : 5) * 20;
    return (st + wu) * mp * (nalg * (g + 4) + nq * g * g / 64) / 100;
}

static int by_start(const void *a, const void *b) /* sort -k1,1n -k2,2nr, then the whole line */
{
    const sweep_launch *x = a, *y = b;
    if (x->first != y->first) return x->first - y->first;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    char lx[200], ly[200];
    snprintf(lx, sizeof lx, "%d %lld %s %s %ld", x->first, x->weight, x->model, x->batch, x->gpus);
    snprintf(ly, sizeof ly, "%d %lld %s %s %ld", y->first, y->weight, y->model, y->batch, y->gpus);
    return strcmp(lx, ly);
}

int sweep_plan(const sweep_params *p, const int *nbuckets, sweep_launch *out, int max, int *n)
{
    long counts[SWEEP_MAX_COUNTS];
    int nc = sweep_counts(p->n_nodes, p->n_gpn, counts, SWEEP_MAX_COUNTS), i = 0;
    char buf[4096], *save = NULL;
    snprintf(buf, sizeof buf, "%s", p->models);
    *n = 0;
    for (char *mb = strtok_r(buf, ",", &save); mb; mb = strtok_r(NULL, ",", &save), i++) {
        char *colon = strchr(mb, ':');
        if (!colon) continue;
        *colon = '\0';
        for (int c = 0; c < nc; c++) {
            if (*n == max) return 2;
            sweep_launch *l = &out[(*n)++];
            *l = (sweep_launch){ counts[c] != 1, sweep_weight(p, nbuckets[i], counts[c]), "", "", counts[c] };
            snprintf(l->model, sizeof l->model, "%s", mb);
            if (p->n_global) /* strong scaling: this point's share (gbatch.h) */
                snprintf(l->batch, sizeof l->batch, "%ld", p->n_global / (counts[c] > 0 ? counts[c] : 1));
            else snprintf(l->batch, sizeof l->batch, "%s", colon + 1);
        }
    }
    qsort(out, (size_t)*n, sizeof *out, by_start);
    return 0;
}

void sweep_human(long long s, char *buf, size_t len)
{
    if (s < 120) snprintf(buf, len, "%lld s", s);
    else if (s < 7200) snprintf(buf, len, "%lld min", (s + 30) / 60);
    else snprintf(buf, len, "%lld.%lld h", s / 3600, s % 3600 / 360);
}
