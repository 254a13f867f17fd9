# jitter.gp — scaling efficiency at `gpus` simulated GPUs against train --jitter: the median with
# min-max bars over the timed steps. Set by harness/scripts/jitter.sh: term, out, csv, gpus, plotsdir.
load plotsdir . "/common.gp"
set datafile separator ","
set title sprintf("ResNet-50 on %s simulated GPUs (minsky, p100, ddl): efficiency vs per-rank jitter", gpus)
set xlabel "jitter: mean extra GEMM time per rank and step (%), Exp(1) draws"
set ylabel "scaling efficiency vs 1 GPU (%)"
set key outside right top box
set yrange [0:105]
set offsets 0.5, 0.5, 0, 0
plot csv using 1:7:8:9 skip 1 title "median (min-max over steps)" with yerrorlines ls 1
