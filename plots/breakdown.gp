# breakdown.gp — where a step's time goes at the largest GPU count: compute (forward + backward, the
# allreduces overlap it) split into GEMMs, the other kernels (batch norm, ReLU, residual adds, pooling,
# im2col/col2im; 0 under --compute gemm) and the rest, then exposed communication (waiting after the
# last gradient) and SGD; stacked bars per algorithm, one panel per model.
load "plots/common.gp"
set multiplot layout 1, words(models) title "Step time at the largest GPU count (" . run . ")"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb "black"
set boxwidth 0.6
set ylabel "time per step (ms)"
unset xlabel # the bars are named by their algorithm; the key sits where the label would
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set key outside below center horizontal box # under the panels: it covers no bar and no label
do for [m in models] {
    set title m . " at " . system("cat " . datadir . "/gmax_" . m) . " GPUs"
    plot datadir . "/bd_" . m . ".dat" using 2:xtic(1) lc rgb "#4c72b0" title "GEMM (ms)", \
         "" using 3 lc rgb "#8172b3" title "non-GEMM kernels: BN, ReLU, add, pool, im2col (ms)", \
         "" using 4 lc rgb "#937860" title "other compute (ms)", \
         "" using 5 lc rgb "#dd8452" title "exposed communication (ms)", \
         "" using 6 lc rgb "#55a868" title "SGD (ms)", \
         "" using 0:($2 + $3 + $4 + $5 + $6):(sprintf("%.2f", $5)) with labels rotate by 90 left offset 0, 0.5 \
            font ",9" title "above each bar: exposed communication (ms)"
}
unset multiplot
