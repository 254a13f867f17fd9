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
1024 0.07 0.1194
2048 0.14 0.2387
4096 0.27 0.4772
8192 0.53 0.9534
16384 0.95 1.903
32768 1.71 3.791
65536 2.72 7.525
131072 5.4 14.83
262144 10.86 28.8
524288 21.35 54.44
1048576 43.7 98.16
2097152 81.93 164
4194304 128.7 246.8
8388608 172.1 330
16777216 234.4 397
33554432 295.5 441.9
67108864 361.8 468.3
134217728 400.6 482.8
268435456 423.4 525.9
536870912 438.5 550.5
1073741824 466.4 563.6
2147483648 472.4 570.5
4294967296 475.5 573.9
8589934592 478.9 575.7
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
  $d1 using 1:3 with linespoints dashtype 2 title 'azure-nd-h100-v5 predicted: nvls', \
  $d3 using 1:2 with linespoints title 'nccl1221-h100-4n published (default)', \
  $d3 using 1:3 with linespoints dashtype 2 title 'nccl1221-h100-4n predicted: nccl-ring', \
  $d4 using 1:2 with linespoints title 'nccl1455-h100-ring published (Ring)', \
  $d4 using 1:3 with linespoints dashtype 2 title 'nccl1455-h100-ring predicted: nccl-ring', \
  $d5 using 1:2 with linespoints title 'nvidia-h100-ring published (Ring)', \
  $d5 using 1:3 with linespoints dashtype 2 title 'nvidia-h100-ring predicted: nccl-ring'
