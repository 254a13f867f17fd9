# gnuplot dgxa100.gp: published and predicted (simulated) allreduce busbw on dgxa100 (ddlbench nccl-compare)
set terminal svg size 900,520 dynamic
set output 'dgxa100.svg'
set logscale x 2
set format x '%.0s%cB'
set xlabel 'message size (bytes)'
set ylabel 'busbw (GB/s)'
set key left top
set grid
set title 'dgxa100: nccl-tests published vs ddlbench (simulated)'
$d0 << EOD
1024 0.04 0.0398
2048 0.08 0.07959
4096 0.17 0.1591
8192 0.33 0.318
16384 0.67 0.6352
32768 1.37 1.267
65536 2.7 2.521
131072 5.15 4.989
262144 10.11 9.775
524288 19.24 18.79
1048576 36.22 34.84
2097152 53.54 60.85
4194304 71.43 97.09
8388608 89.99 138.2
16777216 109.2 175.4
33554432 132.8 202.7
67108864 166.6 219.8
134217728 174.2 229.4
268435456 213.9 234.6
536870912 221.6 236
1073741824 228.1 238.7
2147483648 230.2 239.4
4294967296 230.5 239.7
8589934592 231.6 239.8
EOD
plot \
  $d0 using 1:2 with linespoints title 'azure-nd-a100-v4 published (default)', \
  $d0 using 1:3 with linespoints dashtype 2 title 'azure-nd-a100-v4 predicted: nccl-ring'
