#!/bin/sh
# bad_inputs.sh — every malformed input is refused clearly: options, environment variables, platform
# presets and link figures, profile files, grid strings, the sweep script and `make run NODES=0`.
# Each row of the table runs one command and expects exit status 2, exactly one line on stderr and
# no crash (no sanitizer report, no signal). Rows: "[VAR=value ...] -- WHAT ARGS", WHAT being
# `ddlbench` (run directly: options are checked before MPI starts; singleton MPI where a check needs
# the communicator), `mpi2` (2 ranks under harness/scripts/mpilaunch.sh; stderr counted without the
# launcher's own boxed notes), `sweep` (harness/scripts/sweep.sh) or `make`. Prints "N passed, N failed".
BUILD=${BUILD:-build}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
exe=$BUILD/ddlbench
case $exe in /*) ;; *) exe=$root/$exe;; esac
passed=0; failed=0; tried=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

# profile files for the --profile rows
printf 'gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte =' >"$tmp/truncated.profile"
: >"$tmp/empty.profile"
head -c 300 /bin/sh >"$tmp/binary.profile"
printf 'gemm_gflops_fp32 = -1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/negative.profile"
printf 'gemm_gflops_fp32 = 1e999\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/overflow.profile"
printf 'gemm_gflops_fp32 = 10x\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/garbage.profile"
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\nwarp_factor = 9\n' >"$tmp/unknown.profile"
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/nomem.profile"  # no mem_gbps

# The table. P = a tiny training run's options (so a wrongly accepted row still ends quickly).
P="--batch 1 --image-size 32 --steps 1 --warmup 0"
table() {
cat <<EOF2
-- ddlbench train --batch ""
-- ddlbench train --batch -1
-- ddlbench train --batch 0
-- ddlbench train --batch 99999999999999999999
-- ddlbench train --batch 4x
-- ddlbench train --batch
-- ddlbench train --model resnet9
-- ddlbench train --image-size 16
-- ddlbench train --steps 0
-- ddlbench train -a ring,nosuch
-- ddlbench train --bucket-mb 1,,2
-- ddlbench train --bucket-mb -5
-- ddlbench train --timeout -1
-- ddlbench train --timeout 1e3
-- ddlbench train --poll-us 2000000
-- ddlbench train --bogus 1
-- ddlbench train --compute all
-- ddlbench train --compute
-- ddlbench train $P --profile $tmp/nomem.profile
-- ddlbench train $P --profile /nonexistent/x.profile
-- ddlbench train $P --profile $tmp/empty.profile
-- ddlbench train $P --profile $tmp/truncated.profile
-- ddlbench train $P --profile $tmp/binary.profile
-- ddlbench train $P --profile $tmp/negative.profile
-- ddlbench train $P --profile $tmp/overflow.profile
-- ddlbench train $P --profile $tmp/garbage.profile
-- ddlbench train $P --profile $tmp/unknown.profile
-- ddlbench train $P -a ddl --grid 4xx4
-- ddlbench train $P -a ddl --grid 0x1
-- ddlbench train $P -a ddl --grid 99999999999x1
-- ddlbench train $P -a ddl --grid 2x2
-- ddlbench train $P -a ddl --patterns ring,tree
-- ddlbench train $P -a ddl --csv /nonexistent/dir/out.csv
DDL_GRID=2x3 -- ddlbench train $P -a ddl
DDL_GRID=x -- ddlbench train $P -a ddl
DDL_PATTERNS=tree -- ddlbench train $P -a ddl
DDL_SEGMENT_BYTES=0 -- ddlbench train $P -a ring
DDL_SEGMENT_BYTES=12abc -- ddlbench train $P -a ring
DDL_SEGMENT_BYTES=99999999999999999999999 -- ddlbench train $P -a ring
DDL_POLL_US=-3 -- ddlbench train $P -a ring --poll-us 0
DDL_RANKS_PER_NODE=0 -- ddlbench train $P -a ring
DDL_RANKS_PER_NODE=abc -- ddlbench train $P -a ring
DDL_FAULT_INJECT=x:y -- ddlbench train $P
DDL_FAULT_INJECT=0:1:explode -- ddlbench train $P
-- ddlbench allreduce -b ""
-- ddlbench allreduce -e 64Q
-- ddlbench allreduce -e 1T -n 1 -w 0
-- ddlbench allreduce -n 99999999999999999999
-- ddlbench allreduce --timeout x
-- ddlbench allreduce --csv /nonexistent/dir/out.csv -e 1K
DDL_GRID=3 -- ddlbench allreduce -a ddl -e 1K
DDL_SEGMENT_BYTES=-1 -- ddlbench allreduce -a ring -e 1K
DDL_GRID=3x1 -- mpi2 allreduce -a ddl -e 1K -n 1 -w 0
DDL_RANKS_PER_NODE=3 -- mpi2 train $P -a ring
-- mpi2 train $P -a ddl --grid 3
-- ddlbench model --model nosuch
-- ddlbench model --batch 0
-- ddlbench model --image-size 31
-- ddlbench model --time --reps 0
-- ddlbench model --algo nosuch --bytes 1M --preset minsky --nodes 2
-- ddlbench model --algo ring --bytes 1Z --preset minsky --nodes 2
-- ddlbench model --algo ring --preset minsky --nodes 2
-- ddlbench model --algo ddl --grid 3x3 --bytes 1M --preset minsky --nodes 2
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes 2 --profile $tmp/binary.profile
-- ddlbench platform --preset nosuch --nodes 2
-- ddlbench platform --preset minsky --nodes 0
-- ddlbench platform --preset minsky
-- ddlbench platform --preset minsky --nodes 2 --gpus-per-node 99999999999999999999
-- ddlbench platform --preset custom --nodes 2 --intra-bw 10Qbit --intra-lat 1us --inter-bw 1G --inter-lat 1us
-- ddlbench platform --preset custom --nodes 2 --intra-bw 10G --intra-lat -5us --inter-bw 1G --inter-lat 1us
-- ddlbench platform --preset custom --nodes 2 --intra-bw 0 --intra-lat 5us --inter-bw 1G --inter-lat 1us
-- ddlbench platform --preset custom --nodes 2 --intra-bw 10G --intra-lat 5parsecs --inter-bw 1G --inter-lat 1us
-- ddlbench platform --preset minsky --nodes 2 -o /nonexistent/dir
-- ddlbench calibrate --bogus
-- ddlbench calibrate -o /nonexistent/dir/x.profile
-- ddlbench nosuchcommand
-- sweep --nodes 0
-- sweep --nodes -2
-- sweep --gpus-per-node 0
-- sweep --models resnet50:x
-- sweep --models resnet9:4
-- sweep --algos ring,nosuch
-- sweep --backend gpu
-- sweep --platform nosuch
-- sweep --profile nosuch
-- sweep --bucket-mb -1
-- sweep --train-args "--batch 0"
-- sweep --frobnicate
-- sweep --jobs 0
-- sweep --jobs x
-- sweep --backend model --nodes 65537
-- ddlbench model --train --preset minsky --nodes 0
-- ddlbench model --train --preset minsky --nodes 2 -a nosuch
-- ddlbench model --train --preset minsky --nodes 2 --bucket-mb -1
-- ddlbench model --train --preset minsky --nodes 2 --frobnicate 1
-- ddlbench model --train --nodes 2 --profile /nonexistent.profile
-- make run NODES=0
-- make run NODES=x
-- make run GPUS_PER_NODE=0
-- make run BACKEND=gpu
EOF2
}

run_row() { # one table line; sets $tmp/err and returns the status
    line=$1
    envs=${line%%-- *}; cmd=${line#*-- }
    set -f
    # shellcheck disable=SC2086
    set -- $cmd
    set +f
    what=$1; shift
    case $what in
    ddlbench) env $envs "$exe" "$@";;
    mpi2) env $envs MPIRUN_FLAGS="${MPIRUN_FLAGS:-}" sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" "$@";;
    sweep) env $envs sh "$root/harness/scripts/sweep.sh" --build "$BUILD" --out "$tmp/sweep" -q "$@";;
    make) env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $envs make -s -C "$root" BUILD="$BUILD" "$@";; # not the calling make's jobserver
    esac >"$tmp/out" 2>"$tmp/err.raw" </dev/null
}

table >"$tmp/table"
while IFS= read -r line; do
    [ -n "$line" ] || continue
    tried=$((tried + 1))
    run_row "$line"; got=$?
    # the launcher's own notes (Open MPI's boxed "Primary job ... non-zero exit code") are not ours
    awk '/^--------------------+$/ { box = !box; next } !box' "$tmp/err.raw" >"$tmp/err"
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne 2 ]; then failed=$((failed + 1)); echo "FAIL [$line]: exit $got, want 2: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
    elif [ "$lines" -ne 1 ]; then failed=$((failed + 1)); echo "FAIL [$line]: $lines stderr lines, want 1:"; head -n 4 "$tmp/err"
    elif grep -q 'Sanitizer\|runtime error\|Segmentation\|core dumped' "$tmp/err"; then failed=$((failed + 1)); echo "FAIL [$line]: crash: $(cat "$tmp/err")"
    else passed=$((passed + 1)); [ -n "${VERBOSE:-}" ] && echo "ok [$line]: $(cat "$tmp/err")"; fi
done <"$tmp/table"
echo "# $tried malformed inputs tried"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
