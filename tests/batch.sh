#!/bin/sh
# batch.sh — the batch scripts (batch/) and the results pipeline, without a scheduler: syntax checks,
# dry runs under fake SLURM / LSF / PBS allocations checking the printed launch commands (launcher,
# rank counts, real build; with GPUs and a fake CUDA build: train --device gpu at the study's batch
# sizes and PRECISION; DEVICE=cpu), BACKEND=sim forced inside an allocation, STUDY=fidelity (make
# fidelity on the allocation; BACKEND=mpi outside one: exit 2), and — when the simulation build
# exists — a tiny sweep checking the progress lines, -q, the CSV provenance lines, report.md and no
# leftover *.tmp. Prints "N passed, N failed".
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 2
passed=0; failed=0
ok() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
has() { printf '%s\n' "$1" | grep -qE -- "$2"; ok $? "$3: expected /$2/ in (first 400 bytes):
$(printf '%s' "$1" | head -c 400)"; }
count() { n=$(printf '%s\n' "$1" | grep -cE -- "$2"); [ "$n" -eq "$3" ]; ok $? "$4: expected $3 lines /$2/, got $n"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID LSB_JOBID PBS_JOBID MPILAUNCH BACKEND SLURM_GPUS_ON_NODE DEVICE PRECISION
export CUDA_VISIBLE_DEVICES=   # no GPU in the allocation unless a test says so (pick_device.sh)

for f in batch/slurm.sbatch batch/lsf.bsub batch/pbs.sh; do bash -n "$f"; ok $? "bash -n $f"; done
for f in harness/scripts/sweep.sh harness/scripts/report.sh plots/plots.sh; do sh -n "$f"; ok $? "sh -n $f"; done

latest_before=$(readlink results/latest 2>/dev/null)
mk="MAKE_ARGS=BUILD=$BUILD"
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=4 SLURM_NTASKS_PER_NODE='4(x4)' DRY_RUN=1 "$mk" bash \
    batch/slurm.sbatch 2>&1)
ok $? "slurm dry run exit status"
has "$out" "^srun -N 4 --ntasks-per-node 4 --cpu-bind=cores -n 16 $BUILD/ddlbench train " \
    "slurm: 16 ranks on 4 nodes x 4"
has "$out" "^srun -N 1 --ntasks-per-node 4 --cpu-bind=cores -n 4 $BUILD/ddlbench train " \
    "slurm: the 1-node point on 1 node"
has "$out" "^srun -N 2 --ntasks-per-node 4 --cpu-bind=cores -n 8 $BUILD/ddlbench train " "slurm: 8 ranks on 2 nodes"
has "$out" "^srun -N 1 --ntasks-per-node 1 --cpu-bind=cores -n 1 $BUILD/ddlbench train " "slurm: the 1-GPU point"
count "$out" "^srun -N [0-9]+ --ntasks-per-node [0-9]+ .*-n [0-9]+ $BUILD/ddlbench train " 4 \
    "slurm: 1, 4, 8, 16 GPUs, each placed"
has "$out" "^srun .* -n 1 $BUILD/ddlbench train .*--csv results/[0-9TZ]+-mpi-16gpus/raw/resnet50-1.csv" \
    "slurm: results folder"

printf 'launch\n' >"$tmp/lsf_hosts"; for h in a a a a b b b b; do echo "$h" >>"$tmp/lsf_hosts"; done
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" DRY_RUN=1 "$mk" PATH=/usr/bin:/bin bash batch/lsf.bsub 2>&1)
ok $? "lsf dry run exit status"
has "$out" "^mpirun --host a:4,b:4 --map-by ppr:4:node -np 8 $BUILD/ddlbench train " \
    "lsf: mpirun on the 2 hosts (launch node not one), 4 each"
has "$out" "^mpirun --host a:4 --map-by ppr:4:node -np 4 $BUILD/ddlbench train " "lsf: the 1-node point on 1 host"
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" LAUNCHER=jsrun DRY_RUN=1 "$mk" bash batch/lsf.bsub 2>&1)
has "$out" "^jsrun --nrs 8 --rs_per_host 4 --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 $BUILD/ddlbench train " \
    "lsf: jsrun, one resource set per GPU, 4 a host"
has "$out" "^jsrun --nrs 4 --rs_per_host 4 .* $BUILD/ddlbench train " "lsf: jsrun, the 1-node point"

for h in n1 n2 n3; do for i in 1 2 3 4; do echo "$h"; done; done >"$tmp/pbs_nodes"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" DRY_RUN=1 "$mk" bash batch/pbs.sh 2>&1)
ok $? "pbs dry run exit status"
has "$out" "^mpirun --host n1:4,n2:4,n3:4 --map-by ppr:4:node -np 12 $BUILD/ddlbench train " "pbs: 3 nodes, 12 ranks"
has "$out" "^mpirun --host n1:4,n2:4 --map-by ppr:4:node -np 8 $BUILD/ddlbench train " \
    "pbs: 8 ranks on the first 2 nodes"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" MPIRUN=mpirun.mpich DRY_RUN=1 "$mk" bash batch/pbs.sh 2>&1)
has "$out" "^mpirun.mpich -hosts n1,n2 -ppn 4 -n 8 $BUILD/ddlbench train " "pbs, MPICH: -hosts and -ppn"
count "$out" "$BUILD/ddlbench train " 4 "pbs: 1, 4, 8, 12 GPUs"

# GPU allocations: a CUDA build (a fake one in a temporary BUILD) and GPUs on the node run the study's
# GPU step; DEVICE=cpu the CPU build; no GPUs named, the CPU build.
gb=$tmp/gbuild; mkdir -p "$gb/cuda"; printf '#!/bin/sh\nexit 0\n' >"$gb/cuda/ddlbench"; chmod +x "$gb/cuda/ddlbench"
gpu="$gb/cuda/ddlbench train --model"
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=2 SLURM_NTASKS_PER_NODE=4 SLURM_GPUS_ON_NODE=4 DRY_RUN=1 \
    MAKE_ARGS=BUILD=$gb bash batch/slurm.sbatch 2>&1)
bind="--cpu-bind=cores --gpus-per-task=1"
has "$out" "^srun -N 2 --ntasks-per-node 4 $bind -n 8 $gpu resnet50 --batch 32 .*--device gpu --precision tf32 " \
    "slurm GPUs: CUDA build, batch 32, tf32"
count "$out" "^srun .* $gpu resnet101-22k --batch 20 .*--device gpu " 3 \
    "slurm GPUs: ResNet-101-22K batch 20 at 1, 4, 8 GPUs"
count "$out" "--image-size|$gb/ddlbench " 0 "slurm GPUs: 224x224 (no --image-size), no CPU build"
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=2 SLURM_NTASKS_PER_NODE=4 SLURM_GPUS_ON_NODE=4 DEVICE=cpu DRY_RUN=1 \
    MAKE_ARGS=BUILD=$gb bash batch/slurm.sbatch 2>&1)
has "$out" "^srun .* -n 8 $gb/ddlbench train --model resnet50 --batch 8 .*--image-size 64" \
    "slurm DEVICE=cpu: the CPU build"
count "$out" "--device gpu" 0 "slurm DEVICE=cpu: no --device gpu"
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" CUDA_VISIBLE_DEVICES=0,1,2,3 PRECISION=bf16 DRY_RUN=1 \
    MAKE_ARGS=BUILD=$gb PATH=/usr/bin:/bin bash batch/lsf.bsub 2>&1)
has "$out" "^mpirun .* -np 8 $gpu resnet50 --batch 32 .*--device gpu --precision bf16 " \
    "lsf GPUs (CUDA_VISIBLE_DEVICES): PRECISION=bf16"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" CUDA_VISIBLE_DEVICES=0,1,2,3 DRY_RUN=1 MAKE_ARGS=BUILD=$gb bash \
    batch/pbs.sh 2>&1)
has "$out" "^mpirun .* -np 12 $gpu resnet50 --batch 32 .*--device gpu " "pbs GPUs: the CUDA build"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" CUDA_VISIBLE_DEVICES=NoDevFiles DRY_RUN=1 MAKE_ARGS=BUILD=$gb bash \
    batch/pbs.sh 2>&1)
has "$out" "^mpirun .* -np 12 $gb/ddlbench train --model resnet50 --batch 8 " "pbs without GPUs: the CPU build"
out=$(env SLURM_JOB_ID=1 SLURM_GPUS_ON_NODE=2 make -s run BUILD="$gb" NODES=1 GPUS_PER_NODE=2 \
    SWEEP_FLAGS=--dry-run 2>&1)
has "$out" "^srun -N 1 --ntasks-per-node 2 .*-n 2 $gpu resnet50 --batch 32 .*--device gpu --precision tf32 " \
    "make run BACKEND=mpi with GPUs: the CUDA build"
out=$(env -u SLURM_JOB_ID make -s run BUILD="$gb" BACKEND=mpi DEVICE=gpu PRECISION=bf16 NODES=1 GPUS_PER_NODE=2 \
    SWEEP_FLAGS=--dry-run 2>&1)
has "$out" "mpilaunch.sh 2 $gpu resnet50 --batch 32 .*--device gpu --precision bf16 --steps 5 " \
    "outside an allocation: this machine's mpilaunch.sh, PRECISION"
out=$(env SLURM_JOB_ID=1 make -s run BUILD="$gb" DEVICE=tpu SWEEP_FLAGS=--dry-run 2>&1); st=$?
[ $st -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c 'DEVICE: expected cpu or gpu')" -eq 1 ]
ok $? "make run DEVICE=tpu: one line, exit 2 (got $st)"

# GPUs per node from the allocation (issue 48): typed GRES alone (sbatch --gpus-per-node=h100:8, no
# --ntasks-per-node) gives 8 ranks a node on the CUDA build; a tasks per node that differs from the GPUs
# is refused before any work (exit 2, one line, no results folder), on each scheduler.
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=16 SLURM_GPUS_PER_NODE=h100:8 DRY_RUN=1 MAKE_ARGS=BUILD=$gb bash \
    batch/slurm.sbatch 2>&1)
has "$out" "^srun -N 16 --ntasks-per-node 8 $bind -n 128 $gpu resnet50 --batch 32 .*--device gpu " \
    "slurm h100:8: 16 nodes x 8, the CUDA build"
has "$out" "^srun -N 1 --ntasks-per-node 8 .* -n 8 $gpu resnet50 " "slurm h100:8: the 1-node point is 8 ranks on 1 node"
has "$out" "results/[0-9TZ]+-mpi-128gpus/" "slurm h100:8: the run is named for 128 GPUs"
shape_refused() { # what script VAR=value...: exit 2, one line ("one rank per GPU" or "differs"), nothing made
    what=$1 script=$2; shift 2
    o=$(env "$@" DRY_RUN=1 "$mk" bash "$script" 2>&1); s=$?
    [ $s -eq 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s' "$o" | grep -qE 'one rank per GPU|differs'
    ok $? "$what: refused, one line, exit 2 (got $s: $(printf '%s' "$o" | head -c 300))"
}
shape_refused "slurm --ntasks-per-node 4 on 8 GPUs" batch/slurm.sbatch SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=16 \
    SLURM_NTASKS_PER_NODE=4 SLURM_GPUS_PER_NODE=h100:8
shape_refused "slurm --ntasks-per-node 8 on 4 GPUs (SLURM_GPUS_ON_NODE)" batch/slurm.sbatch SLURM_JOB_ID=77 \
    SLURM_NTASKS_PER_NODE='8(x2)' SLURM_GPUS_ON_NODE=4
shape_refused "lsf 4 slots a host on 2 GPUs" batch/lsf.bsub LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" \
    CUDA_VISIBLE_DEVICES=0,1 PATH=/usr/bin:/bin
shape_refused "pbs mpiprocs 4 on 1 GPU" batch/pbs.sh PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" CUDA_VISIBLE_DEVICES=0
shape_refused "pbs GPUS_PER_NODE=8 on 4 GPUs" batch/pbs.sh PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" \
    CUDA_VISIBLE_DEVICES=0,1,2,3 GPUS_PER_NODE=8
ls -d results/*-mpi-* 2>/dev/null | grep -q .; [ $? -ne 0 ]; ok $? "refused shapes create no results folder"
# PLATFORM under BACKEND=mpi (issue 48 item 2): passed to every launch (auto's cost model, libddl's
# segments) with the launch's GPUs per node; a platform whose GPUs per node differ from the allocation's
# is refused before any work; none given, none passed
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=16 SLURM_GPUS_PER_NODE=h100:8 PLATFORM=dgxh100 DRY_RUN=1 \
      MAKE_ARGS=BUILD=$gb bash batch/slurm.sbatch 2>&1)
count "$out" "^srun -N [0-9]+ --ntasks-per-node [0-9]+ .* $gpu .* --platform dgxh100 --gpus-per-node [0-9]+ " 12 \
    "slurm PLATFORM=dgxh100: every launch names the platform"
has "$out" "^srun -N 16 --ntasks-per-node 8 .* -n 128 $gpu resnet50 .* --platform dgxh100 --gpus-per-node 8 " \
    "slurm PLATFORM=dgxh100: 16 x 8 with the platform's 8 GPUs per node"
o=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=16 SLURM_GPUS_PER_NODE=h100:2 PLATFORM=dgxh100 DRY_RUN=1 \
    MAKE_ARGS=BUILD=$gb bash batch/slurm.sbatch 2>&1); s=$?
[ $s -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c 'platform dgxh100 has 8 GPUs per node, got 2')" -eq 1 ]
ok $? "slurm PLATFORM=dgxh100 on 2 GPUs a node: refused (exit $s: $(printf '%s' "$o" | head -c 300))"
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=2 SLURM_GPUS_PER_NODE=h100:8 DRY_RUN=1 MAKE_ARGS=BUILD=$gb \
      bash batch/slurm.sbatch 2>&1)
count "$out" "--platform" 0 "slurm without PLATFORM: no --platform"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" CUDA_VISIBLE_DEVICES=0,1,2,3 PLATFORM=minsky DRY_RUN=1 \
      MAKE_ARGS=BUILD=$gb bash batch/pbs.sh 2>&1)
count "$out" "^mpirun .* $gpu .* --platform minsky --gpus-per-node [0-9]+ " 8 "pbs PLATFORM=minsky: every launch"
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" CUDA_VISIBLE_DEVICES=0,1,2,3 PLATFORM=minsky DRY_RUN=1 \
      MAKE_ARGS=BUILD=$gb PATH=/usr/bin:/bin bash batch/lsf.bsub 2>&1)
has "$out" "^mpirun --host a:4,b:4 .* -np 8 $gpu .* --platform minsky --gpus-per-node 4 " "lsf PLATFORM=minsky"
out=$(env -u SLURM_JOB_ID make -s run BUILD="$gb" BACKEND=mpi DEVICE=cpu PLATFORM=dgxh100 NODES=1 GPUS_PER_NODE=2 \
      SWEEP_FLAGS=--dry-run 2>&1); s=$?
[ $s -eq 2 ] && printf '%s' "$out" | grep -q '^make run: GPUS_PER_NODE: platform dgxh100 has 8 GPUs per node, got 2'
ok $? "make run BACKEND=mpi PLATFORM=dgxh100 GPUS_PER_NODE=2: refused (exit $s: $(printf '%s' "$out" | head -c 300))"
# the allocation's own allreduce sweep (issue 48 item 3): after the training launches, ddlbench allreduce
# at each GPU count from 2 up, placed like them, with the platform given
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=4 SLURM_GPUS_PER_NODE=h100:4 PLATFORM=minsky DRY_RUN=1 \
      MAKE_ARGS=BUILD=$gb bash batch/slurm.sbatch 2>&1)
ar_re="allreduce .*--csv results/[0-9TZ]+-mpi-16gpus/allreduce/allreduce-[0-9]+.csv --device gpu --platform minsky"
count "$out" "^srun -N [0-9]+ --ntasks-per-node 4 .* $gb/cuda/ddlbench $ar_re --gpus-per-node 4$" 3 \
    "slurm: the allreduce sweep at 4, 8, 16 GPUs"
has "$out" \
    "^srun -N 4 --ntasks-per-node 4 .* -n 16 $gb/cuda/ddlbench allreduce -a mpi,ring,rhd,ddl,auto -b 1K -e 64M " \
    "slurm: the allreduce sweep at 16 GPUs on 4 nodes, every algorithm"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" DRY_RUN=1 "$mk" bash batch/pbs.sh 2>&1)
has "$out" "^mpirun --host n1:4,n2:4,n3:4 --map-by ppr:4:node -np 12 $BUILD/ddlbench allreduce " \
    "pbs: the allreduce sweep at 12"
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" DRY_RUN=1 "$mk" PATH=/usr/bin:/bin bash batch/lsf.bsub 2>&1)
has "$out" "^mpirun --host a:4,b:4 --map-by ppr:4:node -np 8 $BUILD/ddlbench allreduce " "lsf: the allreduce sweep at 8"
# an exported preset works at every node count the preset does (issue 48 item 5): dgxh200's file (leaf
# 32) at 16 nodes is refused naming SWEEP_FLAGS=--partial-leaf, which make run then passes through
"$BUILD/ddlbench" platform --export dgxh200 -o "$tmp/d.platform"
out=$(make -s run BUILD="$BUILD" BACKEND=sim PLATFORM="$tmp/d.platform" NODES=16 SWEEP_FLAGS=--dry-run 2>&1); s=$?
[ $s -eq 2 ] && printf '%s' "$out" | grep -q 'a leaf of 32 nodes on 16 nodes.*(or SWEEP_FLAGS=--partial-leaf)'
ok $? "an exported dgxh200 at 16 nodes: refused, naming SWEEP_FLAGS=--partial-leaf ($s: $(printf '%s' "$out" | \
    head -c 300))"
out=$(make -s run BUILD="$BUILD" BACKEND=sim PLATFORM="$tmp/d.platform" NODES=16 \
    SWEEP_FLAGS="--dry-run --partial-leaf" \
      JOBS=1 2>&1); s=$?
[ $s -eq 0 ] && printf '%s\n' "$out" | grep -q "simlaunch.sh 128 .*--platform $tmp/d.platform .*--partial-leaf"
ok $? "SWEEP_FLAGS=--partial-leaf: the 16-node sweep runs ($s: $(printf '%s' "$out" | head -c 300))"
out=$(env SLURM_JOB_ID=1 SLURM_GPUS_PER_NODE=gpu:h100:8 sh harness/scripts/pick_device.sh "$gb"); [ "$out" = gpu ]
ok $? "pick_device.sh: typed GRES alone is GPUs (got $out)"
# launch.sh itself: more nodes asked than the allocation has, refused; the launcher each backend resolves to
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" sh harness/scripts/launch.sh --dry-run -b mpi -n 16 -g 4 x 2>&1)
st=$?
[ $st -eq 2 ] && [ "$out" = "launch.sh: 4 nodes of 4 ranks asked, the allocation has 3 (in $tmp/pbs_nodes)" ]
ok $? "launch.sh: 4 nodes of 3 ($st: $out)"
[ "$(sh harness/scripts/launch.sh --which -b mpi -n 1)" = mpilaunch.sh ] &&
    [ "$(env SLURM_JOB_ID=1 sh harness/scripts/launch.sh --which -b mpi -n 1)" = srun ] &&
    [ "$(env MPILAUNCH='mylauncher -np' sh harness/scripts/launch.sh --which -b mpi -n 1)" = mylauncher ] &&
    [ "$(sh harness/scripts/launch.sh --which -b simulated -p d -n 1)" = simlaunch.sh ]; ok $? "launch.sh --which"
out=$(sh harness/scripts/launch.sh --dry-run -b emulated -e c -n 4 -g 2 prog a 2>&1)
has "$out" "^DDL_RANKS_PER_NODE=2 sh .*/emucluster.sh --name c run --ppn 2 -- sh .*/mpilaunch.sh 4 prog a$" \
    "launch.sh: emulated"

out=$(env SLURM_JOB_ID=1 make -s run BUILD="$BUILD" NODES=2 SWEEP_FLAGS=--dry-run 2>&1)
has "$out" "^srun -N 2 --ntasks-per-node 4 --cpu-bind=cores -n 8 $BUILD/ddlbench train " \
    "make run in an allocation: real backend, placed by srun"
out=$(env SLURM_JOB_ID=1 make -s run BUILD="$BUILD" NODES=2 BACKEND=sim SWEEP_FLAGS=--dry-run 2>&1)
has "$out" "simlaunch.sh 8 .*ddlbench-sim train " "make run BACKEND=sim inside an allocation"
# make fidelity on an allocation (issue 26): STUDY=fidelity dry runs under fake allocations print the
# calibration, the real runs and the simulation on the allocation's shape; outside one, BACKEND=mpi
# without MPILAUNCH is one line, exit 2, and results/fidelity/ is left as it was.
fid_before=$(ls -l results/fidelity 2>/dev/null | md5sum)
out=$(env SLURM_JOB_ID=77 SLURM_JOB_NUM_NODES=4 SLURM_NTASKS_PER_NODE='4(x4)' STUDY=fidelity DRY_RUN=1 "$mk" bash \
    batch/slurm.sbatch 2>&1)
ok $? "slurm fidelity dry run exit status"
has "$out" "^srun .* -n 16 $BUILD/ddlbench calibrate --network " "slurm fidelity: calibrate on the 16 ranks"
has "$out" "^srun .* -n 16 $BUILD/ddlbench allreduce .*--csv .*allreduce_real.1.csv" "slurm fidelity: real allreduce"
has "$out" "^srun .* -n 16 $BUILD/ddlbench train " "slurm fidelity: real train"
has "$out" "platform --preset .*local.platform --nodes 4 --gpus-per-node 4 " \
    "slurm fidelity: a 4 x 4 platform from the calibration"
has "$out" "DDL_RANKS_PER_NODE=4 sh .*simlaunch.sh 16 .*ddlbench-sim allreduce " "slurm fidelity: simulated on it"
out=$(env LSB_JOBID=5 LSB_DJOB_HOSTFILE="$tmp/lsf_hosts" STUDY=fidelity DRY_RUN=1 "$mk" PATH=/usr/bin:/bin bash \
    batch/lsf.bsub 2>&1)
has "$out" "^mpirun --host a:4,b:4 --map-by ppr:4:node -np 8 $BUILD/ddlbench calibrate --network " \
    "lsf fidelity: 2 nodes x 4"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" STUDY=fidelity DRY_RUN=1 "$mk" bash batch/pbs.sh 2>&1)
has "$out" "^mpirun --host n1:4,n2:4,n3:4 --map-by ppr:4:node -np 12 $BUILD/ddlbench calibrate --network " \
    "pbs fidelity: 3 nodes x 4"
has "$out" "simlaunch.sh 12 .*ddlbench-sim train " "pbs fidelity: simulated train"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" sh harness/scripts/alloc.sh 2>&1)
[ "$out" = "3 4" ]; ok $? "alloc.sh reads the PBS nodefile (got \"$out\")"
out=$(env PBS_JOBID=9 PBS_NODEFILE="$tmp/pbs_nodes" sh harness/scripts/fidelity.sh --build "$BUILD" --backend mpi \
      --dry-run 2>&1 | grep -c "^mpirun --host n1:4,n2:4,n3:4 --map-by ppr:4:node -np 12 ")
[ "$out" -ge 3 ]; ok $? "fidelity.sh --backend mpi reads the shape itself (alloc.sh): $out placed launches"
out=$(make -s fidelity BUILD="$BUILD" BACKEND=mpi 2>&1); st=$?
[ $st -ne 0 ] && [ "$(printf '%s\n' "$out" | grep -c 'not inside a Slurm, LSF or PBS allocation')" -eq 1 ]
ok $? "make fidelity BACKEND=mpi outside an allocation: one line (exit $st: $out)"
sh harness/scripts/fidelity.sh --build "$BUILD" --backend mpi --out "$tmp/fo" >/dev/null 2>"$tmp/e"; st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -e "$tmp/fo" ]
ok $? "fidelity.sh --backend mpi outside: exit 2 ($st), one line, nothing written"
[ "$fid_before" = "$(ls -l results/fidelity 2>/dev/null | md5sum)" ]; ok $? "results/fidelity untouched"
latest_after=$(readlink results/latest 2>/dev/null)
[ "$latest_before" = "$latest_after" ]; ok $? "dry runs leave results/latest alone"
ls -d results/*-mpi-16gpus results/*-mpi-12gpus 2>/dev/null | grep -q .; [ $? -ne 0 ]
ok $? "dry runs create no results folder"

if [ -x "$BUILD/sim/ddlbench-sim" ]; then # a real (tiny, simulated) sweep
    args="--build $BUILD --nodes 2 --gpus-per-node 2 --models resnet50:2 --algos ring,ddl --train-args --steps=1"
    sh harness/scripts/sweep.sh $args --out "$tmp/run" --train-args "--steps 1 --warmup 0 --image-size 32" \
        >"$tmp/o" 2>"$tmp/e"
    ok $? "tiny sweep exit status"
    prog='^\[[1-3]/3\] resnet50 1 GPUs \(sim; ring,ddl\) took [0-9]+ (s|min); elapsed [0-9]+ (s|min), '
    has "$(cat "$tmp/e")" "$prog"'about [0-9]+ (s|min) left$' "progress line"
    count "$(cat "$tmp/e")" '^\[[0-9]/3\]' 3 "one progress line per configuration"
    csv=$tmp/run/scaling.csv
    has "$(head -n 1 "$csv")" '^# run: run$' "scaling.csv starts with provenance"
    for k in backend platform links profile nodes gpus_per_node sweep_command commit mpi blas device hosts date \
        launch_command counters; do
        grep -q "^# $k: ." "$csv"; ok $? "scaling.csv has # $k"
    done
    hdr_re='^backend,platform,model,.*,images_per_s,eff_vs_1gpu,eff_vs_1node,wrong,papi_gemm_GFLOPps,papi_gemm_ipc,'
    hdr_re=$hdr_re'dataset,epochs,dataset_images,time_to_train_h,gpu_hours,slowest_rank,lag_ms,mad_ms,stragglers,'
    has "$(grep -v '^#' "$csv" | head -n 1)" "$hdr_re"'eff_vs_smallest$' "header row after the comments"
    count "$(grep -v '^#' "$csv")" '^sim,minsky,resnet50,2,32,' 6 "3 GPU counts x 2 algorithms"
    has "$(grep -v '^#' "$csv")" ',NA,NA,ImageNet-1K,90,1281167,[0-9.]+,[0-9.]+,[0-9]+,[0-9.]+,[0-9.]+,0,[0-9.]+$' \
        "PAPI columns read NA under simulation; time to train; no straggler among identical simulated ranks"
    [ -s "$tmp/run/scaling.json" ]; ok $? "scaling.json next to scaling.csv"
    has "$(head -n 1 "$tmp/run/raw/resnet50-4.csv")" '^# commit: ' "raw CSV starts with provenance"
    sh harness/scripts/report.sh "$tmp/run" >/dev/null; ok $? "report.sh"
    has "$(cat "$tmp/run/report.md")" \
        '^\| resnet50 \| 4 \| ddl \| 25 \| [0-9.]+ \| [0-9.]+% \| [0-9.]+% \| [0-9.]+% \| - \|' \
        "report: efficiency table (no study figures at 4 GPUs)"
    has "$(cat "$tmp/run/report.md")" 'simulation build' "report: why no counters"
    has "$(cat "$tmp/run/report.md")" '^Links at 2 nodes: 2 GPUs/node of p100: GPU link 80 GB/s per GPU' \
        "report: the links"
    if command -v gnuplot >/dev/null 2>&1; then
        sh plots/plots.sh "$tmp/run" >/dev/null; ok $? "plots.sh"
        grep -q 'make bench on 1 host: [^,]*, 20[0-9-]*, not the platform of the run' "$tmp/run/busbw.svg"
        ok $? "busbw: another run's CSV, its host and date in the title"
        for c in efficiency throughput busbw breakdown; do
            for e in png svg; do [ -s "$tmp/run/$c.$e" ]; ok $? "chart $c.$e"; done
        done
    fi
    [ -z "$(find "$tmp/run" -name '*.tmp')" ]; ok $? "no *.tmp left"
    sh harness/scripts/sweep.sh $args --out "$tmp/q" -q --train-args "--steps 1 --warmup 0 --image-size 32" \
        >/dev/null 2>"$tmp/e"
    [ ! -s "$tmp/e" ]; ok $? "-q: no progress lines (got: $(head -c 200 "$tmp/e"))"
else
    echo "# $BUILD/sim/ddlbench-sim not built (make sim): tiny sweep skipped"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
