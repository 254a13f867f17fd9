# throughput.gp — images/s against GPU count (log-log), one line per algorithm, one panel per model,
# with ideal linear scaling from the 1-GPU rate.
load "plots/common.gp"
set multiplot layout 1, words(models) title "Training throughput (" . run . ")"
set logscale xy 2
set ytics ()
do for [i = 0:30] { set ytics add (human2(2**i) 2**i) } # 1k, 2k, 256k: not 262144
set xlabel "GPUs"
set xtics ()
do for [i = 0:20] { set xtics add (human2(2**i) 2**i) }
set ylabel "images/s"
set xrange [0.8:gmax_all * 1.25]
do for [m in models] {
    set title m
    plot datadir . "/ideal_" . m . ".dat" using 1:2 with lines lc rgb "black" dt 2 title "ideal", \
         for [i = 1:words(algos)] datadir . "/eff_" . m . "_" . word(algos, i) . ".dat" using 1:3 \
             with linespoints ls sty(i, 1) dt sty(i, 2) pt sty(i, 3) ps psz(i) title label(i)
}
unset multiplot
