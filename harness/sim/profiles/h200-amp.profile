# h200-amp — NVIDIA H200 SXM (141 GB HBM3e) as MLPerf Training's ResNet-50 runs it: fp16 compute (mixed
# precision, fp32 master weights), convolution + batch norm + ReLU fused (cuDNN), the step launched as a
# CUDA graph (docs/SOURCES.md §15). The fp32 profile of the same GPU is h200.profile. Both rates were
# measured on this GPU; none of the constants is fitted to MLPerf's throughput.
#
# gemm_gflops_fp32: as h200.profile.
gemm_gflops_fp32 = 144600
# gemm_gflops_fp16: one large bf16 GEMM measured by `ddlbench gpu-check` part 2 on one H200
# (results/gpu/h200-2026-12-04/gpu_check.txt: 854.4 TFLOP/s, 86% of 989 dense).
gemm_gflops_fp16 = 854400
# mem_gbps: as h200.profile (gpu-check part 5, measured: 3,320 GB/s).
mem_gbps = 3320
# reduce_ns_per_byte: as h200.profile (measured).
reduce_ns_per_byte = 0.00085
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
# sms: 132 (the H200 has the H100 SXM's GH100 die: NVIDIA H200 datasheet and Hopper whitepaper).
sms = 132
gemm_tile = 128
