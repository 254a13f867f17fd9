# study.gp — the catalogue's published figures against their predicted bands: per entry the band
# (min-max efficiency over its unknowns) as a bar, its centre and the published figure as points.
# Set by harness/scripts/study.sh: term, out, csv (bands.csv: n,entry,lo,hi,centre,published), plotsdir.
load plotsdir . "/common.gp"
set datafile separator ","
set title "Published scaling efficiency against the predicted band (ddlbench study)"
set ylabel "scaling efficiency against the entry's baseline (%)"
set xtics rotate by -35 left noenhanced
set key outside right top box
set yrange [*:101] # down to the lowest band end
set offsets 0.5, 0.5, 0, 0
set bmargin 11
plot csv using 1:5:3:4:xticlabels(2) skip 1 title "predicted band (centre, min-max)" with yerrorbars ls 1, \
     csv using 1:6 skip 1 title "published" with points ls 4 ps 1.8
