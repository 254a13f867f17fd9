/* devmem_cuda.cu — the CUDA backend of devmem.h (built only when make finds nvcc): device and pinned
 * memory, streams, events and copies through the CUDA runtime. The reduction, SGD and fill kernels
 * are in reduce_cuda.cu. Errors are recorded per thread with the CUDA call's name. */
#include "devmem_cuda.h"

#include <cstdarg>
#include <cstdio>

static thread_local char last_err[256] = "no error";

int kern_cu_fail(cudaError_t err, const char *what)
{
    snprintf(last_err, sizeof last_err, "%.120s: %s: %s", what, cudaGetErrorName(err), cudaGetErrorString(err));
    return KERN_DEV_ECUDA;
}

int kern_cu_failf(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_err, sizeof last_err, fmt, ap);
    va_end(ap);
    return code;
}

extern "C" const char *kern_dev_last_error(void) { return last_err; }

extern "C" int kern_dev_count(int *n)
{
    int count = 0;
    if (n) *n = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || (err == cudaSuccess && count == 0)) {
        kern_cu_failf(KERN_DEV_ENODEVICE, "cudaGetDeviceCount: %s",
                      err == cudaSuccess ? "0 devices" : cudaGetErrorString(err));
        return KERN_DEV_ENODEVICE;
    }
    if (err != cudaSuccess) return kern_cu_fail(err, "cudaGetDeviceCount");
    if (n) *n = count;
    return KERN_DEV_OK;
}

extern "C" int kern_dev_select(int dev)
{
    KERN_CU(cudaSetDevice(dev));
    return KERN_DEV_OK;
}

extern "C" int kern_dev_current(int *dev)
{
    int d = 0;
    KERN_CU(cudaGetDevice(&d));
    if (dev) *dev = d;
    return KERN_DEV_OK;
}

extern "C" const char *kern_dev_name(void)
{
    static thread_local char name[160];
    cudaDeviceProp p;
    int dev = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaGetDeviceProperties(&p, dev);
    if (err != cudaSuccess) {
        snprintf(name, sizeof name, "(no device: %s)", cudaGetErrorString(err));
        return name;
    }
    snprintf(name, sizeof name, "%.100s (sm_%d%d, %d SMs, %.0f GB)", p.name, p.major, p.minor, p.multiProcessorCount,
             (double)p.totalGlobalMem / 1e9);
    return name;
}

extern "C" int kern_dev_alloc(void **p, size_t bytes)
{
    if (!p) return kern_cu_failf(KERN_DEV_EARG, "kern_dev_alloc: NULL result pointer");
    *p = NULL;
    cudaError_t err = cudaMalloc(p, bytes ? bytes : 256);
    if (err != cudaSuccess) {
        *p = NULL;
        kern_cu_failf(KERN_DEV_ECUDA, "cudaMalloc(%zu bytes): %s", bytes, cudaGetErrorString(err));
        return KERN_DEV_ECUDA;
    }
    return KERN_DEV_OK;
}

extern "C" void kern_dev_free(void *p)
{
    if (p) cudaFree(p);
}

extern "C" int kern_dev_host_alloc(void **p, size_t bytes)
{
    if (!p) return kern_cu_failf(KERN_DEV_EARG, "kern_dev_host_alloc: NULL result pointer");
    *p = NULL;
    cudaError_t err = cudaHostAlloc(p, bytes ? bytes : 256, cudaHostAllocPortable);
    if (err != cudaSuccess) {
        *p = NULL;
        kern_cu_failf(KERN_DEV_ECUDA, "cudaHostAlloc(%zu bytes): %s", bytes, cudaGetErrorString(err));
        return KERN_DEV_ECUDA;
    }
    return KERN_DEV_OK;
}

extern "C" void kern_dev_host_free(void *p)
{
    if (p) cudaFreeHost(p);
}

extern "C" int kern_stream_create(kern_stream **s)
{
    cudaStream_t cs = nullptr;
    if (!s) return kern_cu_failf(KERN_DEV_EARG, "kern_stream_create: NULL result pointer");
    *s = nullptr;
    KERN_CU(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    *s = reinterpret_cast<kern_stream *>(cs);
    return KERN_DEV_OK;
}

extern "C" void kern_stream_free(kern_stream *s)
{
    if (s) cudaStreamDestroy(kern_cu_stream(s));
}

extern "C" int kern_stream_sync(kern_stream *s)
{
    KERN_CU(cudaStreamSynchronize(kern_cu_stream(s)));
    return KERN_DEV_OK;
}

extern "C" int kern_dev_copy(void *dst, const void *src, size_t bytes, kern_stream *s)
{
    if (!bytes) return KERN_DEV_OK;
    if (!dst || !src) return kern_cu_failf(KERN_DEV_EARG, "kern_dev_copy: NULL pointer for %zu bytes", bytes);
    KERN_CU(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, kern_cu_stream(s)));
    return KERN_DEV_OK;
}

extern "C" int kern_dev_memset(void *dst, int byte, size_t bytes, kern_stream *s)
{
    if (!bytes) return KERN_DEV_OK;
    if (!dst) return kern_cu_failf(KERN_DEV_EARG, "kern_dev_memset: NULL pointer for %zu bytes", bytes);
    KERN_CU(cudaMemsetAsync(dst, byte, bytes, kern_cu_stream(s)));
    return KERN_DEV_OK;
}

extern "C" int kern_event_create(kern_event **e)
{
    cudaEvent_t ce = nullptr;
    if (!e) return kern_cu_failf(KERN_DEV_EARG, "kern_event_create: NULL result pointer");
    *e = nullptr;
    KERN_CU(cudaEventCreate(&ce)); /* timing enabled: kern_event_elapsed needs it */
    *e = reinterpret_cast<kern_event *>(ce);
    return KERN_DEV_OK;
}

extern "C" void kern_event_free(kern_event *e)
{
    if (e) cudaEventDestroy(kern_cu_event(e));
}

extern "C" int kern_event_record(kern_event *e, kern_stream *s)
{
    KERN_CU(cudaEventRecord(kern_cu_event(e), kern_cu_stream(s)));
    return KERN_DEV_OK;
}

extern "C" int kern_event_sync(kern_event *e)
{
    KERN_CU(cudaEventSynchronize(kern_cu_event(e)));
    return KERN_DEV_OK;
}

extern "C" int kern_event_elapsed(kern_event *start, kern_event *end, double *seconds)
{
    float ms = 0;
    KERN_CU(cudaEventElapsedTime(&ms, kern_cu_event(start), kern_cu_event(end)));
    if (seconds) *seconds = ms * 1e-3;
    return KERN_DEV_OK;
}
