# v100 — NVIDIA Tesla V100 SXM2 (16 or 32 GB HBM2), the GPU of the DGX-1 with V100 (docs/SOURCES.md
# §12). No device of this kind was measured: every rate below is the H200's measured fraction of peak
# (profiles/h200.profile) applied to the V100 datasheet's peak, an assumption. Calibrating to MLPerf
# instead is not possible (docs/SOURCES.md §12): ddlbench's unfused fp32 step moves 173.9 GB at
# batch 208, 258 ms at the memory rate below, longer than the whole 149 ms step of MLPerf Training
# v0.7 (NVIDIA, DGX-1, MXNet, fp16: 1,398 images/s per GPU at batch 208).
#
# gemm_gflops_fp32: Volta has no TF32, so the simulator's fp32 GEMM rate is true FP32 here (on
# A100/H100/H200 it stands for TF32). Peak FP32 15.7 TFLOP/s (V100 SXM2 datasheet, sourced). The
# H200's GEMM-only step in fp32 without tensor cores ran 42,960 GFLOP/s, 64.1% of its 67 TFLOP/s
# (measured, docs/SOURCES.md §11); the same fraction here (assumption): 42,960 x 15.7 / 67 = 10,070
# GFLOP/s. (The p100 profile's calibrated fraction is lower, 49%: this rate may be optimistic.)
gemm_gflops_fp32 = 10070
# gemm_gflops_fp16: tensor-core peak 125 TFLOP/s (V100 SXM2 datasheet, sourced; Volta has no sparsity
# mode, so it is dense). At the H200's measured bf16 fraction, 24.4% of 989 TFLOP/s (assumption):
# 241,000 x 125 / 989 = 30,460 GFLOP/s.
gemm_gflops_fp16 = 30460
# mem_gbps: 900 GB/s HBM2 peak (V100 SXM2 datasheet, sourced) at an assumed 75% achieved: 675 GB/s.
# ResNet-50's memory-bound kernels move 213.9 GB per step at batch 256 (`ddlbench model --batch
# 256`): 316.9 ms; with the GEMMs (617.7 ms) the full fp32 step predicts 274 images/s.
mem_gbps = 675
# reduce_ns_per_byte: 3 bytes of HBM2 traffic per byte of one input at the memory rate above:
# 3 / (0.75 x 900e9) = 4.44e-12 s = 0.00444 ns per byte.
reduce_ns_per_byte = 0.00444
