# measured by ddlbench gpu-check (peak GEMM rates; tf32 as fp32; mem_gbps: batch norm + ReLU kernels)
gemm_gflops_fp32 = 450.909
gemm_gflops_fp16 = 868.284
reduce_ns_per_byte = 0.000855327
mem_gbps = 3307.21
