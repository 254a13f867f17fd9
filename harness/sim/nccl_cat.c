/* nccl_cat.c — the parser of the nccl-tests catalogue (format in nccl_cat.h). */
#include "nccl_cat.h"
#include "kv.h"
#include "parse.h"
#include "textfile.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_NAME, K_MACHINE, K_NODES, K_NCCL, K_PALGO, K_ALGO, K_KIND, K_ROLE, K_SOURCE, K_POINT, NKEYS };
static const char *const key_names[NKEYS] = { "name", "machine", "nodes", "nccl", "published_algo", "algo", "kind",
                                              "role", "source", "point" };

/* A decimal number that is the whole of s (no hex, inf or nan). 0, or 2. */
static int decimal(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return !*s || *end || errno || !isfinite(*out) || parse_decimal_len(s) != strlen(s) ? 2 : 0;
}

static int word(const char *k, char *v, char *dst, size_t cap, const char *allowed, char *err, size_t errlen)
{
    char why[120];
    size_t n;
    if (kv_word(v, why, sizeof why)) return snprintf(err, errlen, "%s: %s", k, why), 2;
    n = strlen(v);
    if (!n || n >= cap || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/") != n)
        return snprintf(err, errlen, "%s: expected 1..%zu of [A-Za-z0-9._-/], got \"%.40s\"", k, cap - 1, v), 2;
    if (allowed) {
        char list[64];
        snprintf(list, sizeof list, " %s ", allowed);
        char pad[40];
        snprintf(pad, sizeof pad, " %.30s ", v);
        if (!strstr(list, pad)) return snprintf(err, errlen, "%s: expected one of %s, got \"%.40s\"", k, allowed, v), 2;
    }
    memcpy(dst, v, n + 1);
    return 0;
}

static int text(const char *k, const char *v, char *dst, size_t cap, char *err, size_t errlen)
{
    size_t n = strlen(v);
    if (!n || n >= cap) return snprintf(err, errlen, "%s: expected 1..%zu bytes of text, got %zu", k, cap - 1, n), 2;
    memcpy(dst, v, n + 1);
    return 0;
}

/* point = SIZE BUSBW: a whole size above the last one, a positive busbw. */
static int point(char *v, nccl_entry *e, char *err, size_t errlen)
{
    char *sz = strtok(v, " \t"), *bw = strtok(NULL, " \t"), *more = strtok(NULL, " \t");
    double b, g;
    if (!sz || !bw || (more && more[0] != '#'))
        return snprintf(err, errlen, "point: expected SIZE_B BUSBW_GBps (two numbers), got \"%.40s\"", v), 2;
    if (decimal(sz, &b) || !(b >= 1) || b != floor(b) || b > 1e15)
        return snprintf(err, errlen, "point: size: expected a whole number of bytes > 0, got \"%.40s\"", sz), 2;
    if (decimal(bw, &g) || !(g > 0))
        return snprintf(err, errlen, "point: busbw: expected a positive number of GB/s, got \"%.40s\"", bw), 2;
    if (e->npoints && b <= e->pt[e->npoints - 1].bytes)
        return snprintf(err, errlen, "point: sizes out of order (%.0f after %.0f): expected strictly increasing sizes",
                        b, e->pt[e->npoints - 1].bytes), 2;
    if (e->npoints == NCCL_CAT_MAX_POINTS)
        return snprintf(err, errlen, "point: more than %d points", NCCL_CAT_MAX_POINTS), 2;
    e->pt[e->npoints].bytes = b, e->pt[e->npoints].busbw = g, e->npoints++;
    return 0;
}

static int set_key(int k, char *v, nccl_entry *e, char *err, size_t errlen)
{
    const char *name = key_names[k];
    double d;
    char why[120];
    switch (k) {
    case K_NAME: return word(name, v, e->name, sizeof e->name, NULL, err, errlen);
    case K_MACHINE: return word(name, v, e->machine, sizeof e->machine, NULL, err, errlen);
    case K_ALGO: return word(name, v, e->algo, sizeof e->algo, NULL, err, errlen);
    case K_KIND: return word(name, v, e->kind, sizeof e->kind, "primary user", err, errlen);
    case K_ROLE: return word(name, v, e->role, sizeof e->role, "prediction input", err, errlen);
    case K_NCCL: return text(name, v, e->nccl, sizeof e->nccl, err, errlen);
    case K_PALGO: return text(name, v, e->published_algo, sizeof e->published_algo, err, errlen);
    case K_SOURCE: return text(name, v, e->source, sizeof e->source, err, errlen);
    case K_NODES:
        if (kv_word(v, why, sizeof why)) return snprintf(err, errlen, "nodes: %s", why), 2;
        if (decimal(v, &d) || d != floor(d) || d < 1 || d > 16384)
            return snprintf(err, errlen, "nodes: expected a whole number 1..16384, got \"%.40s\"", v), 2;
        e->nodes = (int)d;
        return 0;
    default: return point(v, e, err, errlen);
    }
}

int nccl_cat_parse(const char *txt, size_t len, const char *path, nccl_entry *e, char *err, size_t errlen)
{
    int seen[NKEYS] = { 0 }, got;
    char why[300], *key, *val;
    kv_reader r;
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    kv_start(&r, txt, len);
    while ((got = kv_next(&r, &key, &val, why, sizeof why)) == 1) {
        int k = 0;
        while (k < NKEYS && strcmp(key, key_names[k])) k++;
        if (k == NKEYS) {
            snprintf(why, sizeof why, "unknown key \"%.40s\" (the keys: harness/sim/nccl_cat.h)", key);
            got = 2;
            break;
        }
        if (k != K_POINT && seen[k]) {
            snprintf(why, sizeof why, "%s: given twice", key_names[k]);
            got = 2;
            break;
        }
        seen[k]++;
        if (k == K_MACHINE) e->machine_line = r.lineno;
        if (k == K_ALGO) e->algo_line = r.lineno;
        if (set_key(k, val, e, why, sizeof why)) {
            got = 2;
            break;
        }
    }
    if (got) return snprintf(err, errlen, "%s:%d: %s", path, r.lineno, why), 2;
    for (int k = 0; k < NKEYS; k++)
        if (!seen[k]) return snprintf(err, errlen, "%s: missing key \"%s\"", path, key_names[k]), 2;
    return 0;
}

int nccl_cat_load(const char *path, nccl_entry *e, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = textfile_read(path, &buf, &len, err, errlen);
    if (!rc) rc = nccl_cat_parse(buf, len, path, e, err, errlen);
    free(buf);
    return rc;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int nccl_cat_load_dir(const char *dir, nccl_entry **out, int *n, char *err, size_t errlen)
{
    char *names[NCCL_CAT_MAX_ENTRIES], path[4096];
    int k = 0, rc = 0;
    nccl_entry *e = NULL;
    DIR *d = opendir(dir);
    struct dirent *de;
    *out = NULL, *n = 0;
    if (!d) return snprintf(err, errlen, "%s: cannot open the catalogue folder: %s", dir, strerror(errno)), 2;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l <= 5 || strcmp(de->d_name + l - 5, ".nccl")) continue;
        if (k == NCCL_CAT_MAX_ENTRIES) {
            rc = 2, snprintf(err, errlen, "%s: more than %d *.nccl files", dir, NCCL_CAT_MAX_ENTRIES);
            break;
        }
        if (!(names[k] = strdup(de->d_name))) { rc = 1; break; }
        k++;
    }
    closedir(d);
    if (!rc && !k) rc = 2, snprintf(err, errlen, "%s: no *.nccl file (the catalogue: harness/sim/nccl)", dir);
    if (!rc && !(e = calloc((size_t)k, sizeof *e))) rc = 1;
    if (!rc) qsort(names, (size_t)k, sizeof names[0], by_name);
    for (int i = 0; !rc && i < k; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc = nccl_cat_load(path, &e[i], err, errlen);
        for (int j = 0; !rc && j < i; j++)
            if (!strcmp(e[i].name, e[j].name))
                rc = 2, snprintf(err, errlen, "%s: name \"%s\" given by %s too: expected unique names", path,
                                 e[i].name, names[j]);
    }
    for (int i = 0; i < k; i++) free(names[i]);
    if (rc) free(e), e = NULL, k = 0;
    *out = e, *n = k;
    return rc;
}

int nccl_cat_scored(const nccl_entry *e) { return strcmp(e->algo, "none") && !strcmp(e->role, "prediction"); }
