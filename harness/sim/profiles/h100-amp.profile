# h100-amp — NVIDIA H100 SXM5 80 GB as MLPerf Training's ResNet-50 runs it: fp16 compute (mixed
# precision, fp32 master weights), convolution + batch norm + ReLU fused (cuDNN), the step launched as
# a CUDA graph (docs/SOURCES.md §16). The fp32 profile of the same GPU is h100.profile. Every constant is
# an input from a datasheet or a measurement of another device; none is fitted to MLPerf's throughput,
# which this profile predicts (docs/BENCHMARKS.md).
#
# gemm_gflops_fp32: as h100.profile (the H200's measured GEMM-only tf32 step, 144,600 GFLOP/s).
gemm_gflops_fp32 = 144600
# gemm_gflops_fp16: the peak of one large GEMM, not a step's average: `ddlbench gpu-check` part 2 on one
# H200 (results/gpu/h200-2026-12-04/gpu_check.txt: bf16 854.4 TFLOP/s, 86% of 989 dense). The H100 SXM
# has the same die, tensor cores and clock (datasheets: 989 TFLOP/s dense fp16 on both): the same rate,
# an assumption. Small GEMMs lose to tiles and waves (sms, gemm_tile below), not to a lower rate.
gemm_gflops_fp16 = 854400
# mem_gbps: 3.35 TB/s HBM3 (H100 SXM datasheet) at the fraction the H200 achieved in gpu-check part 5
# (3,320 of 4,800 GB/s, 69.2%; h200.profile): 2,317 GB/s.
mem_gbps = 2317
# reduce_ns_per_byte: as h100.profile.
reduce_ns_per_byte = 0.00119
precision = fp16
# fused = 3: NormConv as cuDNN's fused-ops API runs it (MLPerf's 1-node ResNet-50 network): the batch
# norm and ReLU fold into the convolutions forward; backward, dReLU + the batch norm's backward run as a
# memory-bound kernel of their own per layer (CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM is a separate op of
# cudnnFusedOps_t; docs/SOURCES.md §16). bn_held absent (0): those kernels read x and dy twice.
fused = 3
graphs = 1
# kernel_us, graph_kernel_us: each kernel's fixed cost (launch, dispatch, the ramp before its tiles run),
# measured through NVIDIA's DeepLearningExamples MXNet ResNet-50 v1.5 inference tables on one A100 80 GB
# (MxNet/Classification/RN50v1.5/README.md; the network MLPerf's multi-node runs use: fused batch norm +
# ReLU, NHWC; docs/SOURCES.md §16): the median batch-1 latency less this model's own work at batch 1
# (0.176 ms, `ddlbench model --batch 1` with fused = 2 and no kernel cost), over the pass's 126 kernels.
# With CUDA graphs (runner's MXNET_ENABLE_CUDA_GRAPHS=1, mxnet-22.10 container): 0.68 ms, 4.0 us a kernel
# (3.1-4.4 over batches 1, 2, 4, mean or median); without (the same table in the 20.12 container, before
# the runner set graphs): 2.10 ms, 15.3 us (13.3-15.8). The H100 is assumed to pay what the A100 pays (no
# such table for it): the cost is the host's and the front end's, not the SMs'.
kernel_us = 15.3
graph_kernel_us = 4.0
# sms: 132 streaming multiprocessors (H100 SXM5, NVIDIA H100 Tensor Core GPU Architecture whitepaper).
sms = 132
# gemm_tile: 128 x 128 output tiles, the common cuDNN/CUTLASS Hopper GEMM tile (an assumption: the
# libraries pick among several per shape).
gemm_tile = 128
