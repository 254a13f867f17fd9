#!/bin/sh
# emucluster.sh — a cluster on one machine, for real MPI runs across node boundaries.
#   up --nodes N [--rate R] [--delay D]   make N nodes; run [--ppn K] -- CMD   run CMD on node 1 with
#   the cluster's launcher settings (mpirun inside CMD starts ranks on every node); status; down.
# Each node is a network namespace <name>-n<i> with its own hostname (a UTS namespace entered for
# every process started on it) and one NIC, eth0 (10.254.12.<i>/24), a veth link to a bridge in a
# switch namespace <name>-sw. Nothing is made in the machine's own namespace and there is no route
# out: traffic stays among the namespaces made here. --rate limits each node's NIC in both directions
# with tc tbf (on eth0 and on its switch port; a burst of one 16 KiB packet, packets capped at 16 KiB by
# the veths' GSO size: a link of fixed rate, as the simulator's); --delay adds netem delay on each node's egress, only
# where the kernel has netem (detected; otherwise --delay is refused).
# Launchers: Open MPI reads OMPI_MCA_* (plm_rsh_agent = emu_agent.sh, a hostfile, the TCP BTL on the
# cluster subnet); MPICH's hydra reads HYDRA_* (rsh launcher = emu_agent.sh, a hostfile). Either starts
# one daemon per node through emu_agent.sh, so MPI_COMM_TYPE_SHARED sees the real node boundaries.
# Small-machine settings (applied by `run`, written into every CSV's `# cluster:` line): Open MPI's
# mpi_yield_when_idle 1: ranks spinning on the few cores otherwise starve the kernel's packet
# processing (1 MB allreduce: 24 ms instead of 0.6 ms); and DDL_POLL_US=0, so ddlbench's ranks wait
# in MPI_Waitall, yielding as MPI_Allreduce does (sleep-polling, DDL_POLL_US=20, made our allreduces
# 1.5-3x slower than with 0 across these namespaces: docs/BENCHMARKS.md, "Waiting").
# Everything `up` makes is removed by `down`, on Ctrl-C/SIGTERM and when any step fails.
# Errors (not root, no namespaces, missing ip/tc/unshare, bad values: --rate and --delay are checked
# by emu_values.sh): one line, exit 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
STATE=${EMU_STATE:-/run/ddl-emucluster}
MAX_NODES=16
GSO_BYTES=16384 # the shaped NICs' largest packet (veth gso_max_size), which the tbf burst holds
SUBNET=10.254.12
usage() {
    cat <<'EOF'
usage: emucluster.sh [--name NAME] COMMAND ...
  up --nodes N [--rate R] [--delay D]   make N nodes (1..16); R per node NIC, both ways: e.g. 500mbit,
     [--check]                          10gbit (units bit, kbit, mbit, gbit; default none = unshaped);
                                        D one-way delay per node egress (us or ms; needs netem);
                                        --check: only check the values, root and tools
  run [--ppn K] -- CMD [ARGS...]        run CMD on node 1 with Open MPI / MPICH set up to place K ranks
                                        per node, node-major (default K=1): e.g.
                                        emucluster.sh run --ppn 2 -- mpirun -np 4 build/ddlbench allreduce
  status                                the nodes, addresses, shaping; exit 1 when not up
  down                                  remove everything `up` made
  --name NAME                           cluster name (default ddlemu; [a-z][a-z0-9]{0,7})
Environment: EMU_STATE (state folder, default /run/ddl-emucluster); in run: DDL_POLL_US (default 0),
EMU_SMALL=0 (neither small-machine setting: ranks spin, as on a machine with cores to spare).
EOF
}
die() { echo "emucluster.sh: $*" >&2; exit 2; }
. "$here/emu_values.sh" # rate_bits, check_delay

# try DESCRIPTION CMD...: run CMD; on failure one line with the command's first error line, exit 2
try() {
    what=$1; shift
    if ! out=$("$@" 2>&1 >/dev/null); then
        die "$what failed: $(echo "$out" | head -n 1)"
    fi
}

name=ddlemu
[ "${1:-}" = --name ] && { [ $# -ge 2 ] || die "--name: expected a value"; name=$2; shift 2; }
echo "$name" | grep -Eqx '[a-z][a-z0-9]{0,7}' || die "--name: expected [a-z][a-z0-9]{0,7}, got \"$name\""
[ $# -ge 1 ] || { usage >&2; exit 2; }
cmd=$1; shift
sw=$name-sw
dir=$STATE/$name

node_list() { # the cluster's node namespaces, as `ip netns list` has them, in order
    ip netns list 2>/dev/null | awk -v p="$name-n" 'index($1, p) == 1 && substr($1, length(p) + 1) ~ /^[0-9]+$/ {
        print substr($1, length(p) + 1), $1 }' | sort -n | awk '{print $2}'
}

end_jobs() { # NS...: end the processes running in these namespaces (SIGTERM, then SIGKILL)
    pids=$(for ns in "$@"; do ip netns pids "$ns" 2>/dev/null; done)
    [ -n "$pids" ] || return 0
    kill $pids 2>/dev/null
    n=0
    while [ $n -lt 20 ] && [ -n "$(for ns in "$@"; do ip netns pids "$ns" 2>/dev/null; done)" ]; do sleep 0.1
        n=$((n + 1)); done
    pids=$(for ns in "$@"; do ip netns pids "$ns" 2>/dev/null; done)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null && sleep 0.2
    return 0
}

teardown() { # remove every namespace of the cluster (ending what still runs in it), its state
    end_jobs $(node_list)
    for ns in $(node_list) $(ip netns list 2>/dev/null | awk -v s="$sw" '$1 == s {print $1}'); do
        ip netns del "$ns" 2>/dev/null
        rm -f "$STATE/nodes/$ns"
    done
    rm -rf "$dir"; rmdir "$STATE/nodes" "$STATE" 2>/dev/null
}

need_tools() {
    for t in ip tc unshare hostname; do
        command -v "$t" >/dev/null 2>&1 || die "$t not found (install iproute2 / util-linux)"
    done
    [ "$(id -u)" = 0 ] || die "needs root (network namespaces and tc); run as root or skip"
}

# make_node I: namespace <name>-nI, its NIC eth0 (SUBNET.I) on switch port pI, shaping and delay
make_node() {
    i=$1
    ns=$name-n$i
    try "ip netns add $ns" ip netns add "$ns"
    mkdir -p "$STATE/nodes" && : >"$STATE/nodes/$ns" || die "cannot write $STATE/nodes/$ns"
    try "veth for $ns" ip -n "$sw" link add "p$i" type veth peer name eth0 netns "$ns"
    try "switch port p$i" ip -n "$sw" link set "p$i" master br0 up
    try "address of $ns" ip -n "$ns" addr add "$SUBNET.$i/24" dev eth0
    try "eth0 of $ns up" ip -n "$ns" link set eth0 up
    try "lo of $ns up" ip -n "$ns" link set lo up
    if [ "$bits" -gt 0 ]; then # packets of at most GSO_BYTES, so that the small tbf burst holds one
        try "gso of $ns eth0" ip -n "$ns" link set eth0 gso_max_size "$GSO_BYTES"
        try "gso of switch port p$i" ip -n "$sw" link set "p$i" gso_max_size "$GSO_BYTES"
        try "tc tbf on $ns eth0" tc -n "$ns" qdisc add dev eth0 root handle 1: tbf rate "${bits}bit" burst "$burst" \
            latency 100ms
        try "tc tbf on switch port p$i" tc -n "$sw" qdisc add dev "p$i" root tbf rate "${bits}bit" burst "$burst" \
            latency 100ms
    fi
    if [ "$delay" != none ]; then
        if [ "$bits" -gt 0 ]; then try "netem on $ns eth0" tc -n "$ns" qdisc add dev eth0 parent 1:1 handle 10: netem \
            delay "$delay"
        else try "netem on $ns eth0" tc -n "$ns" qdisc add dev eth0 root netem delay "$delay"; fi
    fi
}

cmd_up() {
    nodes="" rate=none delay=none check=0
    while [ $# -gt 0 ]; do
        [ "$1" = --check ] && { check=1; shift; continue; }
        [ $# -ge 2 ] || die "$1: expected a value (see --help)"
        case $1 in --nodes) nodes=$2;; --rate) rate=$2;; --delay) delay=$2;;
        *) die "up: unknown option \"$1\" (see --help)";; esac
        shift 2
    done
    case $nodes in ''|*[!0-9]*|0*) die "--nodes: expected a positive integer, got \"$nodes\"";; esac
    [ ${#nodes} -le 4 ] && [ "$nodes" -le $MAX_NODES ] || die "--nodes: expected at most $MAX_NODES, got $nodes"
    bits=0; [ "$rate" = none ] || bits=$(rate_bits "$rate") || exit 2
    check_delay "$delay"
    need_tools
    [ "$check" = 1 ] && return 0
    if [ -n "$(node_list)" ] || [ -e "/run/netns/$sw" ]; then
        die "cluster \"$name\" is already up (emucluster.sh --name $name down first)"
    fi
    ok=0
    trap '[ "$ok" = 1 ] || teardown' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$dir" "$STATE/nodes" || die "cannot create $dir"
    try "ip netns add $sw (network namespaces unavailable?)" ip netns add "$sw"
    try "bridge in $sw" ip -n "$sw" link add br0 type bridge
    try "bridge up" ip -n "$sw" link set br0 up
    netem=absent
    tc -n "$sw" qdisc add dev br0 root netem delay 1ms >/dev/null 2>&1 && netem=present &&
        tc -n "$sw" qdisc del dev br0 root >/dev/null 2>&1
    [ "$delay" = none ] || [ "$netem" = present ] ||
        die "--delay: this kernel has no netem (sch_netem), so delay cannot be emulated; run without --delay"
    # tbf burst: one packet of at most GSO_BYTES and headers (at rates above 3.3 Gbit/s, 50 us at the
    # rate). With 2 ms at the rate (125 KB at 500mbit, before 2026-12-04) a 16 KiB rhd at 4 ranks took
    # 66 us over 5 iterations and 253 over 20: the bucket's history, which no fixed-rate link reproduces
    # (docs/BENCHMARKS.md, 2026-12-04). Packets capped at 16 KiB, not the MTU: 1,500 B ones took 2 cores.
    burst=$((GSO_BYTES + 4096)); [ $((bits / 8 / 20000)) -le "$burst" ] || burst=$((bits / 8 / 20000))
    i=1
    while [ "$i" -le "$nodes" ]; do make_node "$i"; i=$((i + 1)); done
    printf 'nodes=%s\nrate=%s\nrate_bits=%s\ndelay=%s\nnetem=%s\n' "$nodes" "$rate" "$bits" "$delay" "$netem" \
        >"$dir/config.tmp" &&
        mv "$dir/config.tmp" "$dir/config" || die "cannot write $dir/config"
    ok=1
    echo "emucluster $name: up, $nodes nodes $name-n1..$name-n$nodes ($SUBNET.1..$nodes), NIC rate $rate," \
        "delay $delay (netem $netem)"
}

cmd_down() {
    [ $# -eq 0 ] || die "down: unexpected argument \"$1\""
    need_tools
    if [ -z "$(node_list)" ] && ! [ -e "/run/netns/$sw" ]; then
        rm -rf "$dir"
        echo "emucluster $name: nothing to remove"
        return 0
    fi
    teardown
    echo "emucluster $name: down"
}

cmd_status() {
    [ $# -eq 0 ] || die "status: unexpected argument \"$1\""
    need_tools
    if ! [ -f "$dir/config" ] || ! [ -e "/run/netns/$sw" ]; then echo "emucluster $name: not up"; return 1; fi
    . "$dir/config"
    echo "# emucluster $name: $nodes nodes, NIC rate $rate each way (tc tbf), delay $delay, netem $netem"
    echo "# node        address          tx_bytes     rx_bytes  qdisc"
    for ns in $(node_list); do
        i=${ns#"$name-n"}
        set -- $(ip -n "$ns" -s link show eth0 | awk \
            '/RX:/ {getline; rx = $1} /TX:/ {getline; tx = $1} END {print tx, rx}')
        q=$(tc -n "$ns" qdisc show dev eth0 | awk '{printf "%s%s", (NR > 1 ? "+" : ""), $2}')
        printf '  %-11s %-13s %12s %12s  %s\n' "$ns" "$SUBNET.$i" "$1" "$2" "$q"
    done
}

# the environment of a job: launcher settings for Open MPI and hydra, the small-machine settings,
# and DDL_CLUSTER, which ddlbench writes as the `# cluster:` provenance line of its CSVs
job_env() { # ppn
    ppn=$1
    i=1; : >"$dir/hostfile.ompi"; : >"$dir/hostfile.hydra"
    while [ "$i" -le "$nodes" ]; do
        echo "$name-n$i slots=$ppn" >>"$dir/hostfile.ompi"; echo "$name-n$i:$ppn" >>"$dir/hostfile.hydra"
        i=$((i + 1))
    done
    export EMU_STATE="$STATE"
    export OMPI_MCA_plm_rsh_agent="$here/emu_agent.sh" OMPI_MCA_orte_default_hostfile="$dir/hostfile.ompi"
    export OMPI_MCA_plm_rsh_no_tree_spawn=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
    export OMPI_MCA_btl_tcp_if_include="$SUBNET.0/24" OMPI_MCA_oob_tcp_if_include="$SUBNET.0/24"
    export HYDRA_LAUNCHER=rsh HYDRA_LAUNCHER_EXEC="$here/emu_agent.sh" HYDRA_HOST_FILE="$dir/hostfile.hydra"
    export HYDRA_IFACE=eth0 UCX_NET_DEVICES=eth0 FI_TCP_IFACE=eth0 FI_SOCKETS_IFACE=eth0
    if [ "${EMU_SMALL:-1}" = 0 ]; then
        small="small-machine settings off (EMU_SMALL=0)${DDL_POLL_US:+, DDL_POLL_US=$DDL_POLL_US}"
    else
        export OMPI_MCA_mpi_yield_when_idle=1 DDL_POLL_US="${DDL_POLL_US:-0}"
        small="Open MPI mpi_yield_when_idle=1, DDL_POLL_US=$DDL_POLL_US"
    fi
    nic_desc="NIC $rate each way (tc tbf), delay $delay (netem $netem)"
    export DDL_CLUSTER="emucluster $name: $nodes nodes, $ppn ranks/node, $nic_desc; Open MPI btl tcp+vader; $small"
}

cmd_run() {
    ppn=1
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        [ $# -ge 2 ] || die "$1: expected a value (see --help)"
        case $1 in --ppn) ppn=$2;; *) die "run: unknown option \"$1\" (expected --ppn K -- CMD)";; esac
        shift 2
    done
    [ "${1:-}" = -- ] && [ $# -ge 2 ] || die "run: expected -- CMD [ARGS...]"
    shift
    case $ppn in ''|*[!0-9]*|0*) die "--ppn: expected a positive integer, got \"$ppn\"";; esac
    [ ${#ppn} -le 3 ] && [ "$ppn" -le 64 ] || die "--ppn: expected at most 64, got $ppn"
    case $here in *[[:space:]]*) die "the tool's path \"$here\" has blanks (MPI's rsh agent cannot be given it)";; esac
    need_tools
    [ -f "$dir/config" ] && [ -e "/run/netns/$name-n1" ] ||
        die "cluster \"$name\" is not up (emucluster.sh up --nodes N first)"
    . "$dir/config"
    job_env "$ppn"
    # a job interrupted: end what it left running on the nodes (the cluster stays up)
    trap 'end_jobs $(node_list); exit 130' INT
    trap 'end_jobs $(node_list); exit 143' TERM
    ip netns exec "$name-n1" unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' sh "$name-n1" "$@" &
    job=$!
    wait "$job"
}

case $cmd in
up) cmd_up "$@";;
down) cmd_down "$@";;
status) cmd_status "$@";;
run) cmd_run "$@";;
-h|--help|help) usage;;
*) die "unknown command \"$cmd\" (expected up, run, status or down; see --help)";;
esac
