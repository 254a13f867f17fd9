/* devmem_fake.c — a CPU stand-in for kernels/devmem_cuda.cu that checks the device path's stream and
 * event ordering on a machine without a GPU (tests/fake/run.sh links it into test_cuda).
 * Every asynchronous operation is queued on its stream and runs only when something forces it — a
 * stream sync, or an event sync reaching its mark — the latest moment CUDA allows, so a missing wait
 * (MPI sending a staging slot before its copy, a slot reused before the copy that reads it, a step
 * sending what the previous one has not finished reducing) gives wrong sums. With FAKE_PROTECT=1
 * device memory is PROT_NONE except while a queued operation runs, so host code touching it (memcpy,
 * MPI given a device pointer) faults. Not thread-safe: one thread per process uses it. */
#define _GNU_SOURCE
#include "devmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { OP_COPY, OP_SET, OP_REDUCE, OP_MARK };

typedef struct op {
    int kind;
    void *dst;
    const void *a, *b;
    size_t n;            /* bytes (copy, set) or elements (reduce) */
    int byte;
    kern_dtype dt;
    kern_op rop;
    long seq;            /* position in its stream */
} op;

struct kern_stream { op *q; size_t len, cap, head; long seq; };
struct kern_event { kern_stream *s; long seq; };   /* the mark it waits for; s NULL: never recorded */

typedef struct region { void *p; size_t len; } region;

#define PAGE ((uintptr_t)4096)
#define MAX_REGIONS 4096

static struct kern_stream legacy; /* the NULL stream */
static region regions[MAX_REGIONS];
static int nregions, protect = -1;

static int protecting(void)
{
    if (protect < 0) protect = getenv("FAKE_PROTECT") && !strcmp(getenv("FAKE_PROTECT"), "1");
    return protect;
}

/* Open (rw) or close the pages of [x, x+n) when they are device memory. */
static void pages(const void *x, size_t n, int rw)
{
    for (int i = 0; protecting() && x && n && i < nregions; i++) {
        const char *lo = regions[i].p, *hi = lo + regions[i].len;
        if ((const char *)x < lo || (const char *)x >= hi) continue;
        uintptr_t a = (uintptr_t)x & ~(PAGE - 1), b = ((uintptr_t)x + n + PAGE - 1) & ~(PAGE - 1);
        mprotect((void *)a, b - a, rw ? PROT_READ | PROT_WRITE : PROT_NONE);
    }
}

static void run(op *o)
{
    size_t n = o->kind == OP_REDUCE ? o->n * kern_dtype_size(o->dt) : o->n;
    pages(o->dst, n, 1), pages(o->a, n, 1), pages(o->b, n, 1);
    if (o->kind == OP_COPY) memmove(o->dst, o->a, o->n);
    else if (o->kind == OP_SET) memset(o->dst, o->byte, o->n);
    else if (o->kind == OP_REDUCE) kern_reduce(o->dt, o->rop, o->dst, o->a, o->b, o->n);
    pages(o->dst, n, 0), pages(o->a, n, 0), pages(o->b, n, 0);
}

static kern_stream *stream_of(kern_stream *s) { return s ? s : &legacy; }

static void run_until(kern_stream *s, long seq)
{
    while (s->head < s->len && s->q[s->head].seq <= seq) run(&s->q[s->head++]);
    if (s->head == s->len) s->head = s->len = 0;
}

static int push(kern_stream *s, op o)
{
    s = stream_of(s);
    if (s->len == s->cap) {
        op *q = realloc(s->q, (s->cap ? 2 * s->cap : 64) * sizeof *q);
        if (!q) return KERN_DEV_ECUDA;
        s->q = q;
        s->cap = s->cap ? 2 * s->cap : 64;
    }
    o.seq = ++s->seq;
    s->q[s->len++] = o;
    return KERN_DEV_OK;
}

int kern_dev_count(int *n) { if (n) *n = 1; return KERN_DEV_OK; }
int kern_dev_select(int dev) { return dev == 0 ? KERN_DEV_OK : KERN_DEV_EARG; }
int kern_dev_current(int *dev) { if (dev) *dev = 0; return KERN_DEV_OK; }
const char *kern_dev_name(void) { return "fake device (tests/fake/devmem_fake.c: deferred streams)"; }
const char *kern_dev_last_error(void) { return "fake device: out of memory"; }

int kern_dev_alloc(void **p, size_t bytes)
{
    size_t len = ((bytes ? bytes : 256) + PAGE - 1) & ~(PAGE - 1);
    void *m;
    *p = NULL;
    if (nregions == MAX_REGIONS) return KERN_DEV_ECUDA;
    m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return KERN_DEV_ECUDA;
    regions[nregions++] = (region){ m, len };
    if (protecting()) mprotect(m, len, PROT_NONE);
    *p = m;
    return KERN_DEV_OK;
}

void kern_dev_free(void *p)
{
    for (int i = 0; p && i < nregions; i++)
        if (regions[i].p == p) {
            munmap(p, regions[i].len);
            regions[i] = regions[--nregions];
            return;
        }
}

int kern_dev_host_alloc(void **p, size_t bytes)
{
    return (*p = malloc(bytes ? bytes : 256)) ? KERN_DEV_OK : KERN_DEV_ECUDA;
}
void kern_dev_host_free(void *p) { free(p); }

int kern_stream_create(kern_stream **s) { return (*s = calloc(1, sizeof **s)) ? KERN_DEV_OK : KERN_DEV_ECUDA; }
void kern_stream_free(kern_stream *s)
{
    if (!s) return;
    free(s->q);
    free(s);
}
int kern_stream_sync(kern_stream *s)
{
    s = stream_of(s);
    run_until(s, s->seq);
    return KERN_DEV_OK;
}

int kern_dev_copy(void *dst, const void *src, size_t bytes, kern_stream *s)
{
    return bytes ? push(s, (op){ .kind = OP_COPY, .dst = dst, .a = src, .n = bytes }) : KERN_DEV_OK;
}
int kern_dev_memset(void *dst, int byte, size_t bytes, kern_stream *s)
{
    return bytes ? push(s, (op){ .kind = OP_SET, .dst = dst, .byte = byte, .n = bytes }) : KERN_DEV_OK;
}
int kern_reduce_device(kern_dtype dt, kern_op rop, void *out, const void *a, const void *b, size_t n, kern_stream *s)
{
    return push(s, (op){ .kind = OP_REDUCE, .dst = out, .a = a, .b = b, .n = n, .dt = dt, .rop = rop });
}
int kern_sgd_device(float *w, const float *g, float lr, size_t n, kern_stream *s)
{
    (void)w, (void)g, (void)lr, (void)n, (void)s;
    return KERN_DEV_ENOSUPPORT;
}
int kern_fill_device(float *p, size_t n, float scale, kern_stream *s)
{
    (void)p, (void)n, (void)scale, (void)s;
    return KERN_DEV_ENOSUPPORT;
}
kern_stream *kern_dev_compute_stream(void) { return NULL; }

int kern_event_create(kern_event **e) { return (*e = calloc(1, sizeof **e)) ? KERN_DEV_OK : KERN_DEV_ECUDA; }
void kern_event_free(kern_event *e) { free(e); }
int kern_event_record(kern_event *e, kern_stream *s)
{
    int rc = push(s, (op){ .kind = OP_MARK });
    e->s = stream_of(s);
    e->seq = e->s->seq;
    return rc;
}
int kern_event_sync(kern_event *e)
{
    if (e->s) run_until(e->s, e->seq);
    return KERN_DEV_OK;
}
int kern_event_elapsed(kern_event *start, kern_event *end, double *seconds)
{
    (void)start, (void)end;
    *seconds = 0;
    return KERN_DEV_OK;
}
