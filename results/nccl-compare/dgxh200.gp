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
1024 0.06 0.1194
2048 0.12 0.2387
4096 0.23 0.4772
8192 0.47 0.9534
16384 0.93 1.903
32768 1.84 3.791
65536 3.72 7.525
131072 7.39 14.83
262144 14.75 28.8
524288 29.38 54.44
1048576 52.96 98.16
2097152 88.78 164
4194304 138.4 246.8
8388608 181.9 330
16777216 240.4 397
33554432 300.9 441.9
67108864 368.1 468.3
134217728 412.4 482.8
268435456 432.2 525.9
536870912 442.7 550.5
1073741824 467.6 563.6
2147483648 472.6 570.5
4294967296 477.4 573.9
8589934592 480 575.7
EOD
plot \
  $d2 using 1:2 with linespoints title 'azure-nd-h200-v5 published (NVLS)', \
  $d2 using 1:3 with linespoints dashtype 2 title 'azure-nd-h200-v5 predicted: nvls'
