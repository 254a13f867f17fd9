# gnuplot dgxh200.gp: published and predicted (simulated) allreduce busbw on dgxh200 (ddlbench nccl-compare)
set terminal svg size 900,520 dynamic
set output 'dgxh200.svg'
set logscale x 2
set format x '%.0s%cB'
set xlabel 'message size (bytes)'
set ylabel 'busbw (GB/s)'
set key left top
set grid
set title 'dgxh200: nccl-tests published vs ddlbench (simulated)'
$d2 << EOD
1024 0.06 0.0398
2048 0.12 0.0796
4096 0.23 0.1592
8192 0.47 0.3182
16384 0.93 0.6358
32768 1.84 1.27
65536 3.72 2.53
131072 7.39 5.026
262144 14.75 9.918
524288 29.38 19.32
1048576 52.96 36.72
2097152 88.78 66.81
4194304 138.4 113.2
8388608 181.9 173.3
16777216 240.4 236.1
33554432 300.9 288.2
67108864 368.1 324
134217728 412.4 345.5
268435456 432.2 357.3
536870912 442.7 363.6
1073741824 467.6 367
2147483648 472.6 368.5
4294967296 477.4 369.2
8589934592 480 369.6
EOD
plot \
  $d2 using 1:2 with linespoints title 'azure-nd-h200-v5 published (NVLS)', \
  $d2 using 1:3 with linespoints dashtype 2 title 'azure-nd-h200-v5 predicted: nccl-ring'
