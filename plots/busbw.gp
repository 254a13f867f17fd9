# busbw.gp — allreduce bus bandwidth against message size, one line per algorithm (ddlbench
# allreduce CSV: the largest rank count, out-of-place). Extra variable: bwtitle.
load "plots/common.gp"
set title bwtitle
set logscale x 2
set xtics ()
do for [i = 0:40:2] { set xtics add (i < 10 ? sprintf("%d B", 2**i) : i < 20 ? sprintf("%d KiB", 2**(i-10)) : \
    i < 30 ? sprintf("%d MiB", 2**(i-20)) : sprintf("%d GiB", 2**(i-30)) 2**i) }
set xlabel "message size (bytes)"
set ylabel "bus bandwidth (GB/s)"
plot for [i = 1:words(algos)] datadir . "/bw_" . word(algos, i) . ".dat" using 1:2 \
    with linespoints ls sty(i, 1) dt sty(i, 2) pt sty(i, 3) ps psz(i) title word(algos, i)
