# efficiency.gp — scaling efficiency (vs 1 GPU, %) against GPU count, one line per algorithm, one
# panel per model; the ideal 100% line and, for the models in refs (a 2017 platform at 256 GPUs), the
# study's figures (docs/SOURCES.md) as reference points.
load "plots/common.gp"
set multiplot layout 1, words(models) title "Scaling efficiency vs 1 GPU (" . run . ")"
set logscale x 2
set xlabel "GPUs"
set xtics ()
do for [i = 0:20] { set xtics add (human2(2**i) 2**i) }
set ylabel "scaling efficiency (%)"
set xrange [0.8:gmax_all * 1.25]
set yrange [*:105]
set offsets 0, 0, 0, 3
if (!exists("refs")) refs = ""
do for [m in models] {
    set title m
    if (strstrt(" " . refs, " " . m . " ")) {
        plot 100 with lines lc rgb "black" dt 2 title "ideal", \
             for [i = 1:words(algos)] datadir . "/eff_" . m . "_" . word(algos, i) . ".dat" using 1:2 \
                 with linespoints ls sty(i, 1) dt sty(i, 2) pt sty(i, 3) ps psz(i) title label(i), \
             datadir . "/ref_" . m . ".dat" using 1:2 with points pt 6 ps 2 lw 2 lc rgb "black" title "published", \
             "" using 1:2:3 with labels offset char -1, char 1 right notitle
    } else { # no comparable published figure: no points
        plot 100 with lines lc rgb "black" dt 2 title "ideal", \
             for [i = 1:words(algos)] datadir . "/eff_" . m . "_" . word(algos, i) . ".dat" using 1:2 \
                 with linespoints ls sty(i, 1) dt sty(i, 2) pt sty(i, 3) ps psz(i) title label(i)
    }
}
unset multiplot
