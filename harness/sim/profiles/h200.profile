# h200 — NVIDIA H200 SXM (141 GB HBM3e). STATED ASSUMPTIONS until a calibration run on a real
# H200 (`ddlbench calibrate` with a CUDA GEMM backend) replaces them.
#
# gemm_gflops_fp32: assumes ~1,500 images/s of ResNet-50 training per GPU with fp32 tensors run as
# TF32 (not checked; peaks are 67 TFLOP/s fp32 and 494 TFLOP/s dense TF32, NVIDIA H200 datasheet):
#   step FLOPs = 3 x 2 x 4.089 GMAC x 32 images = 785.1 GFLOP (docs/SOURCES.md §4)
#   step time  = 32 / 1500 images/s = 21.3 ms  ->  rate = 785.1 / 0.0213 = 36,800 GFLOP/s
gemm_gflops_fp32 = 36800
# gemm_gflops_fp16: assumes mixed precision doubles the throughput (~3,000 images/s; not checked;
# dense fp16 tensor peak 989 TFLOP/s).
gemm_gflops_fp16 = 73600
# reduce_ns_per_byte: 3 bytes of HBM3e traffic per byte of one input, 4.8 TB/s peak (NVIDIA H200
# datasheet) at an assumed 75% achieved: 3 / (0.75 x 4.8e12) = 8.3e-13 s = 0.00083 ns per byte.
reduce_ns_per_byte = 0.00083
mem_gbps = 3600
