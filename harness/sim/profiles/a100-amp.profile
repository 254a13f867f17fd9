# a100-amp — NVIDIA A100 SXM4 80 GB as MLPerf Training's ResNet-50 runs it: fp16 compute (mixed
# precision, fp32 master weights), convolution + batch norm + ReLU fused (cuDNN), the step launched as
# a CUDA graph (docs/SOURCES.md §16). The fp32 profile of the same GPU is a100.profile. Every constant is
# an input from a datasheet or a measurement of another device; none is fitted to MLPerf's throughput.
#
# gemm_gflops_fp32: as a100.profile.
gemm_gflops_fp32 = 45660
# gemm_gflops_fp16: 312 TFLOP/s dense fp16 (A100 datasheet) at the 86.4% of peak one large bf16 GEMM
# reached on the H200 (gpu-check part 2, results/gpu/h200-2026-12-04/gpu_check.txt: 854.4 of 989), an
# assumption: 269,600 GFLOP/s.
gemm_gflops_fp16 = 269600
# mem_gbps: 2,039 GB/s HBM2e (A100 80 GB SXM4 datasheet) at the H200's measured 69.2% (h200.profile):
# 1,411 GB/s. (The 40 GB part of the first DGX A100 has 1,555 GB/s: 1,076.)
mem_gbps = 1411
# reduce_ns_per_byte: as a100.profile.
reduce_ns_per_byte = 0.00196
precision = fp16
# fused = 3: NormConv as cuDNN's fused-ops API runs it (MLPerf's 1-node ResNet-50 network): the batch
# norm and ReLU fold into the convolutions forward; backward, dReLU + the batch norm's backward run as a
# memory-bound kernel of their own per layer (CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM is a separate op of
# cudnnFusedOps_t; docs/SOURCES.md §16). bn_held absent (0): those kernels read x and dy twice.
fused = 3
graphs = 1
# kernel_us, graph_kernel_us: as h100-amp.profile (measured on an A100 through NVIDIA's DeepLearningExamples
# MXNet ResNet-50 inference tables, docs/SOURCES.md §16).
kernel_us = 15.3
graph_kernel_us = 4.0
# sms: 108 streaming multiprocessors (A100, NVIDIA A100 Tensor Core GPU Architecture whitepaper).
sms = 108
gemm_tile = 128
