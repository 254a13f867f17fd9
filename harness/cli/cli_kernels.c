/* cli_kernels.c — `ddlbench kernels`: the float32 sum reduction kernel (kern_reduce) against a plain
 * streaming add c[i] = a[i] + b[i] written here and against memcpy, on one process, no MPI.
 * Each is run reps times per size on buffers made once; the median is reported as GB/s of memory
 * traffic (add: 3 streams of n floats, memcpy: 2) and the kernel as a fraction of the plain add. */
#include "bench.h"
#include "cli.h"
#include "guard.h"
#include "mem.h"
#include "opts.h"
#include "parse.h"
#include "reduce.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define KB_MAX_SIZES 16

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The reference: what a programmer writes without thinking about kernels. */
__attribute__((noinline)) static void stream_add(float *restrict c, const float *restrict a,
                                                 const float *restrict b, size_t n)
{
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

enum { K_KERN, K_KERN_ACC, K_ADD, K_COPY, K_COUNT };

static void run(int which, float *c, float *a, float *b, size_t n)
{
    switch (which) {
    case K_KERN: kern_reduce(KERN_F32, KERN_SUM, c, a, b, n); break;
    case K_KERN_ACC: kern_reduce(KERN_F32, KERN_SUM, c, c, b, n); break; /* in place, as in-place steps do */
    case K_ADD: stream_add(c, a, b, n); break;
    default: memcpy(c, a, n * sizeof *c); break;
    }
}

/* Median seconds per call of each kind over reps rounds (after one warm-up round). The kinds take
 * turns within a round so that noise from other processes hits them alike; each turn repeats the call
 * enough times (inner) to last about a millisecond or more. t holds K_COUNT * reps doubles. */
static void time_medians(float *c, float *a, float *b, size_t n, long reps, double *t, double *sec)
{
    long inner = (long)(((size_t)1 << 22) / (n + 1)) + 1;
    for (long r = 0; r <= reps; r++)
        for (int k = 0; k < K_COUNT; k++) {
            double t0 = now();
            for (long i = 0; i < inner; i++) run(k, c, a, b, n);
            if (r) t[k * reps + r - 1] = (now() - t0) / (double)inner;
        }
    for (int k = 0; k < K_COUNT; k++) {
        bench_stats st;
        bench_summarise(t + k * reps, (size_t)reps, &st);
        sec[k] = st.median;
    }
}

typedef struct kernels_opts {
    const char *sizes; /* -s: comma list, checked by main */
    long reps;         /* -r */
} kernels_opts;

static const opt_row rows[] = {
    { .name = "--sizes", .alias = "-s", .type = OPT_STRING, .unit = "SIZES", .off = offsetof(kernels_opts, sizes),
      .help = "comma list of bytes per buffer, K/M/G suffixes, multiples of 4 (default 256K,64M)" },
    { .name = "--reps", .alias = "-r", .type = OPT_LONG, .min = 1, .max = 1000, .off = offsetof(kernels_opts, reps),
      .help = "runs per measurement (default 11)" },
};

static void usage(void)
{
    const opts_set sets[] = { OPTS_SET(rows, NULL) };
    printf("usage: ddlbench kernels [-s SIZES] [-r N]   (one process; no mpirun needed)\n"
           "Float32 sum: kern_reduce (out-of-place c=a+b, and in-place c+=b) vs a plain loop\n"
           "c[i]=a[i]+b[i] vs memcpy, median of N runs, per buffer size.\n");
    opts_usage(stdout, sets, 1);
    printf("GB/s count memory traffic: 3 buffers for the adds, 2 for memcpy. kern/add is the ratio of\n"
           "the kernel's GB/s to the plain loop's (target >= 0.90).\n");
}

static int bench_size(size_t bytes, long reps, double *t)
{
    size_t n = bytes / sizeof(float);
    float *a = kern_buf_alloc(n * sizeof *a), *b = kern_buf_alloc(n * sizeof *b), *c = kern_buf_alloc(n * sizeof *c);
    double sec[K_COUNT];
    int rc = 0;
    if (!a || !b || !c) {
        fprintf(stderr, "kernels: cannot allocate three buffers of %zu bytes\n", bytes);
        rc = 1;
        goto out;
    }
    for (size_t i = 0; i < n; i++) a[i] = (float)(i % 13), b[i] = 1.0f, c[i] = 0.0f;
    time_medians(c, a, b, n, reps, t, sec);
    double gb = (double)(n * sizeof(float)) / 1e9;
    printf("  %12zu %9.2f %9.2f %9.2f %9.2f %8.3f %8.3f\n", n * sizeof(float), 3 * gb / sec[K_KERN],
           3 * gb / sec[K_KERN_ACC], 3 * gb / sec[K_ADD], 2 * gb / sec[K_COPY], sec[K_ADD] / sec[K_KERN],
           sec[K_ADD] / sec[K_KERN_ACC]);
out:
    kern_buf_free(a);
    kern_buf_free(b);
    kern_buf_free(c);
    return rc;
}

int cli_kernels_main(int argc, char **argv)
{
    const char *sizes[KB_MAX_SIZES], *slist = "256K,64M";
    char buf[256];
    long reps = 11;
    int ns = 0, rc = 0;
    double t[K_COUNT * 1000];
    kernels_opts ko = { slist, reps };
    const opts_set sets[] = { OPTS_SET(rows, &ko) };
    opts_parser p = { sets, 1, NULL, 0, 0, { 0 } };
    char msg[300];
    rc = opts_parse(&p, argc, argv, msg, sizeof msg);
    if (rc == OPTS_HELP) usage();
    if (rc == OPTS_BAD) fprintf(stderr, "kernels: %s\n", msg);
    if (rc) return rc == OPTS_HELP ? 0 : 2;
    slist = ko.sizes, reps = ko.reps;
    if (parse_list(slist, ',', buf, sizeof buf, sizes, KB_MAX_SIZES, &ns)) {
        fprintf(stderr, "kernels: -s: expected a comma list of at most %d sizes, got \"%s\"\n", KB_MAX_SIZES, slist);
        return 2;
    }
    size_t bytes[KB_MAX_SIZES];
    for (int k = 0; k < ns; k++) {
        if (parse_size(sizes[k], sizeof(float), (size_t)1 << 34, &bytes[k]) || bytes[k] % sizeof(float)) {
            fprintf(stderr, "kernels: -s: expected sizes 4..16G in whole float32 elements (multiples of 4 bytes) "
                            "like 256K, got \"%s\"\n", sizes[k]);
            return 2;
        }
        char err[300];
        if (guard_mem_check(3.0 * (double)bytes[k], "-s (three buffers)", "a smaller size", err, sizeof err)) {
            fprintf(stderr, "kernels: %s: %s\n", sizes[k], err);
            return 2;
        }
    }
    printf("# ddlbench kernels: float32 sum, median of %ld runs; GB/s of memory traffic\n", reps);
    printf("# %12s %9s %9s %9s %9s %8s %8s\n", "bytes/buf", "kern", "kern_acc", "add", "memcpy", "kern/add",
           "acc/add");
    for (int k = 0; k < ns && !rc; k++) rc = bench_size(bytes[k], reps, t);
    return rc;
}
