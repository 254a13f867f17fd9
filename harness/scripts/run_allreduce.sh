#!/bin/sh
# run_allreduce.sh RUN_DIR — the run's own allreduce sweep (`make run` after the training sweep), so
# its busbw chart shows the platform it ran on, not this machine's CPUs: RUN_DIR/allreduce.csv, busbw
# against size per algorithm, in-place and out-of-place (nccl-tests' columns), at the run's largest
# machine (its NODES x GPUS_PER_NODE), read from RUN_DIR/scaling.csv's provenance:
#   sim    ddlbench-sim allreduce on the run's platform (libddl's segments sized from its links),
#          1 KiB .. 64 MiB by factors of 8, one timed iteration each (SimGrid's time is exact), up to
#          AR_SIM_MAX ranks (default 64); above, the model's rows instead, said in the CSV's source
#          line: 256 simulated ranks took 125 s of `make run NODES=64`'s 233 s (issue 48), and the
#          model is held within 10% of the simulation on the same links (tests/sim_model.sh);
#   model  ddlbench model cost at the same sizes (time_us_median the alpha-beta-gamma time);
#   mpi    the allocation's own sweep, which sweep.sh ran at each scale (RUN_DIR/allreduce/allreduce-G.csv,
#          ddlbench allreduce 1K..64M on the launch's nodes): joined here, the provenance lines of the
#          largest, the rows of all (ranks column), so the chart (plots.sh: the largest) is the run's own;
#   emu:   nothing (the emulated cluster is gone; plots.sh then says whose CSV it drew: host, date).
# Written whole (allreduce.csv.tmp, renamed). Exit 0, 1 a launch failed, 2 bad input.
set -eu
[ $# -eq 1 ] || { echo "usage: run_allreduce.sh RUN_DIR" >&2; exit 2; }
dir=$1 csv=$1/scaling.csv here=$(cd "$(dirname "$0")" && pwd)
[ -f "$csv" ] || { echo "run_allreduce.sh: $csv: no such file (expected a results folder of make run)" >&2; exit 2; }
meta() { sed -n "s/^# $1: //p" "$csv" | head -n 1; }
backend=$(meta backend) platform=$(meta platform) profile=$(meta profile) nodes=$(meta nodes)
gpn=$(meta gpus_per_node) algos=$(meta algos) build=${BUILD:-build}
platform=${platform%% (*} # "dgxh200 (simulated)"
if [ "$backend" = mpi ]; then # join the allocation's own CSVs: the largest's provenance, every row
    gs=$(ls "$dir/allreduce" 2>/dev/null | sed -n 's/^allreduce-\([0-9][0-9]*\)\.csv$/\1/p' | sort -n)
    [ -n "$gs" ] || { echo "run_allreduce.sh: no $dir/allreduce/allreduce-G.csv (the sweep's allreduce at each scale)" \
        >&2
                      exit 0; }
    top=$(echo "$gs" | tail -n 1)
    { grep '^# ' "$dir/allreduce/allreduce-$top.csv"
      grep -v '^#' "$dir/allreduce/allreduce-$top.csv" | head -n 1
      for g in $gs; do grep -v '^#' "$dir/allreduce/allreduce-$g.csv" | tail -n +2; done; } >"$dir/allreduce.csv.tmp" &&
        mv "$dir/allreduce.csv.tmp" "$dir/allreduce.csv" || exit 1
    echo "# allreduce: $dir/allreduce.csv (mpi: the allocation's own, at $(echo "$gs" | tr '\n' ' ')GPUs)"
    exit 0
fi
case $backend in sim|model) ;; *) exit 0;; esac
override=; [ -n "$(meta gpus_per_node_from | grep override)" ] && override=--override-platform
out=$dir/allreduce.csv tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$out.tmp"' EXIT
trap 'exit 130' INT TERM
ranks=$((nodes * gpn))
# shellcheck disable=SC2086
"$build/ddlbench" platform --platform "$platform" --nodes "$nodes" --gpus-per-node "$gpn" $override --partial-leaf \
    -o "$tmp" >/dev/null || exit 2
simmax=${AR_SIM_MAX:-64}
case $simmax in ''|*[!0-9]*) echo "run_allreduce.sh: AR_SIM_MAX: expected a rank count, got \"$simmax\"" >&2
    exit 2;; esac
why="alpha-beta-gamma model, not simulated"
held="the model is held within 10% of the simulation by tests/sim_model.sh"
[ "$backend" = sim ] && [ "$ranks" -gt "$simmax" ] &&
    why="$why: $ranks ranks is over AR_SIM_MAX=$simmax, where simulating the sweep costs minutes; $held"
start=$(date +%s)
if [ "$backend" = sim ] && [ "$ranks" -le "$simmax" ]; then
    echo "run_allreduce.sh: simulating the allreduce sweep at $ranks ranks ($algos, 1K-64M)..." >&2
    # shellcheck disable=SC2086
    sh "$here/launch.sh" -b simulated -n "$ranks" -g "$gpn" -p "$tmp" "$build/sim/ddlbench-sim" allreduce \
        -a "$algos" -b 1K -e 64M -f 8 -w 0 -n 1 -c 0 --profile "$profile" --platform "$platform" \
        --gpus-per-node "$gpn" --csv "$out.tmp" >"$tmp/log" 2>&1 </dev/null ||
        { echo "run_allreduce.sh: the simulated allreduce failed: $(grep -v '^#' "$tmp/log" | tail -n 1)" >&2; exit 1; }
else
    { grep '^# ' "$csv" | grep -v '^# \(run\|launch_command\|sweep_command\):'
      echo "# source: ddlbench model cost ($why)"
      echo "size_B,algo,placement,ranks,time_us_median,algbw_GBps,busbw_GBps"
      b=1024
      while [ "$b" -le 67108864 ]; do
          # shellcheck disable=SC2086
          "$build/ddlbench" model cost --algo "$algos" --platform "$platform" --nodes "$nodes" --gpus-per-node "$gpn" \
              --bytes "$b" --profile "$profile" $override --partial-leaf | awk -v b="$b" -v p="$ranks" '!/^#/ {
              alg = b / ($2 * 1e3); bus = p > 1 ? alg * 2 * (p - 1) / p : 0
              for (pl = 0; pl < 2; pl++)
                  printf "%d,%s,%s,%d,%.3f,%.4f,%.4f\n", b, $1, pl ? "in" : "out", p, $2, alg, bus }'
          b=$((b * 8))
      done; } >"$out.tmp" || exit 1
fi
mv "$out.tmp" "$out"
echo "# allreduce: $out ($backend, $platform, $ranks ranks; $(($(date +%s) - start)) s)"
