/* compute_cuda.cu — the CUDA build's backend of compute.h. GEMMs and layer kernels are queued on the
 * compute stream (gemm_cublas.cu) and run there in issue order, with no drain per GEMM:
 *   - kern_compute_mark drains the stream and returns -1 ("complete now", so the step reads
 *     MPI_Wtime); the step calls it only at its phase boundaries (start, end of backward, update);
 *   - spans record an event before and after the work on the compute stream; kern_span_collect,
 *     called after a mark, sums cudaEventElapsedTime of every pair by kind. The events form a pool
 *     reused step after step, touched only by the thread that issues the compute work;
 *   - fences are events (timing disabled) recorded on the compute stream when a bucket's last
 *     gradient has been issued; the communication thread waits on one (cudaEventSynchronize) before
 *     it hands that bucket to libddl, whose own stream then reads finished gradients while later
 *     GEMMs run on the compute stream.
 * Errors of queued kernels surface at the next wait, sync or collect (kern_dev_last_error). */
#include "devmem_cuda.h"

extern "C" {
#include "compute.h"
}

#include <cstdlib>

extern "C" void kern_compute_begin(void) {}
extern "C" void kern_compute_issue(double seconds) { (void)seconds; }

extern "C" double kern_compute_mark(void)
{
    kern_stream *s = kern_dev_compute_stream();
    /* a failed kernel is recorded (kern_dev_last_error); the next GEMM call fails and its caller says so */
    if (s) (void)kern_stream_sync(s);
    return -1.0;
}

extern "C" void kern_compute_wait_until(double t) { (void)t; }

extern "C" int kern_simulated(void) { return 0; }

/* ---- spans: a pool of timing events and the (start, end, kind) pairs recorded since the last collect */
struct span_pair { int a, b, kind; };
static cudaEvent_t *pool;       /* events, created on first use */
static int pool_n, pool_cap, used; /* created, capacity, in use since the last collect */
static span_pair *pairs;
static int npairs, pairs_cap;
static int span_failed;         /* a record failed since the last collect: the totals are incomplete */

/* Record the next pool event on the compute stream; its index, or -1. */
static int record_next(void)
{
    kern_stream *s = kern_dev_compute_stream();
    if (!s) return -1;
    if (used == pool_cap) {
        int cap = pool_cap ? 2 * pool_cap : 256;
        cudaEvent_t *p = static_cast<cudaEvent_t *>(realloc(pool, (size_t)cap * sizeof *p));
        if (!p) return -1;
        pool = p, pool_cap = cap;
    }
    if (used == pool_n) {
        if (cudaEventCreate(&pool[pool_n]) != cudaSuccess) return -1;
        pool_n++;
    }
    if (cudaEventRecord(pool[used], kern_cu_stream(s)) != cudaSuccess) return -1;
    return used++;
}

extern "C" kern_span kern_span_open(void)
{
    kern_span sp = { 0.0, record_next() };
    if (sp.ev < 0) span_failed = 1;
    return sp;
}

extern "C" double kern_span_close(kern_span sp, int kind)
{
    int b = sp.ev >= 0 ? record_next() : -1;
    if (b >= 0 && npairs == pairs_cap) {
        int cap = pairs_cap ? 2 * pairs_cap : 256;
        span_pair *p = static_cast<span_pair *>(realloc(pairs, (size_t)cap * sizeof *p));
        if (p) pairs = p, pairs_cap = cap;
    }
    if (b < 0 || npairs == pairs_cap) {
        span_failed = 1;
        return 0.0;
    }
    pairs[npairs++] = span_pair{ sp.ev, b, kind };
    return 0.0;
}

extern "C" int kern_span_collect(double *gemm_s, double *other_s)
{
    int rc = 0;
    cudaError_t se = used > 0 ? cudaEventSynchronize(pool[used - 1]) : cudaSuccess;
    if (se != cudaSuccess) rc = kern_cu_fail(se, "cudaEventSynchronize (span)");
    for (int i = 0; !rc && i < npairs; i++) {
        float ms = 0;
        cudaError_t e = cudaEventElapsedTime(&ms, pool[pairs[i].a], pool[pairs[i].b]);
        if (e != cudaSuccess) { rc = kern_cu_fail(e, "cudaEventElapsedTime (span)"); break; }
        double *to = pairs[i].kind == KERN_SPAN_GEMM ? gemm_s : other_s;
        if (to) *to += 1e-3 * ms;
    }
    if (!rc && span_failed) rc = kern_cu_failf(KERN_DEV_ECUDA, "a span's event could not be recorded");
    used = npairs = span_failed = 0;
    return rc ? -1 : 0;
}

/* ---- fences */
extern "C" int kern_fence_create(kern_fence **f)
{
    cudaEvent_t e = nullptr;
    *f = NULL;
    KERN_CU(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    *f = reinterpret_cast<kern_fence *>(e);
    return 0;
}

extern "C" void kern_fence_free(kern_fence *f)
{
    if (f) cudaEventDestroy(reinterpret_cast<cudaEvent_t>(f));
}

extern "C" int kern_fence_record(kern_fence *f)
{
    kern_stream *s = kern_dev_compute_stream();
    if (!f) return 0;
    if (!s) return kern_cu_failf(KERN_DEV_ENODEVICE, "kern_fence_record: no compute stream");
    KERN_CU(cudaEventRecord(reinterpret_cast<cudaEvent_t>(f), kern_cu_stream(s)));
    return 0;
}

extern "C" int kern_fence_wait(kern_fence *f)
{
    if (!f) return 0;
    KERN_CU(cudaEventSynchronize(reinterpret_cast<cudaEvent_t>(f)));
    return 0;
}
