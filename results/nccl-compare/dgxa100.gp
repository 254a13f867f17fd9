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
4096 0.17 0.1592
8192 0.33 0.3183
16384 0.67 0.6365
32768 1.37 1.271
65536 2.7 2.538
131072 5.15 5.055
262144 10.11 10.03
524288 19.24 19.74
1048576 36.22 38.29
2097152 53.54 72.17
4194304 71.43 129.5
8388608 89.99 196.1
16777216 109.2 221.8
33554432 132.8 230.5
67108864 166.6 234.7
134217728 174.2 236.8
268435456 213.9 237.9
536870912 221.6 239.2
1073741824 228.1 238.8
2147483648 230.2 238.9
4294967296 230.5 239
8589934592 231.6 239
EOD
plot \
  $d0 using 1:2 with linespoints title 'azure-nd-a100-v4 published (default)', \
  $d0 using 1:3 with linespoints dashtype 2 title 'azure-nd-a100-v4 predicted: nccl-ring'
