#!/bin/sh
# sim_bench.sh — simulated allreduce against its α-β-γ link bound on a platform of today (`make
# sim-bench`): for each node count, the SMPI run of `ddlbench-sim allreduce --platform P` (libddl's
# segments and depth then sized from the platform's links, collectives/links.c) beside `ddlbench model
# cost` of the same algorithm, size and machine; printed as the ratio bound / simulated time (1.0 = the
# model's time; the issue's goal is >= 0.9 at >= 64 MB), busbw, and nccl-tests' "Avg bus bandwidth"
# line per run (the mean busbw over its sizes, in-place and out-of-place); each row also beside its bound (the
# NVLink bound on one node, the per-node NIC bound across nodes: issue 46's goal is >= 0.9 of it at >= 256 MB),
# at the links' line rates (intra_line_bw, nic_line_bw) and at their achieved rates (intra_bw, nic_bw: what the
# simulator runs, docs/SOURCES.md §15), with busbw's fraction of each; and per node count the best algorithm's
# fractions at >= 256 MB. A platform without line rates has one rate a link: both bounds are then the same.
#   --platform P     preset or platform file (default dgxh200: DGX H200 nodes, NVSwitch, a NDR NIC per GPU)
#   --nodes LIST     node counts, comma list (default 1,4,32)
#   --algos LIST     default ring,rhd,ddl
#   --min-bytes S / --max-bytes S   sizes, factor 4 (default 64M .. 256M)
#   --profile P      device profile (default h200)
#   --out DIR        also write DIR/sim_bench.csv and the raw CSVs (default: none)
#   --build DIR      default build
#   --partial-leaf   a platform file's leaf over fewer nodes than leaf_nodes, partly filled (as `ddlbench platform`)
#   -h, --help       this text
# CSV (--out): nodes,ranks,algo,size_B,placement,sim_us,model_us,ratio,busbw_GBps, then bound_GBps and of_bound
# (the line-rate bound, busbw / it), achieved_bound_GBps and of_achieved_bound (the achieved-rate bound, busbw / it).
# Exit: 0, 1 a launch failed, 2 bad options.
set -u
BUILD=build PLATFORM=dgxh200 NODES=1,4,32 ALGOS=ring,rhd,ddl MINB=64M MAXB=256M PROFILE=h200 OUT= PL=
die() { echo "sim_bench.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in -h|--help) sed -n '2,/^# Exit/s/^# \{0,1\}//p' "$0"; exit 0;; esac
    [ "$1" = --partial-leaf ] && { PL=--partial-leaf; shift; continue; }
    [ $# -ge 2 ] || die "$1: expected a value"
    case $1 in
        --platform) PLATFORM=$2;; --nodes) NODES=$2;; --algos) ALGOS=$2;; --min-bytes) MINB=$2;;
        --max-bytes) MAXB=$2;; --profile) PROFILE=$2;; --out) OUT=$2;; --build) BUILD=$2;;
        *) die "unknown option \"$1\" (see the header of harness/scripts/sim_bench.sh)";;
    esac
    shift 2
done
cd "$(dirname "$0")/../.." || exit 1
EXE=$BUILD/ddlbench SIM=$BUILD/sim/ddlbench-sim
[ -x "$EXE" ] && [ -x "$SIM" ] || die "expected $EXE and $SIM (make all sim)"
for n in $(echo "$NODES" | tr , ' '); do
    case $n in ''|*[!0-9]*) die "--nodes: expected a comma list of positive integers, got \"$NODES\"";; esac
    [ "$n" -ge 1 ] || die "--nodes: expected positive integers, got \"$NODES\""
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -z "$OUT" ] || mkdir -p "$OUT" || die "--out: cannot create $OUT"
mkdir "$tmp/probe" && gpn=$("$EXE" platform --platform "$PLATFORM" --nodes "${NODES%%,*}" $PL -o "$tmp/probe" 2>&1 \
    >/dev/null | head -1)
[ -f "$tmp/probe/hostfile" ] || die "--platform: $gpn"
gpn=$(($(wc -l <"$tmp/probe/hostfile") / ${NODES%%,*}))
# the links (GB/s): a GPU's link and the NICs per node, at the line rates (intra_line_bw, nic_line_bw) and at
# the achieved ones (intra_bw, nic_bw: the DGX presets simulate these, docs/SOURCES.md §15); no line rate: the one
"$EXE" platform --export "$PLATFORM" -o "$tmp/links" >/dev/null 2>&1 || die "--platform: cannot export $PLATFORM"
links=$(awk -F' *= *' '
    function gbs(v,   x, u) { x = v + 0; u = v; sub(/^[0-9.eE+-]+ */, "", u)
        if (u ~ /^[Tt]bit/) return x * 125; if (u ~ /^[Gg]bit/) return x / 8; if (u ~ /^[Mm]bit/) return x / 8000
        if (u ~ /^T/) return x * 1000; if (u ~ /^G/) return x; if (u ~ /^M/) return x / 1000
        if (u ~ /^[kK]/) return x / 1e6
        return x / 1e9 }
    $1 == "intra_bw" { i = gbs($2) } $1 == "nic_bw" { n = gbs($2) } $1 == "nics" { k = $2 + 0 }
    $1 == "inter_bw" { n = gbs($2) } # one NIC (or pipe) a node: nics is then 1, nic_line_bw in that form
    $1 == "intra_line_bw" { il = gbs($2) } $1 == "nic_line_bw" { nl = gbs($2) }
    END { if (!(il > 0)) il = i; if (!(nl > 0)) nl = n; k = k > 1 ? k : 1
          printf "%.9g %.9g %.9g %.9g", il, nl * k, i, n * k }' "$tmp/links")
read -r line_i line_n ach_i ach_n <<EOF
$links
EOF
echo "# sim-bench: $PLATFORM ($gpn GPUs per node), profile $PROFILE, $ALGOS, $MINB..$MAXB;" \
    "ratio = model time / simulated time"
echo "# bound: busbw of a GPU's link on one node; across N nodes the per-node NIC bound of a hierarchical"
echo "#   allreduce, NICs x N/(N-1) x (p-1)/p; at line rates (GPU link $line_i GB/s, NICs $line_n GB/s): bound,"
echo "#   of_bound = busbw / bound; at achieved rates (GPU link $ach_i GB/s, NICs $ach_n GB/s): achvd, of_achvd"
echo "# nodes ranks algo          size_B  place   sim_us  model_us  ratio  busbw_GBps  bound  of_bound  achvd  of_achvd"
echo "nodes,ranks,algo,size_B,placement,sim_us,model_us,ratio,busbw_GBps,bound_GBps,of_bound,achieved_bound_GBps,\
of_achieved_bound" >"$tmp/all.csv"
st=0
for n in $(echo "$NODES" | tr , ' '); do
    np=$((n * gpn)) dir=$tmp/p$n
    mkdir "$dir" && "$EXE" platform --platform "$PLATFORM" --nodes "$n" $PL -o "$dir" >/dev/null || { st=2; continue; }
    if ! sh harness/scripts/launch.sh -b simulated -n "$np" -g "$gpn" -p "$dir" "$SIM" allreduce -a "$ALGOS" \
        -b "$MINB" -e "$MAXB" -f 4 -w 0 -n 1 -c 0 --profile "$PROFILE" --platform "$PLATFORM" \
        --csv "$tmp/sim$n.csv" >"$tmp/sim$n.log" 2>&1 </dev/null; then
        echo "sim_bench.sh: $n nodes: the simulation failed: $(grep -v '^#' "$tmp/sim$n.log" | tail -1)" >&2
        st=1; continue
    fi
    grep -v '^#' "$tmp/sim$n.csv" | awk -F, 'NR > 1 { print $1 }' | sort -un >"$tmp/sizes"
    : >"$tmp/model$n"
    while read -r b; do
        "$EXE" model cost --algo "$ALGOS" --platform "$PLATFORM" --nodes "$n" --bytes "$b" --profile "$PROFILE" $PL |
            awk -v b="$b" '!/^#/ { print $1, b, $2 }' >>"$tmp/model$n" || st=1
    done <"$tmp/sizes"
    grep -v '^#' "$tmp/sim$n.csv" | awk -F, -v n="$n" -v mf="$tmp/model$n" -v links="$links" '
        BEGIN { while ((getline l < mf) > 0) { split(l, f, " "); m[f[1], f[2]] = f[3] }; split(links, L, " ") }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { a = $c["algo"]; b = $c["size_B"]; t = $c["time_us_median"]; bw = $c["busbw_GBps"]; r = m[a, b] / t
          p = $c["ranks"]; fac = n == 1 ? 1 : n / (n - 1) * (p - 1) / p
          bd = fac * (n == 1 ? L[1] : L[2]); ba = fac * (n == 1 ? L[3] : L[4])
          printf "%7d %5d %-5s %12d %5s %9.1f %9.1f %6.3f %11.2f %6.1f %9.3f %6.1f %9.3f\n", n, p, a, b,
              $c["placement"], t, m[a, b], r, bw, bd, bw / bd, ba, bw / ba
          print n "," p "," a "," b "," $c["placement"] "," t "," m[a, b] "," r "," bw "," bd "," bw / bd "," ba \
              "," bw / ba >> "'"$tmp/all.csv"'"
          sum += bw; k++ }
        END { if (k) printf "# Avg bus bandwidth    : %.2f  (%d nodes: mean busbw over %d rows, " \
                "nccl-tests convention)\n", sum / k, n, k }'
    [ -z "$OUT" ] || cp "$tmp/sim$n.csv" "$OUT/allreduce-$n.csv"
done
awk -F, 'NR > 1 && $4 >= 67108864 { if (!k++ || $8 < lo) { lo = $8; w = $3 " at " $1 " nodes, " $4 " B" } }
    END { if (k) printf "# lowest ratio at >= 64 MB: %.3f (%s)\n", lo, w }' "$tmp/all.csv"
# the best algorithm per node count at >= 256 MB (its largest size there), against both bounds (issue 46: >= 0.9)
awk -F, 'NR > 1 && $4 >= 268435456 { if (!(($1) in best) || $11 > best[$1]) {
        best[$1] = $11; w[$1] = sprintf("%s %s B %s: busbw %.2f of bound %.1f", $3, $4, $5, $9, $10)
        a[$1] = sprintf("of achieved %.1f = %.3f", $12, $13) } }
    END { for (n in best) printf "# best at >= 256 MB, %d nodes: %s = %.3f, %s\n", n, w[n], best[n], a[n] }' \
    "$tmp/all.csv" | sort -k7n
if [ -n "$OUT" ]; then cp "$tmp/all.csv" "$OUT/sim_bench.csv.tmp" && mv "$OUT/sim_bench.csv.tmp" "$OUT/sim_bench.csv"
    fi
exit $st
