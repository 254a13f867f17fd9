/* step_mem.h — where the training step's buffers live and which kernels touch them, chosen once at
 * trainer_create from step_config.device:
 *   host    kern_buf_alloc / kern_operand_alloc (mem.h), CPU loops, kern_sgd_f32 — the CPU build and the
 *           simulation (its operands are address space only; trainer.c never touches them there);
 *   device  kern_dev_alloc (devmem.h), the fill and SGD kernels on the compute stream (the CUDA build).
 * Every operation returns 0 or non-zero (the device's message in kern_dev_last_error()). */
#ifndef HARN_STEP_MEM_H
#define HARN_STEP_MEM_H

#include <stddef.h>

typedef struct step_mem {
    const char *name;                                    /* "host" | "device" */
    void *(*alloc_grad)(size_t bytes);                   /* the gradients: what the allreduce moves */
    void (*free_grad)(void *p);
    void *(*alloc_operand)(size_t bytes);                /* read or written by compute kernels only */
    void (*free_operand)(void *p, size_t bytes);
    int (*fill)(float *p, size_t n, float scale);        /* p[i] = scale * ((i % 13) - 6) */
    int (*zero)(void *p, size_t bytes);
    int (*put)(void *dst, const void *host, size_t bytes); /* host -> buffer (no-op when dst == host) */
    int (*get)(void *host, const void *src, size_t bytes); /* buffer -> host, complete on return */
    int (*sgd)(float *w, const float *g, float lr, size_t n);
    int (*ready)(void);                                  /* work issued on the buffers has completed */
} step_mem;

extern const step_mem step_mem_host, step_mem_device;

#endif
