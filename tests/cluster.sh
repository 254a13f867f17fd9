#!/bin/sh
# cluster.sh — allreduce correctness across real node boundaries, on an emulated cluster
# (harness/scripts/emucluster.sh): every algorithm (test_allreduce --quick, test_collectives --quick) on 2 nodes x 2
# ranks and on 3 nodes x 1 rank, messages to other nodes cut at the network segment (collectives/nodes.c),
# with the ranks per node detected from the node boundaries (MPI_COMM_TYPE_SHARED, DDL_RANKS_PER_NODE
# unset) and checked (--expect-rpn); a CSV's `# cluster:` and `# hosts:` lines; an
# interrupted job leaves no process on the nodes.
# The tool's bad input (one line, exit 2, nothing left in `ip netns list`), an interrupted `up` and a
# failed one leave nothing behind either. Where namespaces cannot be made (not root, no permission)
# it prints one SKIP line. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
emu="sh $root/harness/scripts/emucluster.sh"
name=t$$
unset DDL_RANKS_PER_NODE DDL_GRID DDL_PATTERNS DDL_SEGMENT_BYTES DDL_NET_SEGMENT_BYTES DDL_TEST_NODE_RANKS
trap '$emu --name $name down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

mine() { ip netns list 2>/dev/null | grep -c "^$name-"; } # namespaces of this test's cluster

# bad ARGS...: the tool refuses with one stderr line and exit 2, and leaves no namespace behind
bad_input() {
    $emu --name $name "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    if [ "$got" -ne 2 ]; then bad "emucluster.sh $*: exit $got, want 2"
    elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "emucluster.sh $*: $(wc -l <"$tmp/err") stderr lines, want 1"
    elif [ "$(mine)" -ne 0 ]; then bad "emucluster.sh $*: left namespaces: $(ip netns list | grep "^$name-")"
    else ok; fi
}

bad_input up --nodes 0
bad_input up --nodes 17
bad_input up --nodes two
bad_input up --nodes 2 --rate 500mbps
bad_input up --nodes 2 --rate 500
bad_input up --nodes 2 --delay 5
bad_input up --nodes 2 --color blue
bad_input run -- true                      # not up
bad_input frobnicate
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then # not root
    setpriv --reuid 65534 --regid 65534 --clear-groups $emu --name $name up --nodes 2 >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q root "$tmp/err" && ok ||
        bad "not root: $(cat "$tmp/err")"
fi
mkdir "$tmp/bin" # every tool but ip: "ip not found", exit 2
for t in sh dirname grep awk sort id sed head mkdir rm rmdir sleep cat mv tc unshare hostname wc; do
    p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
PATH=$tmp/bin $emu --name $name up --nodes 2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "ip not found" "$tmp/err" && ok || bad "without ip: $(cat "$tmp/err")"

# namespaces available? (root, CAP_SYS_ADMIN, iproute2) — otherwise one SKIP line
if [ "$(id -u)" != 0 ] || ! ip netns add "$name-probe" 2>/dev/null; then
    echo "SKIP: emulated cluster needs root and network namespaces (emucluster.sh); correctness across nodes not run"
    report; exit $?
fi
ip netns del "$name-probe"

[ -x "$BUILD/tests/test_allreduce" ] || { bad "no $BUILD/tests/test_allreduce (build first)"; report; exit 1; }
# on_nodes NODES PPN TEST ARGS...: TEST on NODES x PPN ranks of the cluster that is up
on_nodes() {
    n=$1 k=$2 t=$3; shift 3
    timeout 300 $emu --name $name run --ppn "$k" -- sh "$root/harness/scripts/mpilaunch.sh" $((n * k)) \
        "$BUILD/tests/$t" "$@" >"$tmp/log" 2>&1 </dev/null; rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/log" | tail -n 1)
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    if [ -z "$line" ] || [ "$rc" -ne 0 ] || [ "$f" -ne 0 ] || [ "$p" -lt 100 ]; then
        bad "$t on $n nodes x $k ranks: exit $rc, \"$line\""; grep -m 10 FAIL "$tmp/log"; tail -n 3 "$tmp/log"
    else ok; echo "$t on $n nodes x $k ranks: $line"; fi
}
# run_on NODES PPN: up, test_allreduce --quick --expect-rpn PPN (which also checks that messages to other
# nodes are cut at the network segment) and test_collectives on NODES x PPN ranks
run_on() {
    if ! $emu --name $name up --nodes "$1" >"$tmp/up" 2>&1; then bad "up --nodes $1: $(cat "$tmp/up")"; return; fi
    on_nodes "$1" "$2" test_allreduce --quick --expect-rpn "$2"
    on_nodes "$1" "$2" test_collectives --quick
}
run_on 2 2
# calibrate --network across the nodes (one rank each: MPICH's ranks spin, 4 of them stall 2 cores):
# the inter-node exchange in network-segment pieces; a bad DDL_NET_SEGMENT_BYTES is one line, exit 2
$emu --name $name run --ppn 1 -- sh "$root/harness/scripts/mpilaunch.sh" 2 "$BUILD/ddlbench" calibrate --network \
    -b 16K -e 4M --rounds 1 -n 5 -o "$tmp/cal.platform" >"$tmp/cal" 2>&1 </dev/null; rc=$?
[ "$rc" -eq 0 ] && grep -q "inter exchange" "$tmp/cal" && grep -q inter "$tmp/cal.platform" && ok ||
    bad "calibrate --network on 2 x 1: exit $rc, $(tail -n 2 "$tmp/cal")"
# and the same exchange sent whole (MPI's own collectives), less the pieces: whole_ns from the piece up
wh=$(sed -n 's/^whole_ns = //p' "$tmp/cal.platform")
# (the sweep's sizes from 64 KiB: 2x apart up to 1 MiB, then 4 MiB)
echo "$wh" | awk -F';' '{ ok = $1 == "64512:0" && NF == 7; last = 32768
    for (i = 2; i <= NF; i++) {
        split($i, p, ":"); ok = ok && p[1] == (i < NF ? 2 * last : 4194304) && p[2] >= 0; last = p[1]
    }
    exit !ok }' &&
    grep -q "^  inter whole " "$tmp/cal" && ok || bad "whole_ns on 2 x 1: \"$wh\""
DDL_NET_SEGMENT_BYTES=12 $emu --name $name run --ppn 2 -- sh "$root/harness/scripts/mpilaunch.sh" 4 "$BUILD/ddlbench" \
    calibrate --network -e 1K -o "$tmp/bad.platform" >/dev/null 2>"$tmp/err" </dev/null; rc=$?
[ "$rc" -eq 2 ] && grep -q "DDL_NET_SEGMENT_BYTES" "$tmp/err" && [ ! -e "$tmp/bad.platform" ] && ok ||
    bad "calibrate with DDL_NET_SEGMENT_BYTES=12: exit $rc, $(head -n 2 "$tmp/err")"
# provenance: the ranks' hostnames and the cluster's settings in the CSV (cluster still up: 2 nodes)
$emu --name $name run --ppn 1 -- sh "$root/harness/scripts/mpilaunch.sh" 2 "$BUILD/ddlbench" allreduce -a ring \
    -e 4K -w 1 -n 2 --csv "$tmp/p.csv" >/dev/null 2>&1 </dev/null
grep -q "^# hosts: 2 hosts: $name-n1,$name-n2$" "$tmp/p.csv" && ok || bad "hosts line: $(grep '^# hosts' "$tmp/p.csv")"
grep -q "^# cluster: emucluster $name: 2 nodes, 1 ranks/node.*mpi_yield_when_idle=1.*DDL_POLL_US=" "$tmp/p.csv" &&
    ok || bad "cluster line: $(grep '^# cluster' "$tmp/p.csv")"
# an interrupted job: SIGTERM to `run` ends its processes on every node; the cluster stays up
$emu --name $name run -- sh "$root/harness/scripts/mpilaunch.sh" 2 sleep 300 >/dev/null 2>&1 </dev/null &
pid=$!; n=0
while [ -z "$(ip netns pids "$name-n2" 2>/dev/null)" ] && [ $n -lt 300 ]; do sleep 0.05; n=$((n + 1)); done
kill -TERM $pid; wait $pid; rc=$?
left=$(ip netns pids "$name-n1"; ip netns pids "$name-n2")
[ "$rc" -eq 143 ] && [ -z "$left" ] && [ "$(mine)" -eq 3 ] && ok || bad "SIGTERM during run: exit $rc, left: $left"
$emu --name $name down >/dev/null; [ "$(mine)" -eq 0 ] && ok || bad "down left $(mine) namespaces"
run_on 3 1
$emu --name $name down >/dev/null; [ "$(mine)" -eq 0 ] && ok || bad "down left $(mine) namespaces"

# interrupted while coming up: SIGTERM once the first node exists; nothing may remain
$emu --name $name up --nodes 16 --rate 1gbit >/dev/null 2>&1 &
pid=$!; n=0
while [ "$(ip netns list 2>/dev/null | grep -c "^$name-n1\b")" -eq 0 ] && [ $n -lt 200 ]; do sleep 0.01
    n=$((n + 1)); done
kill -TERM $pid; wait $pid; rc=$?
[ "$rc" -eq 143 ] && [ "$(mine)" -eq 0 ] && ok || bad "SIGTERM during up: exit $rc, $(mine) namespaces left"
# failing part-way (a delay without netem): removes what it made; with netem, the delay applies
if $emu --name $name up --nodes 2 --delay 1ms >/dev/null 2>"$tmp/err"; then
    tc -n "$name-n1" qdisc show dev eth0 | grep -q netem && ok || bad "--delay: no netem qdisc on eth0"
    $emu --name $name down >/dev/null
else
    grep -q netem "$tmp/err" && [ "$(mine)" -eq 0 ] && ok ||
        bad "--delay without netem: $(cat "$tmp/err"), $(mine) left"
fi
report
