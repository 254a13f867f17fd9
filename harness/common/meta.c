/* meta.c — the `# key: value` provenance lines of every CSV (see meta.h). The commit comes from the
 * build (-DDDL_COMMIT="abc1234", set by the Makefile), so nothing runs git at run time. */
#include "meta.h"

#include "gemm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DDL_COMMIT
#define DDL_COMMIT "unknown"
#endif

void meta_clean(const char *src, char *out, size_t len)
{
    size_t n = 0;
    if (!len) return;
    while (*src == ' ' || *src == '\t') src++;
    for (; *src && n + 1 < len; src++) out[n++] = (unsigned char)*src < 0x20 || *src == 0x7f ? ' ' : *src;
    while (n > 0 && out[n - 1] == ' ') n--;
    out[n] = '\0';
}

/* Appends s to out (length *n of len); returns 0, or -1 when it did not fit (out then ends "..."). */
static int append(char *out, size_t len, size_t *n, const char *s)
{
    size_t k = strlen(s);
    if (*n + k + 1 <= len) {
        memcpy(out + *n, s, k + 1);
        *n += k;
        return 0;
    }
    if (len >= 4) strcpy(out + (len - 4 > *n ? *n : len - 4), "...");
    *n = len;
    return -1;
}

void meta_join_command(int argc, char **argv, char *out, size_t len)
{
    size_t n = 0;
    char q[1024];
    if (!len) return;
    out[0] = '\0';
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *c = a; *c; c++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c)) plain = 0;
        if (plain) snprintf(q, sizeof q, "%s", a);
        else { /* 'it'\''s' */
            size_t k = 0;
            q[k++] = '\'';
            for (const char *c = a; *c && k + 6 < sizeof q; c++) {
                if (*c == '\'') { memcpy(q + k, "'\\''", 4); k += 4; }
                else q[k++] = (unsigned char)*c < 0x20 ? ' ' : *c;
            }
            q[k++] = '\'';
            q[k] = '\0';
        }
        if ((i && append(out, len, &n, " ")) || append(out, len, &n, q)) return;
    }
}

void meta_hosts_list(const char *names, int n, size_t stride, char *out, size_t len)
{
    char list[4096] = "";
    size_t used = 0;
    int distinct = 0, full = 0;
    for (int i = 0; i < n; i++) {
        const char *s = names + (size_t)i * stride;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(s, names + (size_t)j * stride);
        if (seen) continue;
        distinct++;
        if (!full && ((distinct > 1 && append(list, sizeof list, &used, ",")) || append(list, sizeof list, &used, s)))
            full = 1;
    }
    snprintf(out, len, "%d host%s: %s", distinct, distinct == 1 ? "" : "s", list);
    if (strlen(out) + 1 == len && len >= 4) strcpy(out + len - 4, "...");
}

void meta_placement(const char *names, int n, size_t stride, char *out, size_t len)
{
    int hosts = 0, lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        const char *s = names + (size_t)i * stride;
        int seen = 0, k = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(s, names + (size_t)j * stride);
        if (seen) continue;
        for (int j = i; j < n; j++) k += !strcmp(s, names + (size_t)j * stride);
        lo = hosts ? (k < lo ? k : lo) : k, hi = k > hi ? k : hi, hosts++;
    }
    if (lo == hi) snprintf(out, len, "%d host%s x %d rank%s", hosts, hosts == 1 ? "" : "s", hi, hi == 1 ? "" : "s");
    else snprintf(out, len, "%d hosts x %d-%d ranks", hosts, lo, hi);
}

static void cpu_model(char *out, size_t len)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(out, len, "cpu (model unknown)");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            char clean[240];
            meta_clean(strchr(line, ':') + 1, clean, sizeof clean);
            snprintf(out, len, "cpu: %s", clean);
            break;
        }
    fclose(f);
}

void meta_local(int argc, char **argv, const char *device, run_meta *m)
{
    memset(m, 0, sizeof *m);
    meta_clean(DDL_COMMIT, m->commit, sizeof m->commit);
    meta_clean(kern_gemm_backend(), m->blas, sizeof m->blas);
    if (device) meta_clean(device, m->device, sizeof m->device);
    else cpu_model(m->device, sizeof m->device);
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(m->date, sizeof m->date, "unknown");
    char cmd[1000];
    meta_join_command(argc, argv, cmd, sizeof cmd);
    snprintf(m->command, sizeof m->command, "ddlbench %s", cmd);
}

int meta_collect(MPI_Comm comm, int argc, char **argv, const char *device, run_meta *m)
{
    char ver[MPI_MAX_LIBRARY_VERSION_STRING] = "", name[MPI_MAX_PROCESSOR_NAME] = "", *all = NULL;
    int vlen = 0, nlen = 0, rank = 0, size = 1, rc = 0;
    meta_local(argc, argv, device, m);
    MPI_Get_library_version(ver, &vlen);
    ver[strcspn(ver, "\n")] = '\0';
    meta_clean(ver, m->mpi, sizeof m->mpi);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Get_processor_name(name, &nlen);
    const char *cluster = getenv("DDL_CLUSTER"); /* set by harness/scripts/emucluster.sh run */
    if (cluster && *cluster) meta_add(m, "cluster", cluster);
    if (rank == 0 && !(all = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME))) rc = 1;
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    if (rc || MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm)) {
        snprintf(m->hosts, sizeof m->hosts, "unknown");
        rc = 1;
    } else if (rank == 0) {
        char where[64];
        meta_hosts_list(all, size, MPI_MAX_PROCESSOR_NAME, m->hosts, sizeof m->hosts);
        meta_placement(all, size, MPI_MAX_PROCESSOR_NAME, where, sizeof where);
        meta_add(m, "placement", where);
    }
    free(all);
    return rc;
}

void meta_add(run_meta *m, const char *key, const char *value)
{
    char v[256], line[300];
    size_t n = strlen(m->extra);
    meta_clean(value, v, sizeof v);
    int k = snprintf(line, sizeof line, "# %s: %s\n", key, v);
    if (k > 0 && n + (size_t)k < sizeof m->extra) memcpy(m->extra + n, line, (size_t)k + 1);
}

void meta_write(FILE *f, const run_meta *m)
{
    fprintf(f, "# commit: %s\n# mpi: %s\n# blas: %s\n# device: %s\n# hosts: %s\n# date: %s\n# command: %s\n%s",
            m->commit, m->mpi, m->blas, m->device, m->hosts, m->date, m->command, m->extra);
}

const char *meta_commit(void) { return DDL_COMMIT; }
