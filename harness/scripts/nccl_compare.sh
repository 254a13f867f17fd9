#!/bin/sh
# nccl_compare.sh — `make nccl-compare`: the published nccl-tests runs of the catalogue
# (harness/sim/nccl) predicted by simulation. For each machine, node count and algorithm the entries
# need (`ddlbench nccl-compare --plan`: one simulation per key, shared by the entries of one machine),
# an SMPI run of `ddlbench-sim allreduce` in place at the entries' sizes up to --max-bytes; then
# `ddlbench nccl-compare --sim` prints published against predicted (points above --max-bytes from the
# α-β-γ model, said per point) and writes report.md, compare.csv and MACHINE.gp (+ .svg with gnuplot).
#   --out DIR        results folder (default results/nccl-compare)
#   --max-bytes S    largest simulated size (default 512M: the 1 GiB point alone takes ~1 min a machine)
#   --min-bytes S    smallest size compared (default 1K)
#   --entries LIST   only these catalogue entries (default all)
#   --build DIR      default build
# Exit: 0, 1 a launch failed, 2 bad options.
set -u
BUILD=build OUT=results/nccl-compare MAXB=512M MINB=1K ENTRIES=
die() { echo "nccl_compare.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "$1: expected a value"
    case $1 in
        --out) OUT=$2;; --max-bytes) MAXB=$2;; --min-bytes) MINB=$2;; --entries) ENTRIES=$2;; --build) BUILD=$2;;
        *) die "unknown option \"$1\" (see the header of harness/scripts/nccl_compare.sh)";;
    esac
    shift 2
done
cd "$(dirname "$0")/../.." || exit 1
EXE=$BUILD/ddlbench SIM=$BUILD/sim/ddlbench-sim
[ -x "$EXE" ] && [ -x "$SIM" ] || die "expected $EXE and $SIM (make all sim)"
bytes() { # SIZE with K/M/G/T (binary) -> bytes, or nothing
    echo "$1" | awk '/^[0-9]+[KMGT]?$/ { n = $0 + 0; s = substr($0, length($0)); m = 1
        if (s == "K") m = 1024; else if (s == "M") m = 1048576; else if (s == "G") m = 1073741824
        else if (s == "T") m = 1099511627776; printf "%.0f\n", n * m }'
}
maxb=$(bytes "$MAXB"); [ -n "$maxb" ] && [ "$maxb" -gt 0 ] ||
    die "--max-bytes: expected a size like 512M, got \"$MAXB\""
[ -n "$(bytes "$MINB")" ] || die "--min-bytes: expected a size like 1K, got \"$MINB\""
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
set -- --min-bytes "$MINB"
[ -z "$ENTRIES" ] || set -- "$@" --entries "$ENTRIES"
"$EXE" nccl-compare --plan "$@" >"$tmp/plan" || exit 2
mkdir -p "$OUT" || die "--out: cannot create $OUT"
mkdir "$tmp/sim"
awk '{ k = $1; if (!(k in lo) || $6 < lo[k]) lo[k] = $6; if ($7 > hi[k]) hi[k] = $7; w[k] = $2 " " $3 " " $4 " " $5 }
     END { for (k in w) print k, w[k], lo[k], hi[k] }' "$tmp/plan" | sort >"$tmp/keys"
st=0
while read -r key machine nodes gpn algo lo hi; do
    [ "$hi" -le "$maxb" ] || hi=$maxb
    if [ "$lo" -gt "$hi" ]; then echo "# $key: every point above --max-bytes $MAXB: the model's"; continue; fi
    echo "# $key: simulating $algo on $machine x $nodes ($((nodes * gpn)) ranks), $lo..$hi B"
    mkdir "$tmp/p-$key" && "$EXE" platform --platform "$machine" --nodes "$nodes" -o "$tmp/p-$key" >/dev/null || { st=2
        continue; }
    if ! sh harness/scripts/launch.sh -b simulated -n $((nodes * gpn)) -g "$gpn" -p "$tmp/p-$key" "$SIM" allreduce \
        -a "$algo" -b "$lo" -e "$hi" -f 2 -w 0 -n 1 -c 0 --place in --platform "$machine" \
        --csv "$tmp/sim/$key.csv" >"$tmp/$key.log" 2>&1 </dev/null; then
        echo "nccl_compare.sh: $key: the simulation failed: $(grep -v '^#' "$tmp/$key.log" | tail -1)" >&2
        st=1; rm -f "$tmp/sim/$key.csv"
    fi
done <"$tmp/keys"
"$EXE" nccl-compare --sim "$tmp/sim" --out "$OUT" "$@" || exit $?
mkdir -p "$OUT/sim" && for f in "$tmp"/sim/*.csv; do [ -f "$f" ] && cp "$f" "$OUT/sim/"; done
if command -v gnuplot >/dev/null 2>&1; then
    (cd "$OUT" && for g in *.gp; do gnuplot "$g" || echo "nccl_compare.sh: gnuplot $g failed" >&2; done)
fi
echo "# nccl-compare: $OUT/report.md"
exit $st
