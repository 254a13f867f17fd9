#!/bin/sh
# bench_ratios.sh CSV [BOUNDS] — busbw of every algorithm over the busbw of `mpi` (same ranks, size and
# placement, same run) at 1 MB, 16 MB and 64 MB, from a ddlbench allreduce, reduce-scatter or allgather CSV.
# BOUNDS (make cluster-bench): lines "algo size_B bound_us", each algorithm's link bound — the bytes
# through the busiest node NIC divided by the NIC rate; then a second table of the same rows gives
# each algorithm's median time over its bound (1.00 = at the bound, 1.25 = 80% of it).
set -eu
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: bench_ratios.sh CSV [BOUNDS]" >&2; exit 2; }
awk -F, -v bounds="${2:-}" '
BEGIN {
    if (bounds != "") while ((getline line < bounds) > 0) {
        split(line, b, " ")
        if (line !~ /^#/ && b[3] != "") bound[b[1], b[2]] = b[3]
    }
}
/^#/ { next }
!hdr { hdr = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    size = $col["size_B"] + 0
    if (size != 1048576 && size != 16777216 && size != 67108864) next
    key = $col["ranks"] SUBSEP size SUBSEP $col["placement"]
    bw[key, $col["algo"]] = $col["busbw_GBps"]
    t[key, $col["algo"]] = $col["time_us_median"]
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    if (!($col["algo"] in have)) { have[$col["algo"]] = 1; if ($col["algo"] != "mpi") algos[++na] = $col["algo"] }
}
function head(what, first) {
    printf "# %s\n# %5s %9s %5s %8s", what, "ranks", "size_B", "place", first
    for (a = 1; a <= na; a++) printf " %22s", algos[a]
    printf "\n"
}
END {
    head("busbw / busbw(mpi); mpi column in GB/s", "mpi")
    for (k = 1; k <= nk; k++) {
        split(keys[k], f, SUBSEP)
        m = bw[keys[k], "mpi"]
        printf "  %5s %9s %5s %8.3f", f[1], f[2], f[3], m
        for (a = 1; a <= na; a++) {
            v = bw[keys[k], algos[a]]
            if (v == "" || m == 0) printf " %22s", "-"; else printf " %22.2f", v / m
        }
        printf "\n"
    }
    if (bounds == "") exit
    head("median time / link bound (bytes through the busiest node NIC / rate); - = no bound known", "mpi")
    for (k = 1; k <= nk; k++) {
        split(keys[k], f, SUBSEP)
        printf "  %5s %9s %5s", f[1], f[2], f[3]
        for (a = 0; a <= na; a++) {
            al = a ? algos[a] : "mpi"; v = t[keys[k], al]; bd = bound[al, f[2]]
            if (v == "" || bd == "" || bd <= 0) printf a ? " %22s" : " %8s", "-"
            else printf a ? " %22.2f" : " %8.2f", v / bd
        }
        printf "\n"
    }
}' "$1"
