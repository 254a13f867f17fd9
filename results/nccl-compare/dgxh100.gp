# gnuplot dgxh100.gp: published and predicted (simulated) allreduce busbw on dgxh100 (ddlbench nccl-compare)
set terminal svg size 900,520 dynamic
set output 'dgxh100.svg'
set logscale x 2
set format x '%.0s%cB'
set xlabel 'message size (bytes)'
set ylabel 'busbw (GB/s)'
set key left top
set grid
set title 'dgxh100: nccl-tests published vs ddlbench (simulated)'
$d1 << EOD
1024 0.07 0.0398
2048 0.14 0.0796
4096 0.27 0.1592
8192 0.53 0.3182
16384 0.95 0.6358
32768 1.71 1.27
65536 2.72 2.53
131072 5.4 5.026
262144 10.86 9.918
524288 21.35 19.32
1048576 43.7 36.72
2097152 81.93 66.81
4194304 128.7 113.2
8388608 172.1 173.3
16777216 234.4 236.1
33554432 295.5 288.2
67108864 361.8 324
134217728 400.6 345.5
268435456 423.4 357.3
536870912 438.5 363.6
1073741824 466.4 367
2147483648 472.4 368.5
4294967296 475.5 369.2
8589934592 478.9 369.6
EOD
$d3 << EOD
8589934592 320 367
EOD
$d4 << EOD
2147483648 367.5 368.5
4294967296 367.5 369.2
EOD
$d5 << EOD
4294967296 370 369.2
EOD
plot \
  $d1 using 1:2 with linespoints title 'azure-nd-h100-v5 published (NVLS)', \
  $d1 using 1:3 with linespoints dashtype 2 title 'azure-nd-h100-v5 predicted: nccl-ring', \
  $d3 using 1:2 with linespoints title 'nccl1221-h100-4n published (default)', \
  $d3 using 1:3 with linespoints dashtype 2 title 'nccl1221-h100-4n predicted: nccl-ring', \
  $d4 using 1:2 with linespoints title 'nccl1455-h100-ring published (Ring)', \
  $d4 using 1:3 with linespoints dashtype 2 title 'nccl1455-h100-ring predicted: nccl-ring', \
  $d5 using 1:2 with linespoints title 'nvidia-h100-ring published (Ring)', \
  $d5 using 1:3 with linespoints dashtype 2 title 'nvidia-h100-ring predicted: nccl-ring'
