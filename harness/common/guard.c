/* guard.c — resource checks before a run (output paths: outfile.c), and the DDL_FAULT_INJECT hook (see guard.h). */
#include "guard.h"
#include "model.h"
#include "step_full.h"
#include "parse.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct {
    int on;
    long rank, step;
    int sig;
    int slow;       /* slow:RANK:MS: sleep ms milliseconds instead of raising a signal */
    long ms;
} fault;

int guard_fault_init(char *err, size_t errlen)
{
    const char *s = getenv("DDL_FAULT_INJECT");
    char buf[64];
    const char *items[3];
    int n;
    fault.on = fault.slow = 0;
    if (!s) return 0;
    if (!strncmp(s, "slow:", 5)) {
        if (parse_list(s + 5, ':', buf, sizeof buf, items, 3, &n) || n != 2 ||
            parse_int(items[0], 0, 1L << 30, &fault.rank) || parse_int(items[1], 1, 3600000, &fault.ms)) {
            snprintf(err, errlen, "DDL_FAULT_INJECT: expected slow:RANK:MS (MS 1..3600000), got \"%.64s\"", s);
            return 2;
        }
        fault.slow = 1;
        return 0;
    }
    if (parse_list(s, ':', buf, sizeof buf, items, 3, &n) || n < 2 || parse_int(items[0], 0, 1L << 30, &fault.rank) ||
        parse_int(items[1], 0, 1L << 40, &fault.step) ||
        (n == 3 && strcmp(items[2], "kill") && strcmp(items[2], "stop"))) {
        snprintf(err, errlen, "DDL_FAULT_INJECT: expected RANK:STEP[:kill|stop] or slow:RANK:MS, got \"%.64s\"", s);
        return 2;
    }
    fault.sig = n == 3 && !strcmp(items[2], "stop") ? SIGSTOP : SIGKILL;
    fault.on = 1;
    return 0;
}

void guard_fault_point(int rank, long step)
{
    if (!fault.on || rank != fault.rank || step != fault.step) return;
    fprintf(stderr, "fault injection: rank %d step %ld: raising %s\n", rank, step,
            fault.sig == SIGSTOP ? "SIGSTOP" : "SIGKILL");
    fflush(stderr);
    raise(fault.sig);
}

void guard_slow_point(int rank)
{
    if (!fault.slow || rank != fault.rank) return;
    struct timespec ts = { fault.ms / 1000, (fault.ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) continue;
}

static size_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    if (kb) return kb > SIZE_MAX / 1024 ? SIZE_MAX : (size_t)kb * 1024;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

size_t guard_mem_per_rank(void)
{
    static const char *vars[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS" };
    long local = 1;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *s = getenv(vars[i]);
        if (s && !parse_int(s, 1, 1L << 20, &local)) break;
    }
    return mem_available() / (size_t)local;
}

int guard_mem_check(double bytes, const char *what, const char *expected, char *err, size_t errlen)
{
    size_t have = guard_mem_per_rank();
    if (!have || bytes <= (double)have) return 0;
    snprintf(err, errlen, "%s needs %.3g GB per rank but %.3g GB are available per rank; expected %s", what,
             bytes / 1e9, (double)have / 1e9, expected);
    return 2;
}

double guard_model_bytes(const model *m, int full)
{
    double params = 0, kn = 1, mn = 1;
    for (int i = 0; i < model_tensor_count(m); i++) params += (double)model_tensor_at(m, i)->numel;
    if (full) /* trainer.c: params, grads, velocity; step_full.c: its one activation allocation */
        return 4.0 * 3 * params + step_full_bytes(m, KERN_STORE_F32);
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_gemm *g = &model_layer_at(m, l)->gemm[MODEL_FWD];
        kn = (double)g->k * g->n > kn ? (double)g->k * g->n : kn;
        mn = (double)g->m * g->n > mn ? (double)g->m * g->n : mn;
    }
    return 4.0 * (2 * params + 2 * kn + mn); /* as trainer.c allocates: params, grads, X, dX, Y */
}
