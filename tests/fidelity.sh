#!/bin/sh
# fidelity.sh — harness/scripts/fidelity.sh (`make fidelity`) without its minutes of runs: bad options
# are one line and exit 2; --rejoin on hand-made runs (one node and the emulated cluster) joins every
# point, computes error = (sim - real) / real, groups by setup (median and max per group), and ends
# with the summary line and its per-group figures; an
# emulated cluster without runs to rejoin is one SKIP line. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
fid="sh $root/harness/scripts/fidelity.sh --build $BUILD"

bad_option() { # ARGS...: exit 2, one stderr line
    $fid "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "fidelity.sh $*: exit $got, $(cat "$tmp/err")"
}
bad_option --emu 5
bad_option --emu 500mbps
bad_option --ranks 1
bad_option --ranks x
bad_option --repeats -1
bad_option --colour blue
bad_option --out
bad_option --backend emu

# a calibration that cannot reach its peer (a fake build whose calibrate fails as the watchdog does):
# one line naming it, exit 2, and the OUT of an earlier run unchanged
fb=$tmp/fakebuild; mkdir -p "$fb/sim" "$tmp/old"
{ printf '#!/bin/sh\ncase "$1" in list) echo ring;; calibrate) echo "ddlbench calibrate: watchdog: rank 0: calibrate '
  printf '%s' '--network intra ping-pong, 64 bytes (a peer that does not answer?) not finished after 30 s (--timeout); '
  printf 'aborting the job" >&2; exit 2;; esac\n'; } >"$fb/ddlbench"
printf '#!/bin/sh\nexit 0\n' >"$fb/sim/ddlbench-sim"; printf '#!/bin/sh\nshift 2; exec "$@"\n' >"$tmp/fakempirun"
chmod +x "$fb/ddlbench" "$fb/sim/ddlbench-sim" "$tmp/fakempirun"; echo "kind,old" >"$tmp/old/points.csv"
if command -v smpirun >/dev/null 2>&1; then
    MPIRUN=$tmp/fakempirun sh "$root/harness/scripts/fidelity.sh" --build "$fb" --out "$tmp/old" --ranks 2 --emu off \
        >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    [ "$got" -eq 2 ] && [ "$(grep -vc '^# ' "$tmp/err")" -eq 1 ] &&
        grep -q "the calibration failed: .*a peer that does not answer" "$tmp/err" &&
        [ "$(cat "$tmp/old/points.csv")" = "kind,old" ] && [ ! -e "$tmp/old/2" ] && ok ||
        bad "unreachable peer: exit $got, $(cat "$tmp/err"), points.csv $(cat "$tmp/old/points.csv")"
fi

# the communication probe's ratio (fidelity_profile.sh comm_ratio): beside / alone - 1 on the in-place
# rows, in percent, never below 0; a file without an in-place row fails
. "$root/harness/scripts/fidelity_profile.sh"
arrow() { # FILE OUT_US IN_US: an allreduce CSV (comments first, as ddlbench writes it)
    { echo "# ddlbench allreduce"; echo "size_B,count,type,op,algo,placement,ranks,iters,time_us_median,time_us_min"
      echo "26214400,6553600,float32,sum,ring,out,2,9,$2,$2"; [ -z "$3" ] ||
          echo "26214400,6553600,float32,sum,ring,in,2,9,$3,$3"; } >"$1"
}
arrow "$tmp/ca.csv" 900 1000; arrow "$tmp/cb.csv" 100 2500
[ "$(comm_ratio "$tmp/ca.csv" "$tmp/cb.csv")" = 150.0 ] && ok ||
    bad "comm_ratio 2500 / 1000: $(comm_ratio "$tmp/ca.csv" "$tmp/cb.csv")"
[ "$(comm_ratio "$tmp/cb.csv" "$tmp/ca.csv")" = 0.0 ] && ok ||
    bad "comm_ratio faster beside: $(comm_ratio "$tmp/cb.csv" "$tmp/ca.csv")"
arrow "$tmp/cc.csv" 900 ""
comm_ratio "$tmp/ca.csv" "$tmp/cc.csv" >/dev/null && bad "comm_ratio without an in-place row succeeded" || ok

if ! [ -x "$BUILD/sim/ddlbench-sim" ] || ! command -v smpirun >/dev/null 2>&1; then
    echo "SKIP: --rejoin (fidelity.sh needs $BUILD/sim/ddlbench-sim and smpirun)"; report; exit $?
fi
# runs(DIR RANKS REAL_US SIM_US STEP_REAL_MS STEP_SIM_MS): the four CSVs of one setup, two sizes, ring
runs() {
    mkdir -p "$1"
    for k in real sim; do
        [ "$k" = real ] && f=$1/allreduce_real.1.csv t=$3 || f=$1/allreduce_sim.csv t=$4
        { echo "# made by tests/fidelity.sh"; echo "size_B,algo,placement,ranks,time_us_median,time_us_min"
          echo "1024,ring,out,$2,$t,$t"; echo "1024,ring,in,$2,1,1"
          echo "65536,ring,out,$2,$((t * 2)),$((t * 2))"; } >"$f"
        [ "$k" = real ] && t=$5 || t=$6
        { echo "ranks,algo,bucket_MB,step_ms_median,step_ms_min"; echo "$2,ring,0,$t,$t"; } >"$1/train_$k.csv"
    done
}
runs "$tmp/r/2" 2 100 110 200 150
$fid --out "$tmp/r" --ranks 2 --rejoin >"$tmp/out" 2>&1 </dev/null
rc=$?
groups="per group (median/max %, * = misses 15/35):"
want="fidelity: median |error| 10.0%, max 25.0% over 3 points; $groups allreduce-1node-2 10.0/10.0,"
want="$want train-1node-2 25.0/25.0*"
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "$want" ] && ok ||
    bad "rejoin, one node: exit $rc, last line \"$(tail -n 1 "$tmp/out")\""
grep -q "^SKIP: emulated cluster (2 nodes x 2 ranks): no runs in $tmp/r/emu-2x2 to rejoin$" "$tmp/out" && ok ||
    bad "no emulated-cluster runs: one SKIP line ($(grep -c SKIP "$tmp/out") SKIP lines)"
[ "$(grep -c '^allreduce,' "$tmp/r/points.csv")" = 2 ] &&
    grep -q '^train,1node,2,ring,resnet50-b2-32px-bucket0,200000.000,150000.000,-25.00,' \
    "$tmp/r/points.csv" && ok || bad "points.csv: $(cat "$tmp/r/points.csv")"
runs "$tmp/r/emu-2x2" 4 1000 1500 3000 3000
$fid --out "$tmp/r" --ranks 2 --rejoin >"$tmp/out" 2>&1 </dev/null
want="fidelity: median |error| 17.5%, max 50.0% over 6 points; $groups allreduce-1node-2 10.0/10.0,"
want="$want allreduce-emu-500mbit-4 50.0/50.0*, train-1node-2 25.0/25.0*, train-emu-500mbit-4 0.0/0.0"
[ "$(tail -n 1 "$tmp/out")" = "$want" ] && ok ||
    bad "rejoin with the emulated cluster: last line \"$(tail -n 1 "$tmp/out")\""
grep -q '^allreduce,emu-500mbit,4,ring,1024,1000.000,1500.000,50.00,' "$tmp/r/points.csv" &&
    grep -q '^#   allreduce emu-500mbit 4 ranks' "$tmp/out" && ok ||
        bad "emulated points and their group: $(grep emu "$tmp/r/points.csv" | head -n 2)"
report
