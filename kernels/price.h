/* price.h — what one GPU kernel costs, from its shape: the roofline of a GEMM (its FLOPs at the GEMM
 * rate, padded to whole output tiles and whole waves of tiles over the GPU's SMs, against its operand
 * bytes at the memory rate), the bytes of a memory-bound kernel at the memory rate, plus a fixed cost
 * per kernel (launch and dispatch; smaller when a CUDA graph launches the step). Pure arithmetic: the
 * analytic model and the simulation price layers through it (harness/sim/perf_layer.h), so that small
 * batches lose efficiency as real GPUs do (tiles that do not fill the machine, kernels whose fixed cost
 * no longer hides behind their work).
 *
 * A GEMM m x n x k (2mnk FLOPs) with tile edge T on S SMs:
 *   tiles  = ceil(m/T) x ceil(n/T)
 *   split  = split-K when the tiles alone leave SMs idle: min(floor(S / tiles), ceil(k / T)), >= 1
 *   waves  = ceil(tiles x split / S)
 *   t_flop = waves x S x 2 x T x T x ceil(k / split) / rate   (each SM one tile at a time, rate / S)
 *   t_byte = elem x (m k + k n + m n) / bw
 *   t      = max(t_flop, t_byte) + kernel cost
 * With S = 0 (a profile without the tile model) t = 2mnk / rate + kernel cost: the linear model the
 * profiles priced before this file (docs/SOURCES.md §16). */
#ifndef KERN_PRICE_H
#define KERN_PRICE_H

typedef struct kern_price {
    double flops;     /* GEMM rate at the step's precision, flop/s (> 0) */
    double bytes;     /* memory rate, bytes/s (> 0) */
    int sms;          /* streaming multiprocessors; 0: no tile model (2mnk / rate) */
    int tile;         /* output tile edge T of a GEMM (with sms > 0) */
    double elem;      /* bytes per GEMM operand element (4 fp32, 2 fp16/bf16) */
    double kernel_s;  /* fixed cost of each kernel, s (>= 0) */
} kern_price;

/* Output tiles x split-K slices of an m x n x k GEMM (the formula above); 1 for sms <= 0. */
double kern_price_slices(const kern_price *p, int m, int n, int k);
/* Seconds of one GEMM m x n x k (any dimension 0: no kernel, 0 s). */
double kern_price_gemm(const kern_price *p, int m, int n, int k);
/* Seconds of `kernels` memory-bound kernels moving `bytes` in all. */
double kern_price_mem(const kern_price *p, double bytes, int kernels);

#endif
