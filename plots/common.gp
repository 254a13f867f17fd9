# common.gp — terminal and style shared by every chart. Variables set by plots.sh: term (png|svg),
# out (output file), datadir (the extracted .dat files), models, algos (space-separated words).
if (term eq "svg") { set terminal svg size 1200,520 dynamic font "sans,12" background "white" } \
else { set terminal pngcairo size 1200,520 font "sans,10" }
set termoption noenhanced
set output out
set grid lc rgb "#dddddd"
set key outside right top box # beside the panel: it covers no line, bar or label
set datafile missing "NA"
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.2
set style line 2 lc rgb "#ff7f0e" lw 2 pt 5 ps 1.2
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.3
set style line 4 lc rgb "#d62728" lw 2 pt 11 ps 1.3
set style line 5 lc rgb "#9467bd" lw 2 pt 13 ps 1.3
set style line 6 lc rgb "#8c564b" lw 2 pt 3 ps 1.3
set style line 7 lc rgb "#e377c2" lw 2 pt 1 ps 1.3
set style line 8 lc rgb "#7f7f7f" lw 2 pt 2 ps 1.3
# styles (from plots.sh): per series "ls:dash:point" — dashed for the alpha-beta-gamma model's rows
# (series "ALGO-model"), solid for simulated or measured ones; every algorithm its own open marker,
# larger by series (psz), so identical lines stay told apart: the markers nest instead of hiding
sty(i, k) = int(word(system("echo " . word(styles, i) . " | tr : ' '"), k))
psz(i) = 0.8 + 1.4 * (i - 1) / (words(algos) > 1 ? words(algos) - 1 : 1)
# human ticks on a log2 axis: 1, 2, ... 512, 1k, 2k, ... 256k, 1M
human2(v) = v < 1024 ? sprintf("%d", v) : v < 1048576 ? sprintf("%dk", v / 1024) : sprintf("%dM", v / 1048576)
label(i) = strstrt(word(algos, i), "-model") ? word(algos, i)[1:strstrt(word(algos, i), "-model") - 1] . " (a-b-g model)" \
           : word(algos, i)
