# h100 — NVIDIA H100 SXM5 80 GB (HBM3), the GPU of the DGX H100 (docs/SOURCES.md §12). No device of
# this kind was measured. Its die and datasheet peaks are the H200's (67 TFLOP/s FP32, 989 TF32 and
# 1,979 BF16/FP16 "with sparsity" on both datasheets); only the memory differs. So the GEMM rates are
# the H200's measured ones (profiles/h200.profile), an assumption (the GEMM-only step also moves some
# memory, which the H100 has less of). Calibrating to MLPerf instead is not possible (docs/SOURCES.md
# §12): ddlbench's unfused fp32 step moves 333.9 GB at batch 400, 133 ms at the memory rate below,
# longer than the whole 57 ms step of MLPerf Training v3.0 (NVIDIA, DGX H100, MXNet, fp16: 7,009
# images/s per GPU at batch 400).
#
# gemm_gflops_fp32: fp32 tensors run as TF32 (the fast path, as on the H200). The H200's measured
# GEMM-only tf32 step: 144,600 GFLOP/s, 29% of 494 TFLOP/s dense TF32 (docs/SOURCES.md §11); the
# same on the H100 (assumption).
gemm_gflops_fp32 = 144600
# gemm_gflops_fp16: the H200's measured bf16 rate, 241,000 GFLOP/s, 24% of 989 TFLOP/s dense
# (docs/SOURCES.md §11); the same on the H100 (assumption).
gemm_gflops_fp16 = 241000
# mem_gbps: 3.35 TB/s HBM3 peak (H100 SXM datasheet, sourced) at an assumed 75% achieved: 2,512.5
# GB/s. ResNet-50's memory-bound kernels move 213.9 GB per step at batch 256 (`ddlbench model --batch
# 256`): 85.1 ms; with the GEMMs (43.0 ms) the full fp32 step predicts 1,998 images/s, 84% of the
# h200 profile's 2,383 (MLPerf Training v4.0, same NVIDIA software on both: H100 7,161 and H200 7,950
# images/s per GPU, 90%).
mem_gbps = 2512.5
# reduce_ns_per_byte: 3 bytes of HBM3 traffic per byte of one input at the memory rate above:
# 3 / (0.75 x 3.35e12) = 1.19e-12 s = 0.00119 ns per byte.
reduce_ns_per_byte = 0.00119
