# h200 — NVIDIA H200 SXM (141 GB HBM3e). GEMM rates derived from ddlbench's own GEMM-only step
# measured on one H200 (docs/SOURCES.md §11); the memory rate and the reduction cost measured by
# `ddlbench gpu-check` on one H200 (2026-12-04, results/gpu/h200-2026-12-04/). The other profiles of today's GPUs (v100, a100,
# h100) take this one's fractions of peak (docs/SOURCES.md §12).
# For scale: MLPerf Training v4.0 (NVIDIA, 8 x H200, MXNet, fp16 with fused kernels) ran 7,950
# images/s per GPU at batch 400 (docs/SOURCES.md §12); this profile's full fp32 step predicts 2,384
# at batch 400 (`ddlbench model --batch 400`): it prices ddlbench's own unfused step, not MLPerf's.
#
# gemm_gflops_fp32: fp32 tensors run as TF32 (the simulator's fp32 GEMM rate stands for the fast
# path). `ddlbench train --device gpu --compute gemm` (the GEMMs only) ran 5,939 images/s at batch
# 256, tf32, on one H200:
#   step GEMM FLOPs = 8 x 777.57 GFLOP (batch 256 = 8 x the batch-32 step) = 6,220.6 GFLOP
#   step time       = 256 / 5,939 = 43.10 ms, less 0.09 ms of plain SGD (306.7 MB at the memory rate
#                     below)  ->  rate = 6,220.6 / 0.04301 = 144,600 GFLOP/s (29% of 494 TFLOP/s dense
#                     TF32). The same step in fp32 without tensor cores ran 1,767 images/s: 42,960.
# Measured at batch 256: at the study's batch 32 the GEMMs are smaller and run slower.
gemm_gflops_fp32 = 144600
# gemm_gflops_fp16: the same step with bf16 GEMM inputs ran 9,885 images/s: 25.90 - 0.09 ms,
# 6,220.6 / 0.02581 = 241,000 GFLOP/s (24% of 989 TFLOP/s dense bf16/fp16).
gemm_gflops_fp16 = 241000
# mem_gbps: measured by `ddlbench gpu-check` (part 5: batch norm + ReLU forward and backward over a
# 256 MiB activation, bytes as kernels/layers.h counts them) on one H200, two runs on 2026-12-04:
# 3,340 and 3,307 GB/s (70% of the 4.8 TB/s HBM3e peak, docs/SOURCES.md §3); their mean. ResNet-50's
# memory-bound kernels move 213.9 GB per step at batch 256 (`ddlbench model --batch 256`): 64.4 ms.
# (Before: 3,600, an assumed 75% of peak.)
mem_gbps = 3320
# reduce_ns_per_byte: the float32 sum kernel over 256 MB on the same H200 (gpu-check part 4): 3,564 and
# 3,507 GB/s counting 3 bytes moved per byte, i.e. 0.000842 and 0.000855 ns per byte of one input;
# their mean. (Before: 0.00083, derived from the assumed memory rate.)
reduce_ns_per_byte = 0.00085
