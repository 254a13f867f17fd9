#!/bin/sh
# fidelity.sh — the simulator against real runs on this machine (`make fidelity`).
# Per rank count (--ranks, default "2 4"; one node):
#   1. calibrate, on p2p and kernel sweeps only (never on the points compared below):
#      `ddlbench calibrate --network` (ping-pong + exchange -> platform file) and `ddlbench calibrate`
#      run by as many processes at once as there are ranks (the per-rank GEMM and reduction rates
#      when the ranks share the cores; the median of them -> local.profile);
#   2. real:      `ddlbench allreduce` (every algorithm, 1K..64M by 4x) and `ddlbench train` (every
#                 algorithm, ResNet-50 batch 2 at 32x32, bucket 0 = one allreduce after backward and
#                 25 MB = overlapped) under mpilaunch.sh;
#      (1 and 2 interleaved in time: the first real allreduce run, the network calibration, the
#      other runs, the compute calibration, the real training; each calibration beside the runs it
#      prices, since this machine's speed moves between minutes);
#   3. simulated: the same two commands under simlaunch.sh on the calibrated platform and profile;
#   4. join: one row per point, error = (sim - real) / real, on the median time (allreduce:
#      out-of-place, the slower rank per iteration, the median over --repeats runs; train: the step)
#      and, as a second column, on the fastest iteration (the machine least disturbed: the real runs
#      share the cores with other work).
# Then the same four steps on the emulated cluster (harness/scripts/emucluster.sh: 2 nodes x 2 ranks,
# each node's NIC shaped to --emu, default 500mbit: well below the ~2.3 Gbit/s that the two cores
# push through the namespaces' TCP unshaped, so the link the platform models, not the CPU, sets the
# inter-node time; and the rate of `make cluster-bench`), up for those runs only and removed after
# them (also on Ctrl-C and failure); setup "emu-RATE" in points.csv. Without root or namespaces: one
# SKIP line. --backend mpi (`make fidelity BACKEND=mpi`, the default inside an allocation; the batch
# scripts with STUDY=fidelity) runs the same four steps on a Slurm, LSF or PBS allocation's nodes
# instead (its shape from alloc.sh unless --nodes and --ranks-per-node; MPILAUNCH outside one), setup "alloc-NxG";
# outside one and without MPILAUNCH: one line, exit 2, nothing written. Every launch goes through
# launch.sh (on an allocation: placed on its nodes, --ranks-per-node each). --dry-run prints the commands.
# Writes OUT/points.csv, OUT/fidelity.png and .svg (gnuplot), the raw CSVs and calibrations per rank
# count; prints the table and ends with
#   fidelity: median |error| X%, max Y% over N points; per group ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() {
    cat <<'EOF'
usage: fidelity.sh [--build DIR] [--out DIR] [--ranks "2 4"] [-e SIZE] [-n ITERS] [--repeats R] [--steps N]
                   [--emu RATE|off] [--rejoin] [--backend sim|mpi] [--nodes N] [--ranks-per-node G] [--dry-run]
  --build DIR   where ddlbench and sim/ddlbench-sim are (default build)
  --out DIR     results folder (default results/fidelity)
  --ranks LIST  rank counts on this node (default "2 4"; "" = the emulated cluster alone)
  -e SIZE       largest allreduce (default 64M; from 1K by 4x)
  -n ITERS      timed allreduce iterations per size and run (default 5)
  --repeats R   real allreduce runs, one after the other; a point's real time is the median of the
                runs' medians (default 3: a burst of load spoils a run, not a point)
  --steps N     timed training steps (default 3)
  --emu RATE    the emulated cluster's NIC rate each way (default 500mbit; off = single node only):
                2 nodes x 2 ranks (emucluster.sh: root, network namespaces; SKIP line without them)
  --rejoin      run nothing: merge, join and report the runs already in --out
  --backend B   sim (default outside an allocation): this machine (--ranks) and the emulated cluster;
                mpi (default inside one): the allocation's nodes, calibrated there (launch.sh: srun,
                jsrun or mpirun placed on them; outside an allocation MPILAUNCH is required)
  --nodes N, --ranks-per-node G   the allocation's shape (default: read from Slurm, LSF or PBS)
  --dry-run     print the commands of --backend mpi, run nothing
Calibration and comparison are disjoint runs: the platform comes from p2p sweeps (calibrate
--network) and kernel timings only; no compared point enters a fit.
EOF
}
die() { echo "fidelity.sh: $*" >&2; exit 2; }
build=build out=results/fidelity ranks="2 4" maxb=64M iters=5 steps=3 repeats=3 rejoin=0 emurate=500mbit
backend="" anodes="" agpn="" dry=""
while [ $# -gt 0 ]; do
    case $1 in -h|--help) usage; exit 0;; --rejoin) rejoin=1; shift; continue;; --dry-run) dry=1; shift; continue;; esac
    [ $# -ge 2 ] || die "$1: expected a value (see --help)"
    case $1 in
    --build) build=$2;; --out) out=$2;; --ranks) ranks=$2;; -e) maxb=$2;; -n) iters=$2;; --steps) steps=$2;;
    --repeats) repeats=$2;; --emu) emurate=$2;; --backend) backend=$2;; --nodes) anodes=$2;; --ranks-per-node) agpn=$2;;
    *) die "unknown option \"$1\" (see --help)";;
    esac
    shift 2
done
for r in $ranks; do case $r in ''|*[!0-9]*|0|1) die "--ranks: expected integers >= 2, got \"$r\"";; esac; done
case $emurate in off|[1-9]*bit) ;; *) die "--emu: expected a rate such as 500mbit or 1gbit, or off, got \"$emurate\"";;
    esac
case $iters$steps$repeats in *[!0-9]*) die "-n/--steps/--repeats: expected positive integers";; esac
inalloc=${SLURM_JOB_ID:-}${LSB_JOBID:-}${PBS_JOBID:-}
[ -n "$backend" ] || { [ -n "$inalloc" ] && backend=mpi || backend=sim; }
case $backend in sim|mpi) ;;
    *) die "--backend: expected sim or mpi (BACKEND=$backend has no fidelity run), got \"$backend\"";; esac
if [ "$backend" = mpi ]; then # the allocation's shape (alloc.sh, as the batch scripts read it) unless given
    if [ -n "$inalloc" ] && { [ -z "$anodes" ] || [ -z "$agpn" ]; }; then
        shape=$(sh "$here/alloc.sh" fidelity.sh) || exit 2
        set -- $shape; anodes=${anodes:-$1} agpn=${agpn:-$2}
    elif [ -z "$inalloc" ] && [ -z "${MPILAUNCH:-}" ]; then
        die "--backend mpi: not inside a Slurm, LSF or PBS allocation and no MPILAUNCH launcher (run it in one," \
            "set MPILAUNCH, or use BACKEND=sim: this machine)"
    fi
    case $anodes:$agpn in *[!0-9:]*|:*|*:|0*|*:0*) die \
        "--nodes/--ranks-per-node: expected positive integers, got \"$anodes\" and \"$agpn\"";; esac
    [ $((anodes * agpn)) -ge 2 ] || die "--backend mpi: expected at least 2 ranks, got $anodes node(s) x $agpn"
fi
exe=$build/ddlbench sim=$build/sim/ddlbench-sim
[ -n "$dry" ] || { [ -x "$exe" ] && [ -x "$sim" ]; } || die "$exe and $sim must be built (make all sim)"
[ -n "$dry" ] || command -v smpirun >/dev/null 2>&1 || die "smpirun not found (apt-get install simgrid libsimgrid-dev)"
# The runs go to $work (OUT.partial) and replace their folders in OUT only when all succeeded: a
# failed or interrupted run changes nothing in OUT (its logs stay in OUT.partial).
work=$out.partial; [ "$rejoin" = 1 ] && work=$out
[ -n "$dry" ] || { mkdir -p "$out" && { [ "$rejoin" = 1 ] || { rm -rf "$work" && mkdir -p "$work"; }; }; } ||
    die "cannot create $out and $work"
trap 'echo "fidelity.sh: interrupted: nothing in $out changed (the partial runs: $work)" >&2; exit 2' INT TERM
failed() { # rc what dir: one line (the calibration's own last line when it failed: exit 2)
    [ "$1" = 2 ] && die "$2: the calibration failed: $(tail -n 1 "$3/calibrate.log" \
        2>/dev/null) (nothing in $out changed)"
    echo "fidelity.sh: $2 failed; see $3/*.log (nothing in $out changed)" >&2; exit 1
}
emuname=fid$(($$ % 100000))
algos=$("$exe" list 2>/dev/null | awk '!/^#/ && NF {print $1}' | paste -sd, -)
[ -n "$algos" ] || algos=mpi,ring,rhd,rhd-far,ddl,auto # --dry-run without a build
exec 3>&1
x() { if [ -n "$dry" ]; then echo "$*" >&3; else "$@"; fi; } # --dry-run: the command, on stdout
AR="allreduce -b 1K -e $maxb -f 4 -a $algos --place out" # the compared placement only
TR="train --model resnet50 --batch 2 --image-size 32 -a $algos --bucket-mb 0,25 --warmup 1 --steps $steps --poll-us 50"
step() { echo "# $*" >&2; }

# The compute calibration (compute_profile: GEMM rate and kernel timings -> local.profile) and the
# contention probes (contention_probe -> contention, comm_probe -> comm_contention):
# fidelity_profile.sh, sourced (it uses $exe, $backend, $dry, $here and real()).
. "$here/fidelity_profile.sh"

merge_runs() { "$exe" fidelity merge "$@"; } # per point: the median of the medians, the min of the mins

# real NP CMD...: CMD on NP ranks of the machine in use, through launch.sh: this node, the emulated
# cluster's 2 nodes x $ppn ranks when $emu is set, or the allocation's nodes, $gpn ranks each.
# simulated NP DIR CMD...: CMD on NP simulated ranks, $gpn a node, on the platform folder DIR.
launch() { if [ -n "$dry" ]; then sh "$here/launch.sh" --dry-run "$@" >&3; else sh "$here/launch.sh" "$@"; fi; }
real() {
    n=$1; shift
    if [ -n "$emu" ]; then launch -b emulated -e "$emuname" -g "$ppn" -n "$n" "$@"
    elif [ "$backend" = mpi ]; then launch -b mpi -g "$gpn" -n "$n" "$@"
    else launch -b real -n "$n" "$@"; fi
}
simulated() { n=$1 pd=$2; shift 2; launch -b simulated -n "$n" -g "$gpn" -p "$pd" "$@"; }

real_allreduce() { # from to: the real allreduce runs from..to of run_level's $np ranks, into $d
    k=$1; while [ "$k" -le "$2" ]; do
        # shellcheck disable=SC2086
        real "$np" "$exe" $AR -w 1 -n "$iters" --csv "$d/allreduce_real.$k.csv" >"$d/allreduce_real.$k.log" 2>&1 \
            || return 1
        k=$((k + 1))
    done
}

run_level() { # np nodes dir: calibrate, real, sim for np ranks on nodes nodes (np / nodes each)
    np=$1 nn=$2 d=$3 gpn=$(($1 / $2))
    [ -z "$dry" ] || d=$(mktemp -d) # --dry-run: the logs go nowhere that stays
    mkdir -p "$d/platform" || return 1
    # Each calibration sits beside the real runs it prices, so that the machine's speed, which moves
    # between minutes here (docs/BENCHMARKS.md, 2026-12-06), is the same for both: the network's in
    # the middle of the real allreduce runs (after the first), the compute rates just before the
    # real training. Still disjoint runs: no compared point enters a fit.
    step "$np ranks on $nn node(s)$where: real allreduce (run 1 of $repeats)"
    real_allreduce 1 1 || return 1
    step "$np ranks on $nn node(s)$where: calibrating the network (p2p sweeps)"
    real "$np" "$exe" calibrate --network -b 64 -e "$maxb" -o "$d/local.platform" >"$d/calibrate.log" 2>&1 || return 2
    x "$exe" platform --preset "$d/local.platform" --nodes "$nn" --gpus-per-node "$gpn" -o "$d/platform" >/dev/null \
        || return 1
    step "$np ranks on $nn node(s)$where: real allreduce (the other runs), the compute rates, real train"
    real_allreduce 2 "$repeats" || return 1
    [ -n "$dry" ] || { merge_runs "$d"/allreduce_real.[0-9]*.csv >"$d/allreduce_real.csv.tmp" &&
        mv "$d/allreduce_real.csv.tmp" "$d/allreduce_real.csv"; }
    compute_profile "$np" "$d" || return 1
    [ "$nn" -gt 1 ] || { contention_probe "$np" "$d" && comm_probe "$np" "$d"; } || return 1
    # shellcheck disable=SC2086
    real "$np" "$exe" $TR --csv "$d/train_real.csv" >"$d/train_real.log" 2>&1 || return 1
    step "$np ranks on $nn node(s): simulated allreduce and train on the calibrated platform"
    # shellcheck disable=SC2086
    simulated "$np" "$d/platform" "$sim" $AR -w 1 -n 2 -c 0 \
        --profile "$d/local.profile" --csv "$d/allreduce_sim.csv" >"$d/allreduce_sim.log" 2>&1 || return 1
    # shellcheck disable=SC2086
    cont=0; [ -n "$dry" ] || [ ! -s "$d/contention" ] || cont=$(cat "$d/contention")
    ccont=0; [ -n "$dry" ] || [ ! -s "$d/comm_contention" ] || ccont=$(cat "$d/comm_contention")
    simulated "$np" "$d/platform" "$sim" $TR --profile "$d/local.profile" \
        --contention "$cont" --comm-contention "$ccont" --csv "$d/train_sim.csv" >"$d/train_sim.log" 2>&1 || return 1
    [ -z "$dry" ] || rm -rf "$d"
}

rejoin_level() { # dir: the real allreduce runs already there merged again
    merge_runs "$1"/allreduce_real.[0-9]*.csv >"$1/allreduce_real.csv.tmp" &&
        mv "$1/allreduce_real.csv.tmp" "$1/allreduce_real.csv" || die "--rejoin: no runs in $1"
}

join_level() { "$exe" fidelity join "$@"; } # label dir: the rows of points.csv

# emu_probe: empty when the emulated cluster can be made here, else why not (one line)
emu_probe() {
    [ "$emurate" = off ] && { echo "--emu off"; return; }
    [ "$(id -u)" = 0 ] || { echo "needs root (network namespaces and tc)"; return; }
    for t in ip tc unshare; do command -v "$t" >/dev/null 2>&1 || { echo "$t not found"; return; }; done
    ip netns add "$emuname-probe" 2>/dev/null || { echo "network namespaces unavailable (ip netns add failed)"; return
        }
    ip netns del "$emuname-probe"
}

emu="" where=""
if [ "$backend" = mpi ]; then # the allocation: calibrated, run and simulated on its nodes
    d=$work/alloc-${anodes}x$agpn where=" (the allocation)"
    if [ -n "$dry" ]; then run_level $((anodes * agpn)) "$anodes" "$d"; echo "# --dry-run: nothing run"; exit 0; fi
    if [ "$rejoin" = 1 ]; then rejoin_level "$d"
    else run_level $((anodes * agpn)) "$anodes" "$d" || failed $? "the allocation's runs" "$d"; fi
    { echo "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct"
      join_level "alloc-${anodes}x$agpn" "$d"; } >"$work/points.csv.tmp"
    ranks="" emurate=off
fi
[ "$backend" = mpi ] || echo "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct" \
    >"$work/points.csv.tmp"
for np in $ranks; do
    if [ "$rejoin" = 1 ]; then
        rejoin_level "$work/$np"
    else
        run_level "$np" 1 "$work/$np" || failed $? "the $np-rank runs" "$work/$np"
    fi
    join_level "1node" "$work/$np" >>"$work/points.csv.tmp"
done
# The emulated cluster: 2 nodes x 2 ranks, each node's NIC shaped to $emurate (emucluster.sh), up for
# its runs only; calibrated there like the single node (its inter-node level included), simulated on
# a 2-node platform from that calibration.
d=$work/emu-2x2
why=$(emu_probe)
if [ "$backend" = mpi ]; then :
elif [ "$rejoin" = 1 ]; then
    if [ -f "$d/train_sim.csv" ]; then
        [ -s "$d/emu_rate" ] && emurate=$(cat "$d/emu_rate") # the rate of the run, not of this command line
        rejoin_level "$d"; join_level "emu-$emurate" "$d" >>"$work/points.csv.tmp"
    else echo "SKIP: emulated cluster (2 nodes x 2 ranks): no runs in $d to rejoin"; fi
elif [ -n "$why" ]; then
    echo "SKIP: emulated cluster (2 nodes x 2 ranks, NIC $emurate): $why"
else
    emu="sh $here/emucluster.sh --name $emuname" ppn=2 where=" (emulated cluster, NIC $emurate)"
    mkdir -p "$d" && echo "$emurate" >"$d/emu_rate" || die "cannot write $d"
    $emu up --nodes 2 --rate "$emurate" >/dev/null || die "emucluster.sh up failed (see above)"
    trap '$emu down >/dev/null 2>&1' EXIT
    run_level 4 2 "$d"; rc=$?
    $emu down >/dev/null 2>&1; trap - EXIT
    [ "$rc" = 0 ] || failed "$rc" "the emulated-cluster runs" "$d"
    join_level "emu-$emurate" "$d" >>"$work/points.csv.tmp"
fi
if [ "$rejoin" != 1 ]; then # all done: the new runs replace their folders in OUT, then points.csv
    for lv in "$work"/*/; do [ -d "$lv" ] || continue; n=$(basename "$lv"); rm -rf "${out:?}/$n" &&
        mv "$lv" "$out/$n" || die "cannot move $lv into $out"; done
    mv "$work/points.csv.tmp" "$out/points.csv" && rmdir "$work" || die "cannot write $out/points.csv"
else mv "$out/points.csv.tmp" "$out/points.csv"; fi
sh "$here/fidelity_report.sh" "$out" "$exe"
