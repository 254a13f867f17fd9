# p100 — NVIDIA Tesla P100 SXM2 (16 GB HBM2), the GPU of the DDL study (docs/SOURCES.md §1, §2).
#
# gemm_gflops_fp32: an effective rate, chosen so a ResNet-50 training step at batch 32 takes what
# published P100 runs took, not the peak (10.6 TFLOP/s):
#   step FLOPs  = 3 (forward, data gradient, weight gradient) x 2 (FLOPs per MAC)
#                 x 4.089 GMAC (ResNet-50 forward per 224x224 image, docs/SOURCES.md §4) x 32 images
#               = 785.1 GFLOP
#   step time   = 32 images / 160 images/s per P100 (docs/SOURCES.md §2) = 0.200 s
#   rate        = 785.1 GFLOP / 0.200 s = 3925 GFLOP/s   (37% of peak)
#   cross-check : backward = 2/3 of the step = 523.4 GFLOP / 3925 = 133 ms, against ~120 ms
#                 published for backward on one P100 (docs/SOURCES.md §2): 11% high, within the spread of the
#                 two sources; the step time is the figure the scaling study depends on.
gemm_gflops_fp32 = 3925
# gemm_gflops_fp16: P100's fp16 peak is twice its fp32 peak (21.2 vs 10.6 TFLOP/s, NVIDIA P100
# datasheet); assumed to keep the same 37% efficiency: 2 x 3925.
gemm_gflops_fp16 = 7850
# reduce_ns_per_byte: an element-wise sum reads two vectors and writes one, 3 bytes of HBM2 traffic
# per byte of one input; 732 GB/s peak (NVIDIA P100 datasheet) at an assumed 75% achieved:
#   3 / (0.75 x 732e9 B/s) = 5.46e-12 s = 0.00546 ns per byte.
reduce_ns_per_byte = 0.00546
mem_gbps = 549
