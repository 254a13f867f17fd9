#!/bin/sh
# emu_agent.sh HOST COMMAND... — the "remote shell" of the emulated cluster (harness/scripts/emucluster.sh):
# Open MPI's plm_rsh_agent and MPICH hydra's rsh launcher call it as they would call ssh. It runs
# COMMAND (one shell command line, as ssh would hand it to the remote shell) inside node HOST: in
# HOST's network namespace, with HOST as its hostname (a new UTS namespace). The daemon it starts
# (orted, hydra_pmi_proxy) and every rank that daemon forks therefore sit on node HOST, and MPI tells
# the nodes apart by their daemons and hostnames as it would on a real cluster.
set -u
while [ $# -gt 0 ]; do case $1 in -*) shift;; *) break;; esac; done # ssh-style options: none apply
[ $# -ge 2 ] || { echo "emu_agent.sh: usage: emu_agent.sh HOST COMMAND..." >&2; exit 2; }
host=$1; shift
case $host in
*[!A-Za-z0-9-]*|'') echo "emu_agent.sh: \"$host\" is not a node of an emulated cluster" >&2; exit 2;;
esac
# only namespaces that emucluster.sh made carry its marker file
[ -e "/run/netns/$host" ] && [ -e "${EMU_STATE:-/run/ddl-emucluster}/nodes/$host" ] ||
    { echo "emu_agent.sh: no emulated node \"$host\" (emucluster.sh status)" >&2; exit 2; }
exec ip netns exec "$host" unshare --uts sh -c 'hostname "$1" && exec sh -c "$2"' sh "$host" "$*"
