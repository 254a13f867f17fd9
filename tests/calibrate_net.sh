#!/bin/sh
# calibrate_net.sh — `ddlbench calibrate --network` and platform files end to end: bad options and
# bad files (malformed, non-monotonic, negative fit) are one line and exit 2; a real 2-rank
# calibration writes a file that `platform` and `model` accept; the simulator recovers the links of a
# known platform through the whole chain (platform file -> SMPI -> calibrate -> fit -> file); a peer
# that never answers ends the run within the watchdog's time with one line. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
launch="sh $root/harness/scripts/mpilaunch.sh"
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
# a key's value in SI units: the writer puts latencies in us and bandwidths in GB/s
key() { sed -n "s/^$1 = \([^ ]*\).*/\1/p" "$2" | awk '{ v = $0 + 0; if ($0 ~ /us$/) v *= 1e-6;
    else if ($0 ~ /GB\/s$/) v *= 1e9; print v }'; }
within() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= r * b) }'; }

expect_status 2 calibrate --network -n 1
expect_status 2 calibrate --network -b 1M -e 2M
expect_status 2 calibrate --network --timeout x
expect_status 2 calibrate --network --rounds 0
expect_status 2 calibrate --network -o /nonexistent/dir/x.platform
expect_status 0 calibrate --network --help

good="name = t\ngpus_per_node = 2\nintra_lat = 2e-06\nintra_bw = 5e9\ninter_lat = 1e-05\ninter_bw = 2.5e9\n"
printf "$good" >"$tmp/good.platform"
printf "${good}bw_factor = 0:1;65536:0.5;4096:1\n" >"$tmp/nonmono.platform"
printf "$good" | sed 's/intra_bw = 5e9/intra_bw = -5e9/' >"$tmp/neg.platform"
printf "$good" | sed 's/intra_lat = 2e-06/intra_lat = -1e-06/' >"$tmp/neglat.platform"
printf "$good" | sed 's/inter_bw = 2.5e9/inter_bw: 2.5e9/' >"$tmp/malformed.platform"
printf "name = t\ngpus_per_node" >"$tmp/truncated.platform"
mkdir -p "$tmp/p"
expect_status 0 platform --preset "$tmp/good.platform" --nodes 2 -o "$tmp/p"
for f in nonmono neg neglat malformed truncated; do
    expect_status 2 platform --preset "$tmp/$f.platform" --nodes 2 -o "$tmp/p"
    expect_status 2 model --algo ring --bytes 1M --preset "$tmp/$f.platform" --nodes 2
done
expect_status 0 model --algo ring,rhd,ddl --bytes 16M --preset "$tmp/good.platform" --nodes 2
expect_status 2 platform --preset "$tmp/none.platform" --nodes 1 -o "$tmp/p"

# real MPI, 2 ranks on this machine: a file the other commands accept. On a machine so loaded that
# every round trip waits for the scheduler, times no longer grow with size and the fit refuses
# (exit 1, one line): accepted here as that, since the fit itself is checked by the simulated round trip.
$launch 2 "$exe" calibrate --network -b 64 -e 4M -n 5 -o "$tmp/real.platform" >"$tmp/real.out" 2>"$tmp/real.err"; st=$?
# (64 B .. 1 MiB 2x apart, then 4 MiB: 16 sizes)
if [ "$st" = 0 ] && [ "$(key intra_points "$tmp/real.platform")" = 16 ]; then
    ok
    expect_status 0 platform --preset "$tmp/real.platform" --nodes 4 -o "$tmp/p"
    grep -q "intra exchange" "$tmp/real.out" && grep -q "rms" "$tmp/real.out" && ok ||
        bad "fit and residual lines printed"
    # the plain copy's table (issue 26): a memcpy sweep, keyed by the bytes it touches (2 x 64 KiB first)
    cp=$(sed -n 's/^copy_ns = //p' "$tmp/real.platform")
    case $cp in 131072:[0-9]*\;524288:*) ok;; *) bad "copy_ns: $cp";; esac
    # the poll slack: what a 50 us nanosleep oversleeps here (0..10 ms; written when above 0)
    ps=$(key poll_slack "$tmp/real.platform")
    grep -q "^# poll slack: a nanosleep of 50 us takes" "$tmp/real.out" &&
        awk -v v="${ps:-0}" 'BEGIN { exit !(v >= 0 && v < 0.01) }' &&
        ok || bad "poll_slack: ${ps:-none}"
    # the fresh-page cost: 64 MiB mapped, written, unmapped less warm memory (0..20 ns/B; written when above 0)
    fa=$(key fault_ns "$tmp/real.platform")
    grep -q "^# fresh pages: [0-9.e+-]* ns per byte" "$tmp/real.out" &&
        awk -v v="${fa:-0}" 'BEGIN { exit !(v >= 0 && v < 20) }' &&
        ok || bad "fault_ns: ${fa:-none}"
elif [ "$st" != 0 ] && grep -q "no fit with a positive bandwidth term" "$tmp/real.err" &&
    [ ! -f "$tmp/real.platform" ]; then
    echo "NOTE: 2-rank calibration: times flat with size on this loaded machine; the fit refused, no file ($(uptime))"
    ok
else bad "2-rank calibration: exit $st: $(tail -n 2 "$tmp/real.err")"; fi

# the simulator recovers a known platform: 2 nodes x 2, intra 2 us / 5 GB/s, inter 10 us / 2.5 GB/s per node
sim=$BUILD/sim/ddlbench-sim
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    "$exe" platform --preset "$tmp/good.platform" --nodes 2 -o "$tmp/p" >/dev/null
    if DDL_RANKS_PER_NODE=2 sh "$root/harness/scripts/simlaunch.sh" 4 "$tmp/p" "$sim" calibrate --network -b 64 -e 16M \
        -o "$tmp/sim.platform" >"$tmp/sim.out" 2>&1; then ok
        else bad "simulated calibration: $(tail -n 2 "$tmp/sim.out")"; fi
    f=$tmp/sim.platform
    within "$(key intra_lat "$f")" 2e-6 0.02 && within "$(key intra_bw "$f")" 5e9 0.02 && ok ||
        bad "intra level recovered: $(key intra_lat "$f") s, $(key intra_bw "$f") B/s (want 2e-6, 5e9)"
    within "$(key inter_lat "$f")" 1e-5 0.02 && within "$(key inter_bw "$f")" 2.5e9 0.02 && ok ||
        bad "inter level recovered: $(key inter_lat "$f") s, $(key inter_bw "$f") B/s (want 1e-5, 2.5e9)"
    awk -v r="$(key intra_rms_pct "$f")" 'BEGIN { exit !(r < 1) }' && ok ||
        bad "sim residual under 1%: $(key intra_rms_pct "$f")"
    # an exchange alone after a barrier also waits for the partner's later release (about one inter
    # latency in the simulation too): measured once and taken off the inter exchange sweep
    sk=$(sed -n 's/^# inter exchange: the barrier.s skew \([0-9.e+-]*\) us.*/\1/p' "$tmp/sim.out")
    awk -v k="$sk" 'BEGIN { exit !(k + 0 >= 5 && k + 0 <= 15) }' && ok ||
        bad "the inter exchange's barrier skew, about one 10 us latency: \"$sk\" us"
    # the simulated `mpi` prices Open MPI's copy of the send vector out of place (allreduce_mpi_sim.c):
    # at 1 ns/B, 16 MiB out of place takes 16.8 ms more than in place
    { cat "$tmp/good.platform"; echo "copy_ns = 1:1"; } >"$tmp/copy.platform"
    mkdir -p "$tmp/pc" && "$exe" platform --preset "$tmp/copy.platform" --nodes 1 --gpus-per-node 2 -o \
        "$tmp/pc" >/dev/null
    DDL_RANKS_PER_NODE=2 sh "$root/harness/scripts/simlaunch.sh" 2 "$tmp/pc" "$sim" allreduce -a mpi,ring -b \
        16M -e 16M \
        -w 0 -n 1 -c 0 >"$tmp/copy.out" 2>&1
    d=$(awk '$5 == "mpi" && $6 == "out" { o = $7 } $5 == "mpi" && $6 == "in" { i = $7 } END { print o - i }' \
        "$tmp/copy.out")
    r=$(awk '$5 == "ring" && $6 == "out" { o = $7 } $5 == "ring" && $6 == "in" { i = $7 } END { print o - i }' \
        "$tmp/copy.out")
    within "$d" 16777.216 0.02 && awk -v r="$r" 'BEGIN { exit !(r < 100 && r > -100) }' && ok ||
        bad "mpi out of place: +$d us (want 16777 at 1 ns/B; ring: $r, want ~0)"
    # the simulated `mpi` at 2 ranks and 64 MiB (Open MPI's Rabenseifner) maps its 64 MiB temporary anew
    # on every call and receives into half of it: at 1 ns/B of fresh pages, 33.5 ms more; 16 MiB (under
    # glibc's 32 MiB threshold) and the ring nothing more
    { cat "$tmp/good.platform"; echo "fault_ns = 1"; } >"$tmp/fault.platform"
    mkdir -p "$tmp/pf" "$tmp/pg" && "$exe" platform --preset "$tmp/fault.platform" --nodes 1 --gpus-per-node 2 -o \
        "$tmp/pf" >/dev/null &&
        "$exe" platform --preset "$tmp/good.platform" --nodes 1 --gpus-per-node 2 -o "$tmp/pg" >/dev/null
    ft() { DDL_RANKS_PER_NODE=2 sh "$root/harness/scripts/simlaunch.sh" 2 "$1" "$sim" allreduce -a "$2" -b \
        "$3" -e "$3" \
        -w 0 -n 1 -c 0 2>/dev/null | awk -v a="$2" '$5 == a && $6 == "in" { print $7 }'; }
    f0=$(ft "$tmp/pg" mpi 64M) f1=$(ft "$tmp/pf" mpi 64M) g0=$(ft "$tmp/pg" mpi 16M) g1=$(ft "$tmp/pf" mpi 16M)
    r0=$(ft "$tmp/pg" ring 64M) r1=$(ft "$tmp/pf" ring 64M)
    awk -v a="$f0" -v b="$f1" -v c="$g0" -v d="$g1" -v e="$r0" -v f="$r1" 'BEGIN { x = b - a
        exit !(a > 0 && x > 33554.4 * 0.98 && x < 33554.4 * 1.02 && d - c < 100 && c - d < 100 &&
            f - e < 100 && e - f < 100) }' && ok ||
        bad "fresh pages: mpi 64 MiB ${f0:-?} -> ${f1:-?} us (want +33554), 16 MiB ${g0:-?} -> ${g1:-?}," \
            "ring ${r0:-?} -> ${r1:-?}"
    # the simulated `mpi` sends its messages between nodes whole (allreduce_mpi_sim.c): at 1 ns/B of
    # whole_ns, 16 MiB on 2 nodes x 1 (Rabenseifner: 8 MiB each way in each half) takes 16.8 ms more;
    # the ring, and the same `mpi` on one node of 2, nothing more
    { cat "$tmp/good.platform"; echo "whole_ns = 1:1"; } >"$tmp/whole.platform"
    mkdir -p "$tmp/pw2" "$tmp/pg2" "$tmp/pw1" &&
        "$exe" platform --preset "$tmp/whole.platform" --nodes 2 --gpus-per-node 1 --override-platform -o "$tmp/pw2" \
            >/dev/null &&
        "$exe" platform --preset "$tmp/good.platform" --nodes 2 --gpus-per-node 1 --override-platform -o "$tmp/pg2" \
            >/dev/null &&
        "$exe" platform --preset "$tmp/whole.platform" --nodes 1 --gpus-per-node 2 -o "$tmp/pw1" >/dev/null
    wt() { DDL_RANKS_PER_NODE=$2 sh "$root/harness/scripts/simlaunch.sh" 2 "$1" "$sim" allreduce -a "$3" -b 16M -e 16M \
        -w 0 -n 1 -c 0 2>/dev/null | awk -v a="$3" '$5 == a && $6 == "in" { print $7 }'; }
    w0=$(wt "$tmp/pg2" 1 mpi) w1=$(wt "$tmp/pw2" 1 mpi) v0=$(wt "$tmp/pg2" 1 ring) v1=$(wt "$tmp/pw2" 1 ring)
    u0=$(ft "$tmp/pg" mpi 16M) u1=$(wt "$tmp/pw1" 2 mpi)
    awk -v a="$w0" -v b="$w1" -v c="$v0" -v d="$v1" -v e="$u0" -v f="$u1" 'BEGIN { x = b - a
        exit !(a > 0 && x > 16777.2 * 0.98 && x < 16777.2 * 1.02 && d - c < 100 && c - d < 100 &&
            f - e < 100 && e - f < 100) }' && ok ||
        bad "whole messages: mpi 2 nodes ${w0:-?} -> ${w1:-?} us (want +16777), ring ${v0:-?} -> ${v1:-?}," \
            "one node ${u0:-?} -> ${u1:-?}"
    # a polling wait's pause moves the simulated clock by poll_us + poll_slack (kern_poll_pause): a 16 MiB
    # ring at 2 ranks on 5 GB/s moves 64 pieces of 256 KiB, each received one ahead (exchange.c), and
    # waits out 32 pauses, so 1 ms of slack adds 32 ms to DDL_POLL_US=1000 (a real one here, 2026-12-03:
    # 43 ms against 2.8 blocking)
    { cat "$tmp/good.platform"; echo "poll_slack = 1000us"; } >"$tmp/slack.platform"
    mkdir -p "$tmp/ps0" "$tmp/ps1" && "$exe" platform --preset "$tmp/good.platform" --nodes 1 --gpus-per-node 2 -o \
        "$tmp/ps0" >/dev/null &&
        "$exe" platform --preset "$tmp/slack.platform" --nodes 1 --gpus-per-node 2 -o "$tmp/ps1" >/dev/null
    pt() { DDL_POLL_US=$2 DDL_RANKS_PER_NODE=2 sh "$root/harness/scripts/simlaunch.sh" 2 "$1" "$sim" allreduce -a \
        ring -b 16M \
        -e 16M -w 0 -n 1 -c 0 2>/dev/null | awk '$5 == "ring" && $6 == "out" { print $7 }'; }
    t0=$(pt "$tmp/ps0" 0) t1=$(pt "$tmp/ps0" 1000) t2=$(pt "$tmp/ps1" 1000)
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { exit !(a > 0 && b > a + 16000 && c - b > 31000 && c - b < 33000) }' &&
        ok ||
        bad "simulated polling: ${t0:-?} us blocking, ${t1:-?} polling, ${t2:-?} with 1 ms slack (want +32000)"
else
    echo "SKIP: simulated round trip (no $sim or smpirun)"
fi

# a peer that never answers (rank 1 stops at its third size): one line, within --timeout + slack
t0=$(date +%s)
DDL_FAULT_INJECT=1:2:stop timeout 120 $launch 2 "$exe" calibrate --network -b 64 -e 1M -n 5 --timeout 3 \
    -o "$tmp/hang.platform" >"$tmp/hang.out" 2>"$tmp/hang.err" </dev/null
st=$? secs=$(($(date +%s) - t0))
[ "$st" -eq 2 ] && [ "$secs" -le 60 ] && ok || bad "hung peer: exit $st (want 2) after $secs s"
[ "$(grep -c 'watchdog: rank 0: calibrate --network intra ping-pong, 256 bytes' "$tmp/hang.err")" -eq 1 ] && ok ||
    bad "hung peer: one watchdog line naming level, sweep and size ($(grep -m 1 watchdog "$tmp/hang.err"))"
[ ! -f "$tmp/hang.platform" ] && ok || bad "hung peer: no file written"
report
