#!/bin/sh
# bench_ratios.sh CSV — busbw of every algorithm over the busbw of `mpi` (same ranks, size and
# placement, same run) at 1 MB, 16 MB and 64 MB, from a ddlbench allreduce CSV.
set -eu
[ $# -eq 1 ] || { echo "usage: bench_ratios.sh ALLREDUCE.csv" >&2; exit 2; }
awk -F, '
/^#/ { next }
!hdr { hdr = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    size = $col["size_B"] + 0
    if (size != 1048576 && size != 16777216 && size != 67108864) next
    key = $col["ranks"] SUBSEP size SUBSEP $col["placement"]
    bw[key, $col["algo"]] = $col["busbw_GBps"]
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    if (!($col["algo"] in have)) { have[$col["algo"]] = 1; if ($col["algo"] != "mpi") algos[++na] = $col["algo"] }
}
END {
    printf "# busbw / busbw(mpi); mpi column in GB/s\n# %5s %9s %5s %8s", "ranks", "size_B", "place", "mpi"
    for (a = 1; a <= na; a++) printf " %22s", algos[a]
    printf "\n"
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
}' "$1"
