/* devmem_none.c — devmem.h for builds without CUDA (no nvcc found, CUDA=0, the simulation): there is
 * no device; allocation and stream calls fail with KERN_DEV_ENOSUPPORT, frees accept NULL. */
#include "devmem.h"

#include <stddef.h>

static const char none[] = "no device support in this build (built without nvcc; see docs/GPU.md)";

int kern_dev_count(int *n)
{
    if (n) *n = 0;
    return KERN_DEV_ENOSUPPORT;
}
int kern_dev_select(int dev) { (void)dev; return KERN_DEV_ENOSUPPORT; }
int kern_dev_current(int *dev) { if (dev) *dev = -1; return KERN_DEV_ENOSUPPORT; }
const char *kern_dev_name(void) { return none; }
const char *kern_dev_last_error(void) { return none; }

int kern_dev_alloc(void **p, size_t bytes) { (void)bytes; if (p) *p = NULL; return KERN_DEV_ENOSUPPORT; }
void kern_dev_free(void *p) { (void)p; }
int kern_dev_host_alloc(void **p, size_t bytes) { (void)bytes; if (p) *p = NULL; return KERN_DEV_ENOSUPPORT; }
void kern_dev_host_free(void *p) { (void)p; }

int kern_stream_create(kern_stream **s) { if (s) *s = NULL; return KERN_DEV_ENOSUPPORT; }
void kern_stream_free(kern_stream *s) { (void)s; }
int kern_stream_sync(kern_stream *s) { (void)s; return KERN_DEV_ENOSUPPORT; }
int kern_dev_copy(void *dst, const void *src, size_t bytes, kern_stream *s)
{
    (void)dst, (void)src, (void)bytes, (void)s;
    return KERN_DEV_ENOSUPPORT;
}
int kern_dev_memset(void *dst, int byte, size_t bytes, kern_stream *s)
{
    (void)dst, (void)byte, (void)bytes, (void)s;
    return KERN_DEV_ENOSUPPORT;
}
int kern_reduce_device_cap(unsigned blocks)
{
    (void)blocks;
    return KERN_DEV_ENOSUPPORT;
}
int kern_reduce_device(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n,
                       kern_stream *s)
{
    (void)dt, (void)op, (void)out, (void)a, (void)b, (void)n, (void)s;
    return KERN_DEV_ENOSUPPORT;
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

int kern_event_create(kern_event **e) { if (e) *e = NULL; return KERN_DEV_ENOSUPPORT; }
void kern_event_free(kern_event *e) { (void)e; }
int kern_event_record(kern_event *e, kern_stream *s) { (void)e, (void)s; return KERN_DEV_ENOSUPPORT; }
int kern_event_sync(kern_event *e) { (void)e; return KERN_DEV_ENOSUPPORT; }
int kern_event_elapsed(kern_event *start, kern_event *end, double *seconds)
{
    (void)start, (void)end;
    if (seconds) *seconds = 0;
    return KERN_DEV_ENOSUPPORT;
}
