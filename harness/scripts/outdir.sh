# shellcheck shell=sh
# outdir.sh — sourced by the scripts that write results (sweep.sh, bench.sh, gpu_check.sh, report.sh):
# output folders and files checked before any work, with one line naming the option or variable.
#   outdir_ready NAME DIR   DIR made if missing; it must be a directory, writable (a file is created
#                           and removed in it), and not a kernel interface (/proc, /sys, ...)
#   outfile_ready NAME FILE FILE's folder as above; FILE a regular file or new. A symbolic link is
#                           followed: outdir_file is the file to write (its target), so that writing
#                           outdir_file.tmp and renaming it never replaces the link
# Each prints "PROG: NAME: ..." (PROG from $outdir_prog, default the script's name) and exits 2.
outdir_fail() { echo "${outdir_prog:-$(basename "$0")}: $1: $2" >&2; exit 2; }

outdir_ready() {
    [ -n "$2" ] || outdir_fail "$1" "expected a folder name, got \"\""
    [ ! -e "$2" ] || [ -d "$2" ] || outdir_fail "$1" "\"$2\" exists and is not a directory; expected a results folder"
    mkdir -p "$2" 2>/dev/null || outdir_fail "$1" "cannot create \"$2\"; expected a writable location"
    case $(stat -f -c %T "$2" 2>/dev/null) in proc|sysfs|cgroup*|debugfs|tracefs|securityfs)
        outdir_fail "$1" "\"$2\" is a kernel interface (/proc, /sys); expected a results folder";; esac
    outdir_probe=$(mktemp "$2/.probe.XXXXXX" 2>/dev/null) && rm -f "$outdir_probe" ||
        outdir_fail "$1" "\"$2\" is not writable; expected a writable folder"
}

outfile_ready() {
    case $2 in ''|*/) outdir_fail "$1" "expected a file name, got \"$2\"";; esac
    outdir_file=$2
    [ -L "$2" ] && { outdir_file=$(readlink -f "$2" 2>/dev/null) || outdir_fail "$1" "\"$2\": a broken chain of links"
        }
    outdir_ready "$1" "$(dirname "$outdir_file")"
    [ ! -e "$outdir_file" ] || [ -f "$outdir_file" ] ||
        outdir_fail "$1" "\"$2\" is not a regular file; expected a results file"
}
