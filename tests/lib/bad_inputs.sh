# tests/lib/bad_inputs.sh — sourced by the tests/bad_inputs_*.sh tables (not a test itself: tests/run.sh
# runs tests/*.sh only). Every malformed input is refused clearly: each row runs one command and
# expects exit status 2, exactly one line on stderr (and, after "##", a text that line must contain:
# the option the user typed) and no crash (no sanitizer report, no signal). Rows: "[VAR=value ...]
# -- WHAT ARGS" (shell words), WHAT being `ddlbench` (run directly: options are checked before MPI
# starts; singleton MPI where a check needs the communicator), `mpi2` (2 ranks under
# harness/scripts/mpilaunch.sh; stderr counted without the launcher's own boxed notes), `sweep`
# (harness/scripts/sweep.sh), `script` (any script of harness/scripts) or `make` (its own
# "make: *** ... Error" trailer is not counted).
# Sets BUILD, root, exe, tmp (removed on exit) with the rows' fixtures (bad profile and platform
# files, output path oddities), P (a tiny training run's options, so a wrongly accepted row still
# ends quickly) and:
#   rows            run the table on stdin, one row a line ("# ..." lines are headings; a row ending
#                   in " \" goes on in the next line, its leading blanks dropped)
#   check D CMD...  count one check: CMD must succeed, else "FAIL D"
#   one_clean ST E  exit status ST is 2 and file E one line without control bytes
#   report          print "N passed, N failed" and return non-zero if any failed
BUILD=${BUILD:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
exe=$BUILD/ddlbench
case $exe in /*) ;; *) exe=$root/$exe;; esac
passed=0; failed=0
tmp=$(mktemp -d); trap 'chattr -i "$tmp/imm" 2>/dev/null; rm -rf "$tmp"' EXIT
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
P="--batch 1 --image-size 32 --steps 1 --warmup 0"

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
printf 'gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\n' >"$tmp/nomem.profile"  # no mem_gbps
mkfifo "$tmp/fifo.profile"
# output path oddities: a directory, a file where a directory is expected, a link to a directory
mkdir -p "$tmp/adir" "$tmp/plat/hostfile" "$tmp/run/report.md" && : >"$tmp/afile" && ln -s adir "$tmp/dirlink"
cp "$root/results/reference/scaling.csv" "$tmp/run/"
# platform files with a non-decimal number; folders whose study report.md or platform smpi.cfg is a folder
pf="name = t\ngpus_per_node = 4\nintra_lat = 5e-06\nintra_bw = %s\ninter_lat = 1e-06\ninter_bw = 1e9\n%b"
printf "$pf" 0x10 "" >"$tmp/hex.platform"; printf "$pf" inf "" >"$tmp/inf.platform"
printf "$pf" 1e9 'lat_factor = 0x0:1\n' >"$tmp/hexf.platform"
mkdir -p "$tmp/study/report.md" "$tmp/plat3/smpi.cfg"
# study catalogues (study_file.h): an entry whose baseline exceeds its scale, one cut mid-line, one
# naming an unknown model, one with a key of no meaning
se="label = L\nmodel = %s\nbatch = 32\ngpus = %s\nbaseline = 8\npublished = 90\nsource = s\nalgo = ddl\n"
se="${se}platforms = bigbasin2017\noverlap = on\n%s"
mkdir -p "$tmp/cat-base" "$tmp/cat-cut" "$tmp/cat-model" "$tmp/cat-key"
printf "$se" resnet50 4 "" >"$tmp/cat-base/e.study"; printf "$se" resnet50 256 "hours = " >"$tmp/cat-cut/e.study"
printf "$se" resnet9 256 "" >"$tmp/cat-model/e.study"; printf "$se" resnet50 256 "speed = 3\n" >"$tmp/cat-key/e.study"
# strong scaling: an entry with neither batch nor global_batch, one whose global batch is below its GPUs
mkdir -p "$tmp/cat-nobatch" "$tmp/cat-gb"
grep -v '^batch' "$tmp/cat-key/e.study" | grep -v '^speed' >"$tmp/cat-nobatch/e.study"
{ cat "$tmp/cat-nobatch/e.study"; echo "global_batch = 100"; } >"$tmp/cat-gb/e.study"
# sharded data parallelism (MLPerf BERT's entries): a sharding and an optimizer the step does not know
mkdir -p "$tmp/cat-shard" "$tmp/cat-optim"
printf "$se" resnet50 256 "shard = zero1\n" >"$tmp/cat-shard/e.study"
printf "$se" resnet50 256 "optimizer = adamw\n" >"$tmp/cat-optim/e.study"
# the compute model's networks (issue 47): a fused setting, a bn_held, a fixed step cost out of range
mkdir -p "$tmp/cat-fused" "$tmp/cat-held" "$tmp/cat-fixed" "$tmp/cat-graphs"
printf "$se" resnet50 256 "fused_at_scale = 4" >"$tmp/cat-fused/e.study"
printf "$se" resnet50 256 "bn_held = 2" >"$tmp/cat-held/e.study"
printf "$se" resnet50 256 "step_fixed_us = 100" >"$tmp/cat-fixed/e.study"
printf "$se" resnet50 256 "cuda_graphs = yes" >"$tmp/cat-graphs/e.study"
# MLPerf BERT's DistributedFusedLAMB: the scaled run's graphs, the update's shard (with shard = none only)
mkdir -p "$tmp/cat-graphsat" "$tmp/cat-oshard" "$tmp/cat-oshard2"
printf "$se" resnet50 256 "cuda_graphs_at_scale = 1" >"$tmp/cat-graphsat/e.study"
printf "$se" resnet50 256 "optimizer_shard = 0" >"$tmp/cat-oshard/e.study"
printf "$se" resnet50 256 "$(printf 'shard = optimizer\noptimizer_shard = 8')" >"$tmp/cat-oshard2/e.study"
# the kernels' measured cost under CUDA graphs (issue 47): a range with equal ends, a value without its source
mkdir -p "$tmp/cat-gk" "$tmp/cat-gksrc"
printf "$se" resnet50 256 "$(printf 'graph_kernel_us = 4|4\ngraph_kernel_source = s')" >"$tmp/cat-gk/e.study"
printf "$se" resnet50 256 "graph_kernel_us = 4" >"$tmp/cat-gksrc/e.study"
# the kernels' cost launched one by one (issue 49): the same two rules
mkdir -p "$tmp/cat-k" "$tmp/cat-ksrc"
printf "$se" resnet50 256 "$(printf 'kernel_us = 15|15\nkernel_source = s')" >"$tmp/cat-k/e.study"
printf "$se" resnet50 256 "kernel_us = 15" >"$tmp/cat-ksrc/e.study"
# an entry's platform alternative that is neither a file of the platform folder nor a preset, four algorithms
# where NCCL has three to pick from (ring, tree, CollNet over SHARP) (issue 47)
mkdir -p "$tmp/cat-plat" "$tmp/cat-algo4"
printf "$se" resnet50 256 "" | sed 's/^algo = .*/algo = nccl-ring|nccl-tree|nvls|ring/' >"$tmp/cat-algo4/e.study"
printf "$se" resnet50 256 "" | sed 's/^platforms = .*/platforms = bigbasin2017|nosuchmachine/' >"$tmp/cat-plat/e.study"
printf 'gemm_gflops_fp32 = 3925\ngemm_gflops_fp16 = 7850\nreduce_ns_per_byte = 0.1\nmem_gbps = 900\nbn_held = 0.5\n' \
    >"$tmp/held.profile"

with_env() { eval "env $envs \"\$@\""; } # the row's VAR=value words (shell-quoted) for the command

run_row() { # one table line; sets $tmp/err.raw and returns the status (leaves $line alone: it has the "## " text)
    row=${1%% ## *}
    envs=${row%%-- *}; cmd=${row#*-- }
    eval "set -- $cmd"
    what=$1; shift
    case $what in
    ddlbench) with_env "$exe" "$@";;
    mpi2) with_env env MPIRUN_FLAGS="${MPIRUN_FLAGS:-}" sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" "$@";;
    sweep) with_env sh "$root/harness/scripts/sweep.sh" --build "$BUILD" --out "$tmp/sweep" -q "$@";;
    script) s=$1; shift; with_env sh "$root/harness/scripts/$s" "$@";;
    # not the calling make's jobserver
    make) with_env env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" BUILD="$BUILD" "$@";;
    esac >"$tmp/out" 2>"$tmp/err.raw" </dev/null
}

rows() {
    cat >"$tmp/table"
    tried=0
    while IFS= read -r line; do
        case $line in ''|'#'*) continue;; esac # blank lines and "# ..." headings
        while case $line in *' \') true;; *) false;; esac && IFS= read -r more; do # the row goes on
            line="${line%?}$(printf '%s' "$more" | sed 's/^ *//')"
        done
        tried=$((tried + 1))
        run_row "$line"; got=$?
        # the launcher's own notes (Open MPI's boxed "Primary job ... non-zero exit code") and make's
        # "make: *** [Makefile:N: run] Error 2" trailer are not ours
        awk '/^--------------------+$/ { box = !box; next } /^make(\[[0-9]+\])?: \*\*\* \[/ { next } !box' \
            "$tmp/err.raw" >"$tmp/err"
        lines=$(wc -l <"$tmp/err")
        want=""; case $line in *" ## "*) want=${line##* ## };; esac
        if [ "$got" -ne 2 ]; then failed=$((failed + 1))
            echo "FAIL [$line]: exit $got, want 2: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
        elif [ "$lines" -ne 1 ]; then failed=$((failed + 1)); echo "FAIL [$line]: $lines stderr lines, want 1:"
        head -n 4 "$tmp/err"
        elif grep -q 'Sanitizer\|runtime error\|Segmentation\|core dumped' "$tmp/err"; then failed=$((failed + 1))
        echo "FAIL [$line]: crash: $(cat "$tmp/err")"
        elif [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then failed=$((failed + 1))
        echo "FAIL [$line]: the line does not name \"$want\": $(cat "$tmp/err")"
        else passed=$((passed + 1)); [ -n "${VERBOSE:-}" ] && echo "ok [$line]: $(cat "$tmp/err")"; fi
    done <"$tmp/table"
    echo "# $tried malformed inputs tried"
}

check() { # description condition...
    d=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $d"; fi
}

# one_clean ST ERR: exit 2, one line, no control byte but its newline
one_clean() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d '\n' <"$2" | grep -q '[[:cntrl:]]'; }

report() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
