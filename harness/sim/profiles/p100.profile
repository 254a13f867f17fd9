# p100 — NVIDIA Tesla P100 SXM2 (16 GB HBM2), the GPU of the DDL study (docs/SOURCES.md §1, §2, §11).
#
# The published total is split in two parts, each at its own rate: a ResNet-50 training step at
# batch 32 takes 32 images / 160 images/s per P100 (docs/SOURCES.md §2, a calibration assumption)
# = 200 ms; of that, the memory-bound kernels (batch norm, ReLU, residual adds, pooling,
# im2col/col2im, SGD with momentum) take their bytes at mem_gbps, and the GEMMs the rest.
#
# mem_gbps: 732 GB/s HBM2 peak (NVIDIA P100 datasheet, docs/SOURCES.md §3) at an assumed 75%
# achieved by streaming kernels: 0.75 x 732 = 549 GB/s.
#   memory-bound bytes per step (`ddlbench model --batch 32`): 11,328.3 MB forward + 15,342.2 MB
#   backward + 511.1 MB SGD = 27,181.6 MB -> 27,181.6e6 / 549e9 = 49.5 ms
mem_gbps = 549
# gemm_gflops_fp32: the rest of the 200 ms is GEMM time:
#   step GEMM FLOPs = 777.57 GFLOP (`ddlbench model --batch 32`: forward, data and weight gradients
#                     of every conv and the FC, the stem conv without data gradient)
#   GEMM time       = 200 ms - 49.5 ms = 150.5 ms  ->  rate = 777.57 / 0.1505 = 5167 GFLOP/s (49% of
#                     the 10.6 TFLOP/s fp32 peak)
#   cross-check : backward = 515.86 GFLOP / 5167 + 15,342.2 MB / 549 GB/s = 99.8 + 27.9 = 127.8 ms,
#                 against ~120 ms published for backward on one P100 (docs/SOURCES.md §2): 6.5% high.
# With `--compute gemm` (the GEMMs and a plain SGD only) the step takes 151.1 ms: 212 images/s.
gemm_gflops_fp32 = 5167
# gemm_gflops_fp16: P100's fp16 peak is twice its fp32 peak (21.2 vs 10.6 TFLOP/s, NVIDIA P100
# datasheet); assumed to keep the same 49% efficiency: 2 x 5167.
gemm_gflops_fp16 = 10334
# reduce_ns_per_byte: an element-wise sum reads two vectors and writes one, 3 bytes of HBM2 traffic
# per byte of one input, at the memory rate above:
#   3 / (0.75 x 732e9 B/s) = 5.46e-12 s = 0.00546 ns per byte.
reduce_ns_per_byte = 0.00546
