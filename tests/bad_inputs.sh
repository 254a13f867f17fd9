#!/bin/sh
# bad_inputs.sh — every malformed input is refused clearly: options of every subcommand, environment
# variables, platform presets and link figures, profile files, grid strings, output paths, the sweep
# script, the make variables and the emulated cluster's values (`make cluster-bench NODES=0`, RATE
# with unknown units). Three parts:
# 1. The table: each row runs one command and expects exit status 2, exactly one line on stderr (and,
#    after "##", a text that line must contain: the option the user typed) and no crash (no sanitizer
#    report, no signal). Rows: "[VAR=value ...] -- WHAT ARGS" (shell words), WHAT being `ddlbench`
#    (run directly: options are checked before MPI starts; singleton MPI where a check needs the
#    communicator), `mpi2` (2 ranks under harness/scripts/mpilaunch.sh; stderr counted without the
#    launcher's own boxed notes), `sweep` (harness/scripts/sweep.sh), `script` (any script of
#    harness/scripts) or `make` (its own "make: *** ... Error" trailer is not counted).
# 2. Shell injection: every make variable given quotes, ;, $(...), backticks and make's own $(shell)
#    must run nothing (a marker file must not appear) and be refused or passed on as text.
# 3. Output paths that are accepted: a FIFO and a character device written through and never
#    replaced, a symbolic link followed and kept; refused outputs leave no file behind.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
exe=$BUILD/ddlbench
case $exe in /*) ;; *) exe=$root/$exe;; esac
passed=0; failed=0; tried=0
tmp=$(mktemp -d); trap 'chattr -i "$tmp/imm" 2>/dev/null; rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

# profile files for the --profile rows
printf 'gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte =' >"$tmp/truncated.profile"
: >"$tmp/empty.profile"
head -c 300 /bin/sh >"$tmp/binary.profile"
printf 'gemm_gflops_fp32 = -1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/negative.profile"
printf 'gemm_gflops_fp32 = 1e999\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/overflow.profile"
printf 'gemm_gflops_fp32 = 10x\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/garbage.profile"
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\nwarp_factor = 9\n' >"$tmp/unknown.profile"
printf 'gemm_gflops_fp32 = 0x10\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\nmem_gbps = 1\n' >"$tmp/hex.profile"
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = infinity\nreduce_ns_per_byte = 1\nmem_gbps = 1\n' >"$tmp/inf.profile"
mkfifo "$tmp/fifo.profile"
# output path oddities: a directory, a file where a directory is expected, a link to a directory
mkdir -p "$tmp/adir" "$tmp/plat/hostfile" "$tmp/run/report.md" && : >"$tmp/afile" && ln -s adir "$tmp/dirlink"
cp "$root/results/reference/scaling.csv" "$tmp/run/"
# a huge -s for kernels is refused only where three buffers of it do not fit in memory
kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/nomem.profile"  # no mem_gbps
# platform files with a non-decimal number; folders whose study report.md or platform smpi.cfg is a folder
pf="name = t\ngpus_per_node = 4\nintra_lat = 5e-06\nintra_bw = %s\ninter_lat = 1e-06\ninter_bw = 1e9\n%b"
printf "$pf" 0x10 "" >"$tmp/hex.platform"; printf "$pf" inf "" >"$tmp/inf.platform"; printf "$pf" 1e9 'lat_factor = 0x0:1\n' >"$tmp/hexf.platform"
mkdir -p "$tmp/study/report.md" "$tmp/plat3/smpi.cfg"

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
DDL_NET_SEGMENT_BYTES=1x -- ddlbench allreduce -a ring -e 1K
DDL_NET_SEGMENT_BYTES=32 -- ddlbench allreduce -a ddl -e 1K
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
-- sweep --backend emu --rate 500mbps
-- sweep --backend emu --nodes 17
-- sweep --backend emu --delay 5
-- sweep --backend mpi --rate 500mbit
-- make run BACKEND=emu RATE=500Mbps
-- make run BACKEND=emu NODES=17
-- make cluster-bench NODES=0
-- make cluster-bench RATE=fast
-- make cluster-bench GPUS_PER_NODE=x
$(classes)
$(own)
EOF2
}

# The classes of issue 18: injection-free make variables, output paths checked before the work, every
# override honoured or refused, memory checks, exact sizes, one precise line naming the option.
classes() {
cat <<EOF3
-- ddlbench allreduce -e 1K --csv $tmp/adir ## --csv
-- ddlbench allreduce -e 1K --csv /proc/ddl_bad.csv ## --csv
-- ddlbench allreduce -e 1K --csv /sys/ddl_bad.csv ## --csv
-- ddlbench allreduce -e 1K --csv $tmp/dirlink ## --csv
-- ddlbench allreduce -e 1K --csv $tmp/afile/x.csv ## --csv
-- ddlbench allreduce -e 1K --csv '' ## --csv
-- ddlbench train $P --csv $tmp/adir ## --csv
-- ddlbench train $P --csv /proc/ddl_bad.csv ## --csv
-- ddlbench train $P --csv /proc/self/status ## --csv
-- ddlbench calibrate -o $tmp/adir ## -o
-- ddlbench calibrate -o /proc/ddl_bad.profile ## -o
-- ddlbench gpu-check --profile-out $tmp/nosuch/x.profile ## --profile-out
-- ddlbench gpu-check --profile-out $tmp/adir ## --profile-out
-- ddlbench gpu-check --profile-out /sys/ddl_bad.profile ## --profile-out
-- ddlbench platform --preset minsky --nodes 2 -o /proc ## -o
-- ddlbench platform --preset minsky --nodes 2 -o $tmp/afile ## -o
-- ddlbench platform --preset minsky --nodes 2 -o $tmp/plat ## hostfile
-- ddlbench platform --preset minsky --nodes 2 -o $tmp/plat3 ## smpi.cfg
-- ddlbench calibrate --network -o $tmp/adir ## -o
-- ddlbench calibrate --network -o /proc/ddl_bad.platform ## -o
-- ddlbench calibrate --network -o '' ## -o
-- ddlbench calibrate --network --name 'a b' ## --name
-- ddlbench study --out /proc/ddl_bad ## --out
-- ddlbench study --out $tmp/afile ## --out
-- ddlbench study --out $tmp/study ## report.md
-- ddlbench train $P --jitter 0x10 ## --jitter
-- ddlbench train $P --jitter inf ## --jitter
-- ddlbench train $P --jitter ' 1' ## --jitter
-- ddlbench platform --preset $tmp/hex.platform --nodes 2 ## decimal
-- ddlbench model --algo ring --bytes 1M --preset $tmp/inf.platform --nodes 2 ## decimal
-- ddlbench platform --preset $tmp/hexf.platform --nodes 2 ## lat_factor
-- make help 'FIDELITY_FLAGS=--ranks 2;true' ## FIDELITY_FLAGS
-- sweep --out /proc/ddl_bad ## --out
-- sweep --out $tmp/afile ## --out
-- script report.sh $tmp/run ## report.md
-- make run SWEEP_FLAGS=--bogus ## SWEEP_FLAGS
-- ddlbench train $P -a ddl --grid 1 --patterns ring,ring,ring,ring,ring,ring,ring,ring,ring ## patterns
-- ddlbench train $P -a ddl --grid 1 --patterns ring,ring,ring,ring,ring,ring,ring,ring,junk ## patterns
-- ddlbench train $P -a ddl --grid 1 --patterns ring,rhd,ring,rhd,ring,rhd,ring,rhd, ## patterns
-- ddlbench train $P -a ddl --grid '' ## --grid
-- ddlbench train $P -a ddl --patterns '' ## --patterns
DDL_GRID=7 -- ddlbench train $P -a ddl --grid '' ## --grid
-- ddlbench model --algo ddl --grid 2x2x2x2x2x2x2x2 --patterns ring,ring,ring,ring,ring,ring,ring,ring,ring --bytes 1M --preset minsky --nodes 64 ## patterns
DDL_POLL_US=abc -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=1000001 -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=-1 -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=0x10 -- ddlbench train $P -a ring ## DDL_POLL_US
-- ddlbench train $P --profile $tmp/hex.profile ## decimal
-- ddlbench train $P --profile $tmp/inf.profile ## decimal
-- ddlbench train $P --profile $tmp/fifo.profile ## regular file
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes 2 --profile $tmp/hex.profile ## decimal
-- ddlbench platform --preset custom --nodes 2 --intra-bw 0x10G --intra-lat 1us --inter-bw 1G --inter-lat 1us ## --intra-bw
-- ddlbench platform --preset custom --nodes 2 --intra-bw 10G --intra-lat infus --inter-bw 1G --inter-lat 1us ## --intra-lat
-- ddlbench model --time --batch 60000 ## --time
-- ddlbench kernels -s 5 ## -s
-- ddlbench allreduce -b 5 -e 1K ## -b
-- ddlbench allreduce -b 4 -e 1K -d float64 ## -b
-- ddlbench allreduce -b 2 -e 1023 -d float16 ## -e
-- ddlbench kernels -s 4K,6 ## -s
-- ddlbench list --bogus ## --bogus
-- ddlbench train $P --platform nosuch ## --platform
-- ddlbench train $P --platform custom ## --platform
-- make run ALGOS= ## ALGOS
-- make run NODES=99999999999999999999 ## NODES
-- make run ALGOS=ring,nosuch SWEEP_FLAGS=--dry-run ## ALGOS
-- make run PLATFORM=nosuch SWEEP_FLAGS=--dry-run ## PLATFORM
-- make run MODELS=resnet9:4 SWEEP_FLAGS=--dry-run ## MODELS
EOF3
[ -n "$kb" ] && [ "$kb" -lt 50000000 ] && echo "-- ddlbench kernels -s 16G ## -s"
}

# Our own hostile probes: every subcommand x its options x empty, negative, overflow, junk suffix,
# huge, unicode and path oddities.
own() {
cat <<EOF4
-- ddlbench allreduce -b 1KK ## -b
-- ddlbench allreduce -e 18446744073709551616 ## -e
-- ddlbench allreduce -b ' 1K' ## -b
-- ddlbench allreduce -f 1025 ## -f
-- ddlbench allreduce --copy-reps 0 ## --copy-reps
-- ddlbench allreduce --device tpu ## --device
-- ddlbench allreduce --label 'a,b' -a ring ## --label
-- ddlbench allreduce -n １ ## -n
-- ddlbench allreduce -a '' ## -a
-- ddlbench allreduce -b ## -b
-- ddlbench reduce-scatter -b 5 -e 1K ## -b
-- ddlbench allgather -e 1T -n 1 -w 0 ## -e
-- ddlbench allgather --bogus 1 ## --bogus
-- ddlbench train --image-size 5000 ## --image-size
-- ddlbench train --steps 1.5 ## --steps
-- ddlbench train --warmup -1 ## --warmup
-- ddlbench train --first-bucket-mb x ## --first-bucket-mb
-- ddlbench train --precision fp8 ## --precision
-- ddlbench train --device tpu ## --device
-- ddlbench train $P --gpus-per-node 2 ## --gpus-per-node
-- ddlbench train $P --gpus-per-node 0 --platform minsky ## --gpus-per-node
-- ddlbench train $P -a ring --grid 1 ## --grid
-- ddlbench train --model '' ## --model
-- ddlbench train --batch ٣ ## --batch
-- ddlbench train -a 'ring;ls' ## -a
-- ddlbench train --bucket-mb 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 ## --bucket-mb
-- ddlbench train --csv ## --csv
-- ddlbench train $P --csv '' ## --csv
-- ddlbench model --batch abc ## --batch
-- ddlbench model --model '' ## --model
-- ddlbench model --reps 5 ## --reps
-- ddlbench model --image-size=99999999999 ## --image-size
-- ddlbench model --algo ring --bytes -1 --preset minsky --nodes 2 ## --bytes
-- ddlbench model --algo ring --bytes 1T1 --preset minsky --nodes 2 ## --bytes
-- ddlbench model --algo ring,rhd,ddl,mpi,ring,rhd,ddl,mpi,ring --bytes 1M --preset minsky --nodes 2 ## --algo
-- ddlbench model --algo ring --grid 2x4 --bytes 1M --preset minsky --nodes 2 ## --grid
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes 99999 ## --nodes
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes ' 2' ## --nodes
-- ddlbench platform --preset custom --nodes 2 ## --preset custom
-- ddlbench platform --preset minsky --nodes 2 -o ## -o
-- ddlbench platform --preset minsky --nodes '' ## --nodes
-- ddlbench platform --preset minsky --nodes 2 --intra-bw 1G ## --intra-bw
-- ddlbench calibrate -o ## -o
-- ddlbench calibrate -o $tmp/nosuch/x.profile ## -o
-- ddlbench gpu-check --peak-n 100 ## --peak-n
-- ddlbench gpu-check --bogus ## --bogus
-- ddlbench kernels -s 0 ## -s
-- ddlbench kernels -s '' ## -s
-- ddlbench kernels -s 1,,2 ## -s
-- ddlbench kernels -r 1001 ## -r
-- ddlbench kernels -x ## -x
-- ddlbench kernels -s 17G ## -s
-- ddlbench list extra ## extra
DDL_SEGMENT_BYTES=' 64' -- ddlbench train $P -a ring ## DDL_SEGMENT_BYTES
DDL_SEGMENT_BYTES=0x40 -- ddlbench train $P -a ring ## DDL_SEGMENT_BYTES
DDL_PIPELINE_DEPTH=0x4 -- ddlbench train $P -a ring ## DDL_PIPELINE_DEPTH
DDL_RANKS_PER_NODE=+1 -- ddlbench train $P -a ring ## DDL_RANKS_PER_NODE
DDL_PROFILE_DIR=/nonexistent -- ddlbench train $P --profile p100 ## --profile
-- sweep --models resnet50: ## --models
-- sweep --models :4 ## --models
-- sweep --backend '' ## --backend
-- sweep --nodes 99999999999999999999 ## --nodes
-- sweep --train-args '--csv x' ## --train-args
-- sweep --train-args --bogus ## --train-args
-- sweep --platform custom ## --platform
-- sweep --nodes ## --nodes
-- sweep --nodes 4096 --gpus-per-node 64 ## --nodes
-- make run NODES=1.5 ## NODES
-- make run BACKEND= ## BACKEND
-- make run 'OUT=a b' ## OUT
-- make run BUCKET_MB=-1 ## BUCKET_MB
-- make run GPUS_PER_NODE=0x4 ## GPUS_PER_NODE
-- make plots 'RUN=a;b' ## RUN
-- make fuzz FUZZ_SECONDS=1e3 ## FUZZ_SECONDS
-- make help 'MPIRUN=mpirun;true' ## MPIRUN
EOF4
}

with_env() { eval "env $envs \"\$@\""; } # the row's VAR=value words (shell-quoted) for the command

run_row() { # one table line; sets $tmp/err and returns the status
    line=${1%% ## *}
    envs=${line%%-- *}; cmd=${line#*-- }
    eval "set -- $cmd"
    what=$1; shift
    case $what in
    ddlbench) with_env "$exe" "$@";;
    mpi2) with_env env MPIRUN_FLAGS="${MPIRUN_FLAGS:-}" sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" "$@";;
    sweep) with_env sh "$root/harness/scripts/sweep.sh" --build "$BUILD" --out "$tmp/sweep" -q "$@";;
    script) s=$1; shift; with_env sh "$root/harness/scripts/$s" "$@";;
    make) with_env env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" BUILD="$BUILD" "$@";; # not the calling make's jobserver
    esac >"$tmp/out" 2>"$tmp/err.raw" </dev/null
}

table >"$tmp/table"
while IFS= read -r line; do
    [ -n "$line" ] || continue
    tried=$((tried + 1))
    run_row "$line"; got=$?
    # the launcher's own notes (Open MPI's boxed "Primary job ... non-zero exit code") and make's
    # "make: *** [Makefile:N: run] Error 2" trailer are not ours
    awk '/^--------------------+$/ { box = !box; next } /^make(\[[0-9]+\])?: \*\*\* \[/ { next } !box' "$tmp/err.raw" >"$tmp/err"
    lines=$(wc -l <"$tmp/err")
    want=""; case $line in *" ## "*) want=${line##* ## };; esac
    if [ "$got" -ne 2 ]; then failed=$((failed + 1)); echo "FAIL [$line]: exit $got, want 2: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
    elif [ "$lines" -ne 1 ]; then failed=$((failed + 1)); echo "FAIL [$line]: $lines stderr lines, want 1:"; head -n 4 "$tmp/err"
    elif grep -q 'Sanitizer\|runtime error\|Segmentation\|core dumped' "$tmp/err"; then failed=$((failed + 1)); echo "FAIL [$line]: crash: $(cat "$tmp/err")"
    elif [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then failed=$((failed + 1)); echo "FAIL [$line]: the line does not name \"$want\": $(cat "$tmp/err")"
    else passed=$((passed + 1)); [ -n "${VERBOSE:-}" ] && echo "ok [$line]: $(cat "$tmp/err")"; fi
done <"$tmp/table"
echo "# $tried malformed inputs tried"

# 2. Shell injection through make variables: quotes, ;, $(...), backticks and make's own $(shell) in
# each variable; the run recipe (dry run) and help must run nothing of it.
check() { # description condition...
    d=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $d"; fi
}
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" BUILD="$BUILD" "$@" >/dev/null 2>&1 </dev/null; }
m=$tmp/injected
injected() { ! ls "$m".* >/dev/null 2>&1; }
payloads() { # one per line
    printf '%s\n' "1'; touch $m.q; echo \`touch $m.b\` '" "1\"; touch $m.d; echo \"\$(touch $m.s)" \
        "\$(shell touch $m.m)" "1;touch $m.c|touch $m.p&touch $m.a"
}
payloads >"$tmp/payloads"
for v in NODES GPUS_PER_NODE BACKEND PLATFORM PROFILE ALGOS MODELS BUCKET_MB TRAIN_ARGS OUT SWEEP_FLAGS \
         BUILD RUN MPIRUN FUZZ_SECONDS MPICC ARCH_FLAGS CUDA_ARCH SIM_BUILD VALGRIND FIDELITY_FLAGS; do
    while IFS= read -r val; do
        case $v in
        NODES|GPUS_PER_NODE|BACKEND|PLATFORM|PROFILE|ALGOS|MODELS|BUCKET_MB|TRAIN_ARGS|OUT)
            mk run "$v=$val" SWEEP_FLAGS=--dry-run; mk help "$v=$val";;
        SWEEP_FLAGS) mk run "SWEEP_FLAGS=--dry-run $val";;
        RUN) mk report "RUN=$val"; mk help "RUN=$val";;
        FUZZ_SECONDS) mk fuzz "FUZZ_SECONDS=$val"; mk help "FUZZ_SECONDS=$val";;
        *) mk help "$v=$val";;
        esac
        check "make: $v=$val ran something: $(ls "$m".* 2>/dev/null | tr '\n' ' ')" injected
        rm -f "$m".*
    done <"$tmp/payloads"
done

# 3. Output paths that are accepted (exit 0) are written through or followed, never replaced; refused
# ones leave nothing behind.
A="allreduce -e 1K -n 1 -w 0 -a ring"
mkfifo "$tmp/out.fifo"
cat "$tmp/out.fifo" >"$tmp/fifo.got" & reader=$!
"$exe" $A --csv "$tmp/out.fifo" >/dev/null 2>"$tmp/err"; st=$?
wait "$reader"
check "--csv FIFO with a reader: exit 0 ($st: $(cat "$tmp/err"))" [ "$st" -eq 0 ]
check "--csv FIFO: still a FIFO, no .tmp" sh -c "[ -p '$tmp/out.fifo' ] && ! [ -e '$tmp/out.fifo.tmp' ]"
check "--csv FIFO: the reader got the CSV" grep -q '^size_B,' "$tmp/fifo.got"
timeout 60 "$exe" $A --csv "$tmp/out.fifo" >/dev/null 2>"$tmp/err"; st=$?
check "--csv FIFO without a reader: exit 1, no hang ($st: $(cat "$tmp/err"))" [ "$st" -eq 1 ]
check "--csv FIFO without a reader: still a FIFO" [ -p "$tmp/out.fifo" ]
: >"$tmp/target.csv"; ln -s target.csv "$tmp/link.csv"
"$exe" $A --csv "$tmp/link.csv" >/dev/null 2>"$tmp/err"; st=$?
check "--csv symlink: exit 0, the link kept, its target written ($st: $(cat "$tmp/err"))" \
    sh -c "[ $st -eq 0 ] && [ -L '$tmp/link.csv' ] && grep -q '^size_B,' '$tmp/target.csv'"
if mknod "$tmp/null" c 1 3 2>/dev/null; then # a character device of our own: /dev/null's numbers
    "$exe" $A --csv "$tmp/null" >/dev/null 2>"$tmp/err"; st=$?
    check "--csv character device: exit 0 and still a device ($st: $(cat "$tmp/err"))" sh -c "[ $st -eq 0 ] && [ -c '$tmp/null' ]"
    "$exe" train $P -a ring --csv "$tmp/null" >/dev/null 2>"$tmp/err"; st=$?
    check "train --csv character device: exit 0 and still a device ($st: $(cat "$tmp/err"))" sh -c "[ $st -eq 0 ] && [ -c '$tmp/null' ]"
else
    echo "# mknod not permitted: character device outputs not tried"
fi
check "platform -o with hostfile or smpi.cfg a directory, study --out with report.md one: nothing written" \
    sh -c "! ls '$tmp/plat/'platform.xml* '$tmp/plat3/'platform.xml* '$tmp/plat3/'hostfile* '$tmp/study/'study.csv* 2>/dev/null | grep -q ."
mkdir -p "$tmp/pl" && ln -s real.xml "$tmp/pl/platform.xml"
"$exe" platform --preset minsky --nodes 2 -o "$tmp/pl" >/dev/null 2>"$tmp/err"; st=$?
check "platform -o: platform.xml a symlink, followed and kept ($st: $(cat "$tmp/err"))" \
    sh -c "[ $st -eq 0 ] && [ -L '$tmp/pl/platform.xml' ] && grep -q '<platform' '$tmp/pl/real.xml' && [ -s '$tmp/pl/hostfile' ]"
check "no .tmp left by any of these" sh -c "! ls '$tmp'/*.tmp '$tmp'/pl/*.tmp >/dev/null 2>&1"
if mkdir "$tmp/imm" && chattr +i "$tmp/imm" 2>/dev/null; then # root ignores permission bits, not this
    "$exe" allreduce -e 1K --csv "$tmp/imm/x.csv" >/dev/null 2>"$tmp/err"; st=$?
    check "--csv in an immutable folder: refused before the run ($st: $(cat "$tmp/err"))" sh -c "[ $st -eq 2 ] && ! grep -q '^#' '$tmp/err'"
    "$exe" platform --preset minsky --nodes 1 -o "$tmp/imm" >/dev/null 2>"$tmp/err"; st=$?
    check "platform -o an immutable folder: refused ($st: $(cat "$tmp/err"))" [ "$st" -eq 2 ]
    chattr -i "$tmp/imm"
else
    echo "# chattr +i not permitted: immutable folder outputs not tried"
fi
DDL_POLL_US=0 "$exe" train $P -a ring >/dev/null 2>"$tmp/err"; st=$?
check "DDL_POLL_US=0 (block in MPI_Wait, as ddl.h documents) accepted ($st: $(cat "$tmp/err"))" [ "$st" -eq 0 ]
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
