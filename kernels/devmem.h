/* devmem.h — the device seam: GPU memory, copies, streams, events and the device reduction kernel.
 * Two backends, one linked per build:
 *   devmem_none.c  every build without nvcc (and the simulation): kern_dev_count says "no device
 *                  support in this build" and every other call fails with KERN_DEV_ENOSUPPORT;
 *   devmem_cuda.cu the CUDA build (make finds nvcc): the CUDA runtime; reductions by reduce_cuda.cu.
 * collectives/ calls only this API, never CUDA, so it stays one C code path with no #ifdef.
 * Pointers may be device or host (pinned) memory: copies use unified addressing (cudaMemcpyDefault).
 * Streams and events are opaque handles. Every function returns KERN_DEV_OK or an error code, with a
 * one-line message in kern_dev_last_error() (per thread). kernels/ knows nothing of MPI. */
#ifndef KERN_DEVMEM_H
#define KERN_DEVMEM_H

#include "reduce.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    KERN_DEV_OK = 0,
    KERN_DEV_ENOSUPPORT = 1, /* this build has no CUDA (no nvcc when it was built) */
    KERN_DEV_ENODEVICE = 2,  /* CUDA is linked but the machine has no usable device */
    KERN_DEV_ECUDA = 3,      /* a CUDA call failed (message names it) */
    KERN_DEV_EARG = 4,       /* NULL pointer, unknown type or op */
};

typedef struct kern_stream kern_stream; /* a CUDA stream */
typedef struct kern_event kern_event;   /* a CUDA event (timing enabled) */

/* Devices visible to this process (0 when none); fails (and says why) when the count is 0 because
 * of an error, e.g. "cudaGetDeviceCount: no CUDA-capable device is detected". */
int kern_dev_count(int *n);
/* Select device `dev` for the calling thread (each thread that uses CUDA calls it once). */
int kern_dev_select(int dev);
/* The calling thread's current device. */
int kern_dev_current(int *dev);
/* "NVIDIA H200 (sm_90, 132 SMs, 141 GB)" of the current device, or the error text. */
const char *kern_dev_name(void);
const char *kern_dev_last_error(void);

int kern_dev_alloc(void **p, size_t bytes);      /* device memory; bytes 0 gives a valid pointer */
void kern_dev_free(void *p);
int kern_dev_host_alloc(void **p, size_t bytes); /* pinned (page-locked) host memory, for staging */
void kern_dev_host_free(void *p);

int kern_stream_create(kern_stream **s);         /* non-blocking stream */
void kern_stream_free(kern_stream *s);
int kern_stream_sync(kern_stream *s);
/* Asynchronous copy in stream order; any direction (device, pinned host, pageable host). */
int kern_dev_copy(void *dst, const void *src, size_t bytes, kern_stream *s);
int kern_dev_memset(void *dst, int byte, size_t bytes, kern_stream *s);
/* out[i] = a[i] op b[i], i < n, on the device in stream order (same semantics as kern_reduce:
 * half types are reduced in float32 and rounded once; out may equal a or b). */
int kern_reduce_device(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n,
                       kern_stream *s);
/* At most `blocks` blocks of 256 threads for kern_reduce_device from now on, in every thread (0: as
 * many as the vector needs, up to 8192): gpu-check's contention probe runs the reduction on as few SMs
 * as a collective library's kernels take. */
int kern_reduce_device_cap(unsigned blocks);
/* w -= lr * g over n floats, on the device in stream order. */
int kern_sgd_device(float *w, const float *g, float lr, size_t n, kern_stream *s);
/* p[i] = scale * ((i % 13) - 6) as float32 (synthetic values, as the host trainer's fill). */
int kern_fill_device(float *p, size_t n, float scale, kern_stream *s);

/* The stream the CUDA build's GEMMs run on (gemm_cublas.cu); NULL without CUDA or device. */
kern_stream *kern_dev_compute_stream(void);

int kern_event_create(kern_event **e);
void kern_event_free(kern_event *e);
int kern_event_record(kern_event *e, kern_stream *s);   /* marks the work issued so far on s */
int kern_event_sync(kern_event *e);                      /* block until that work completed */
int kern_event_elapsed(kern_event *start, kern_event *end, double *seconds);

#ifdef __cplusplus
}
#endif
#endif
