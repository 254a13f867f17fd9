# h200 — NVIDIA H200 SXM (141 GB HBM3e). GEMM rates derived from ddlbench's own GEMM-only step
# measured on one H200 (docs/SOURCES.md §11); the memory rate is an assumption until `ddlbench
# gpu-check` measures it (its profile's mem_gbps). The other profiles of today's GPUs (v100, a100,
# h100) take this one's fractions of peak (docs/SOURCES.md §12).
# For scale: MLPerf Training v4.0 (NVIDIA, 8 x H200, MXNet, fp16 with fused kernels) ran 7,950
# images/s per GPU at batch 400 (docs/SOURCES.md §12); this profile's full fp32 step predicts 2,500
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
# mem_gbps: 4.8 TB/s HBM3e peak (NVIDIA H200 brief, docs/SOURCES.md §3) at an assumed 75% achieved:
# 3,600 GB/s. ResNet-50's memory-bound kernels move 213.9 GB per step at batch 256 (`ddlbench model
# --batch 256`: 90.6 + 122.7 GB forward and backward, 0.5 GB SGD): 59.4 ms.
mem_gbps = 3600
# reduce_ns_per_byte: 3 bytes of HBM3e traffic per byte of one input at the memory rate above:
# 3 / (0.75 x 4.8e12) = 8.3e-13 s = 0.00083 ns per byte. Cross-check: the project's float32 sum on one
# H200 ran 3,471 GB/s counting 3 bytes per byte (docs/SOURCES.md §12): 0.00086 ns per byte, 4% slower.
reduce_ns_per_byte = 0.00083
