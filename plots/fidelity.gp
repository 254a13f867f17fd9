# fidelity.gp — simulated against real time per point (log-log), the y = x line and the ±15% and
# ±35% bands of the goal; one series per kind and rank count. Set by fidelity_report.sh: term, out,
# datadir (series_*.dat: real_us sim_us), series (space-separated names).
load plotsdir . "/common.gp"
set title "ddlbench fidelity: simulated vs real time per point (calibrated platform, this machine)"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set termoption enhanced
set xlabel "real time (µs, median)"
set ylabel "simulated time (µs)"
set key outside right top box
plot x title "sim = real" with lines lc rgb "black" lw 1, \
     1.15 * x title "±15%" with lines lc rgb "#999999" dt 2, 0.85 * x notitle with lines lc rgb "#999999" dt 2, \
     1.35 * x title "±35%" with lines lc rgb "#cccccc" dt 3, 0.65 * x notitle with lines lc rgb "#cccccc" dt 3, \
     for [i = 1:words(series)] datadir . "/series_" . word(series, i) . ".dat" using 1:2 \
         title word(series, i) with points ls i
