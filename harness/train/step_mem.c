/* step_mem.c — the two step_mem tables (see step_mem.h). The device table runs everything on the
 * compute stream (kern_dev_compute_stream: the stream cuBLAS runs the GEMMs on), so fills, copies,
 * GEMMs and the update stay in issue order; `ready` drains that stream (setup and --check reads; a
 * posted bucket is fenced by an event instead: engine_use_fences). Without CUDA (devmem_none.c) every device call
 * fails, so the device table is only chosen once cli_train has found a device. */
#include "step_mem.h"

#include "devmem.h"
#include "mem.h"
#include "sgd.h"

#include <string.h>

static int host_fill(float *p, size_t n, float scale)
{
    for (size_t i = 0; i < n; i++) p[i] = scale * (float)((int)(i % 13) - 6);
    return 0;
}
static int host_zero(void *p, size_t bytes) { memset(p, 0, bytes); return 0; }
static int host_copy(void *dst, const void *src, size_t bytes)
{
    if (dst != src) memcpy(dst, src, bytes);
    return 0;
}
static int host_sgd(float *w, const float *g, float lr, size_t n) { kern_sgd_f32(w, g, lr, n); return 0; }
static int host_ready(void) { return 0; }

const step_mem step_mem_host = { "host", kern_buf_alloc, kern_buf_free, kern_operand_alloc, kern_operand_free,
                                 host_fill, host_zero, host_copy, host_copy, host_sgd, host_ready };

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    return kern_dev_alloc(&p, bytes) == KERN_DEV_OK ? p : NULL;
}
static void dev_free_sized(void *p, size_t bytes) { (void)bytes; kern_dev_free(p); }
static int dev_fill(float *p, size_t n, float scale)
{
    return kern_fill_device(p, n, scale, kern_dev_compute_stream());
}
static int dev_zero(void *p, size_t bytes) { return kern_dev_memset(p, 0, bytes, kern_dev_compute_stream()); }
static int dev_put(void *dst, const void *host, size_t bytes)
{
    return kern_dev_copy(dst, host, bytes, kern_dev_compute_stream());
}
static int dev_ready(void) { return kern_stream_sync(kern_dev_compute_stream()); }
static int dev_get(void *host, const void *src, size_t bytes)
{
    return kern_dev_copy(host, src, bytes, kern_dev_compute_stream()) || dev_ready();
}
static int dev_sgd(float *w, const float *g, float lr, size_t n)
{
    return kern_sgd_device(w, g, lr, n, kern_dev_compute_stream());
}

const step_mem step_mem_device = { "device", dev_alloc, kern_dev_free, dev_alloc, dev_free_sized,
                                   dev_fill, dev_zero, dev_put, dev_get, dev_sgd, dev_ready };
