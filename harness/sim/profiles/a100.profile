# a100 — NVIDIA A100 SXM4 80 GB (HBM2e), the GPU of the DGX A100 640 GB (docs/SOURCES.md §12). No
# device of this kind was measured: the GEMM rates are the H200's measured fractions of peak
# (profiles/h200.profile) applied to the A100 datasheet's dense peaks, an assumption. Calibrating to
# MLPerf instead is not possible (docs/SOURCES.md §12): ddlbench's unfused fp32 step moves 340.6 GB at
# batch 408, 223 ms at the memory rate below, longer than the whole 122 ms step of MLPerf Training
# v1.0 (NVIDIA, DGX A100 80 GB, MXNet, fp16: 3,336 images/s per GPU at batch 408).
#
# gemm_gflops_fp32: fp32 tensors run as TF32 (the simulator's fp32 GEMM rate stands for the fast path,
# as on the H200). Dense TF32 peak 156 TFLOP/s (A100 datasheet: 312 "with sparsity", sourced). At the
# H200's measured 29.3% of its 494 TFLOP/s (assumption): 144,600 x 156 / 494 = 45,660 GFLOP/s.
gemm_gflops_fp32 = 45660
# gemm_gflops_fp16: dense BF16/FP16 tensor peak 312 TFLOP/s (A100 datasheet: 624 "with sparsity",
# sourced). At the H200's measured 24.4% of 989 TFLOP/s (assumption): 241,000 x 312 / 989 = 76,030.
gemm_gflops_fp16 = 76030
# mem_gbps: 2,039 GB/s HBM2e peak of the 80 GB SXM4 part (A100 datasheet, sourced; the 40 GB part of
# the first DGX A100 has 1,555 GB/s) at an assumed 75% achieved: 1,529 GB/s. ResNet-50's memory-bound
# kernels move 213.9 GB per step at batch 256 (`ddlbench model --batch 256`): 139.9 ms; with the GEMMs
# (136.2 ms) the full fp32 step predicts 927 images/s.
mem_gbps = 1529
# reduce_ns_per_byte: 3 bytes of HBM2e traffic per byte of one input at the memory rate above:
# 3 / (0.75 x 2,039e9) = 1.96e-12 s = 0.00196 ns per byte.
reduce_ns_per_byte = 0.00196
