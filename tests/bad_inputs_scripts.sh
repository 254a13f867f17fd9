#!/bin/sh
# bad_inputs_scripts.sh — the scripts and the Makefile refuse every malformed input clearly: the sweep
# script's options, the make variables, the emulated cluster's values (`make cluster-bench NODES=0`,
# RATE with unknown units); and no make variable runs what it carries (shell injection). The row
# format: tests/lib/bad_inputs.sh. Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

rows <<EOF
# one bad value per option
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
-- make run NODES=0
-- make run NODES=x
-- make run GLOBAL_BATCH=x ## GLOBAL_BATCH
-- make run BACKEND=model PLATFORM=dgxh100 NODES=4 GLOBAL_BATCH=16 ## GLOBAL_BATCH
-- make run BACKEND=model PLATFORM=dgxh100 NODES=4 GLOBAL_BATCH=99999 ## GLOBAL_BATCH
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
# issue 18's classes: output paths checked before the work, every override honoured or refused, memory
# checks, exact sizes, one precise line naming the option
-- make help 'FIDELITY_FLAGS=--ranks 2;true' ## FIDELITY_FLAGS
-- make run SWEEP_FLAGS=--bogus ## SWEEP_FLAGS
-- make run ALGOS= ## ALGOS
-- make run NODES=99999999999999999999 ## NODES
-- make run ALGOS=ring,nosuch SWEEP_FLAGS=--dry-run ## ALGOS
-- make run PLATFORM=nosuch SWEEP_FLAGS=--dry-run ## PLATFORM
-- make run MODELS=resnet9:4 SWEEP_FLAGS=--dry-run ## MODELS
# hostile probes: empty, negative, overflow, junk suffix, huge, unicode and path oddities
-- sweep --models resnet50: ## --models
-- sweep --models :4 ## --models
-- sweep --backend '' ## --backend
-- sweep --nodes 99999999999999999999 ## --nodes
-- sweep --train-args '--csv x' ## --train-args
-- sweep --train-args --bogus ## --train-args
-- sweep --platform custom ## --platform
# the sweep's own checks (issue 48): an output in the --opt=value form, a junk SEC_PER_KUNIT, an option
# make would otherwise pass to a backend that ignores it
-- sweep --train-args --csv=x ## --train-args
-- sweep --train-args '--steps 1 --json=/tmp/x' ## --train-args
SEC_PER_KUNIT=junk -- sweep --nodes 1 ## SEC_PER_KUNIT
-- make run BACKEND=sim RATE=500mbit SWEEP_FLAGS=--dry-run ## RATE
-- make run DEVICE=gpu BACKEND=sim SWEEP_FLAGS=--dry-run ## DEVICE
# the launcher and the allocation's shape (launch.sh, alloc.sh)
-- script launch.sh -b nosuch -n 2 x ## -b
-- script launch.sh -b real -n 0 x ## -n
-- script launch.sh -b real -n 4 -g x x ## -g
-- script launch.sh -b simulated -n 4 x ## -p
SLURM_JOB_ID= LSB_JOBID= PBS_JOBID= MPILAUNCH= -- script launch.sh -b scheduler -n 4 x ## allocation
-- script launch.sh -b real -n 2 ## program
SLURM_JOB_ID=1 SLURM_NTASKS_PER_NODE=4 SLURM_GPUS_PER_NODE=h100:8 -- script alloc.sh slurm.sbatch ## one rank per GPU
SLURM_JOB_ID=1 SLURM_GPUS_PER_NODE=h100:x -- script alloc.sh slurm.sbatch ## shape
PBS_JOBID=1 GPUS_PER_NODE=0 -- script alloc.sh pbs.sh ## GPUS_PER_NODE
SLURM_JOB_ID= LSB_JOBID= PBS_JOBID= -- script alloc.sh ## allocation
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
# a command-line variable the Makefile does not have is refused (a typo is not silently ignored)
-- make run NODE=64 SWEEP_FLAGS=--dry-run ## NODE
-- make help CUDA=yes ## CUDA
-- make help SANITIZE=2 ## SANITIZE
-- make run FORCE=yes SWEEP_FLAGS=--dry-run ## FORCE
EOF

# Shell injection through make variables: quotes, ;, $(...), backticks and make's own $(shell) in
# each variable; the run recipe (dry run) and help must run nothing of it.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" BUILD="$BUILD" "$@" >/dev/null 2>&1 </dev/null; }
m=$tmp/injected
injected() { ! ls "$m".* >/dev/null 2>&1; }
payloads() { # one per line
    printf '%s\n' "1'; touch $m.q; echo \`touch $m.b\` '" "1\"; touch $m.d; echo \"\$(touch $m.s)" \
        "\$(shell touch $m.m)" "1;touch $m.c|touch $m.p&touch $m.a"
}
payloads >"$tmp/payloads"
vars=$(awk '$1 == "var" { print $2 }' "$root/harness/scripts/make_table.txt") # every variable
for v in $vars; do
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


# The class of issue 27: every variable, holding a newline (which would split a recipe line into two,
# the second run under make -i) or a terminal control byte, is refused before any recipe: one line
# naming it, without the byte, exit 2, nothing run.
esc=$(printf '1\033[2Jx')
for v in $vars; do
    for val in "1
touch $m.n" "$esc"; do
        for goal in help run; do
            out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" BUILD="$BUILD" -i \
                  SWEEP_FLAGS=--dry-run $goal "$v=$val" 2>&1 </dev/null); st=$?
            check "make -i $goal $v=<control>: exit 2 and one line naming $v (got $st: $out)" \
                sh -c '[ "$1" -eq 2 ] && [ "$(printf "%s\n" "$2" | wc -l)" -eq 1 ] &&
                       case $2 in *"$3: expected"*) ! printf "%s" "$2" | grep -q "$(printf "\033")";;
                       *) false;; esac' - "$st" "$out" "$v"
            check "make -i $goal $v=<newline>: ran something" injected
            rm -f "$m".*
        done
    done
done

report
