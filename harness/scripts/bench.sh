#!/bin/sh
# bench.sh — what `make bench` runs: the reduction-kernel micro-benchmark, then the allreduce sweep
# (1 KB .. 256 MB, float32 sum) at 2 and 4 ranks over every registered algorithm plus Open MPI's own
# ring and Rabenseifner forced through MCA parameters (rows mpi-ompi-ring, mpi-ompi-rabenseifner);
# all rows go to results/bench/allreduce.csv, then a table of busbw ratios against `mpi`; then the
# reduce-scatter and allgather sweeps (1 KB .. 64 MB, the whole vector as nccl-tests, every algorithm
# that has them, `mpi` = MPI_Reduce_scatter_block / MPI_Allgather) to reduce-scatter.csv and
# allgather.csv, with their ratio tables ratios-reduce-scatter.txt and ratios-allgather.txt.
# Fewer iterations for bigger messages keep the whole run to a few minutes on 2 cores.
# Environment: BUILD (default build), OUT (default results/bench), NPS (default "2 4"),
# MAX (largest size, default 256M), RSAG_MAX (largest reduce-scatter/allgather size, default 64M or
# MAX if smaller; RSAG_MAX=0: no such sweeps), MPIRUN (launcher, see mpilaunch.sh). For `make cluster-bench`
# (harness/scripts/cluster_bench.sh): LAUNCH (a prefix before every mpilaunch.sh, e.g. emucluster.sh
# run --ppn 2 --), KERNELS=0 (no kernel benchmark), RANGES (the size ranges below), BOUNDS (a file of
# link bounds for bench_ratios.sh), BENCH_COMMAND (the command recorded in the CSV).
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-results/bench}
NPS=${NPS:-2 4}
MAX=${MAX:-256M}
here=$(dirname "$0")
exe=$BUILD/ddlbench
parts=$OUT/parts
. "$here/outdir.sh"
# everything checked before the first measurement
[ -x "$exe" ] || outdir_fail BUILD "$exe not built (make all)"
for np in $NPS; do case $np in ''|*[!0-9]*|0*) outdir_fail NPS "expected rank counts like \"2 4\", got \"$NPS\"";; esac
    done
[ -n "$NPS" ] || outdir_fail NPS "expected rank counts like \"2 4\", got \"\""
"$exe" allreduce -e "$MAX" --help >/dev/null 2>&1 || outdir_fail MAX "expected a size like 256M, got \"$MAX\""
RSAG_MAX=${RSAG_MAX:-64M}
[ "$RSAG_MAX" = 0 ] || "$exe" allreduce -e "$RSAG_MAX" --help >/dev/null 2>&1 ||
    outdir_fail RSAG_MAX "expected a size like 64M or 0, got \"$RSAG_MAX\""
outdir_ready OUT "$OUT"
outdir_ready OUT "$parts"
for f in kernels.txt allreduce.csv ratios.txt reduce-scatter.csv allgather.csv ratios-reduce-scatter.txt \
    ratios-allgather.txt; do outfile_ready OUT "$OUT/$f"; done
rm -f "$parts"/*.csv
trap 'rm -f "$OUT"/*.tmp "$parts"/*.tmp' EXIT
trap 'exit 130' INT TERM

LAUNCH=${LAUNCH:-}
if [ "${KERNELS:-1}" = 1 ]; then
    echo "# ddlbench kernels (one process)"
    "$exe" kernels -s 256K,4M,64M -r 11 >"$OUT/kernels.txt.tmp" # set -e: a failure leaves no kernels.txt
    cat "$OUT/kernels.txt.tmp"
    mv "$OUT/kernels.txt.tmp" "$OUT/kernels.txt"
fi

# ranges: "min max warm-up iterations"
RANGES=${RANGES:-"1K 512K 5 40
1M 8M 2 15
16M $MAX 1 5"}

ompi_flags() { # algorithm number of coll_tuned_allreduce_algorithm
    echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm $1"
}

PAIRS="4:mpi-ompi-ring 6:mpi-ompi-rabenseifner" # coll_tuned_allreduce_algorithm number:row label
"${MPIRUN:-mpirun}" --version 2>&1 | grep -q 'Open MPI' || PAIRS="" # the MCA baselines are Open MPI's

for np in $NPS; do
    echo "$RANGES" | while read -r lo hi w n; do
        echo "# np=$np $lo..$hi: all algorithms"
        $LAUNCH sh "$here/mpilaunch.sh" "$np" "$exe" allreduce -b "$lo" -e "$hi" -w "$w" -n "$n" \
            --csv "$parts/np${np}_${lo}_all.csv" </dev/null # mpirun would eat the ranges on stdin
        for pair in $PAIRS; do
            echo "# np=$np $lo..$hi: ${pair#*:}"
            MPIRUN_FLAGS="$(ompi_flags "${pair%%:*}")" $LAUNCH sh "$here/mpilaunch.sh" "$np" "$exe" allreduce -a mpi \
                --label "${pair#*:}" -b "$lo" -e "$hi" -w "$w" -n "$n" \
                --csv "$parts/np${np}_${lo}_${pair#*:}.csv" </dev/null
        done
    done
done

merge() { # CSV PARTS...: the first part's provenance (# lines) and header, then every part's rows
    csv=$1; shift
    { grep '^#' "$1" | grep -v '^# command:'
        echo "# command: ${BENCH_COMMAND:-sh harness/scripts/bench.sh (MPIRUN=${MPIRUN:-mpirun})}"
      grep -v '^#' "$1" | head -n 1
      for f in "$@"; do grep -v '^#' "$f" | tail -n +2; done | sort -s -t, -k7,7n -k1,1n; } >"$csv.tmp"
    mv "$csv.tmp" "$csv"
    echo "# wrote $csv ($(($(wc -l <"$csv") - 1)) rows)"
}
ratios() { # CSV OUTFILE [BOUNDS]
    sh "$here/bench_ratios.sh" "$1" ${3:-} >"$2.tmp"
    cat "$2.tmp"
    mv "$2.tmp" "$2"
}
merge "$OUT/allreduce.csv" "$parts"/np*.csv
ratios "$OUT/allreduce.csv" "$OUT/ratios.txt" "${BOUNDS:-}"

[ "$RSAG_MAX" = 0 ] && exit 0
bytes() { echo "$1" | awk '{ n = $0 + 0; u = toupper(substr($0, length($0)));
    print n * (u == "K" ? 2^10 : u == "M" ? 2^20 : u == "G" ? 2^30 : 1) }'; }
top=$(bytes "$RSAG_MAX")
for coll in reduce-scatter allgather; do
    for np in $NPS; do
        echo "$RANGES" | while read -r lo hi w n; do # the allreduce's ranges, cut at RSAG_MAX
            [ "$(bytes "$lo")" -le "$top" ] || continue
            [ "$(bytes "$hi")" -le "$top" ] || hi=$RSAG_MAX
            echo "# $coll np=$np $lo..$hi: all algorithms"
            $LAUNCH sh "$here/mpilaunch.sh" "$np" "$exe" $coll -b "$lo" -e "$hi" -w "$w" -n "$n" \
                --csv "$parts/${coll}_np${np}_${lo}.csv" </dev/null
        done
    done
    merge "$OUT/$coll.csv" "$parts/${coll}"_np*.csv
    ratios "$OUT/$coll.csv" "$OUT/ratios-$coll.txt"
done
