#!/bin/sh
# sim_speed.sh — what makes the simulated sweep fast must not change its answers (issue 17):
#   warm-up: under SMPI the first simulated step equals the second (every column of a 1-step run
#            with and without a warm-up step; step min = max over 2 steps), so `make run` skips it;
#   jobs:    a sweep with 2 launches at once writes the scaling.csv of a serial one;
#   model:   `ddlbench model --train` (the alpha-beta-gamma pricer of the one step schedule,
#            --backend model) within 0.5% of a fresh simulation's step time, for every algorithm, with
#            --compute full and gemm, at 8, 32 and 256 GPUs (64 nodes: the multi-node grid; ResNet-50,
#            one step: ~45 s of CPU per compute mode), and with Horovod's cycles and a per-call cost
#            (harness/train/framework.h) at 32 GPUs;
#   safety:  simlaunch.sh refuses SimGrid's parallel contexts (tests/sim/parallel_contexts.sh);
#   scale:   a sweep estimated at over an hour is refused (exit 2, an estimate, nothing written)
#            unless --force; --backend model reaches 65,536 GPUs and labels its rows "model";
#            above --sim-ring-max GPUs (default 64) the ring's rows come from the model, labelled
#            "model", beside the simulated rows of the other algorithms.
# Prints "N passed, N failed".
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $2"; fi; }
rows() { grep -v '^#' "$1"; }
[ -x "$BUILD/ddlbench" ] || { echo "FAIL no $BUILD/ddlbench (make)"; echo "0 passed, 1 failed"; exit 1; }
SIM=$BUILD/sim/ddlbench-sim
sim=0; [ -x "$SIM" ] && command -v smpirun >/dev/null 2>&1 && sim=1

ALGOS=mpi,ring,rhd,ddl,auto
simtrain() { # nodes csv train-options...: ResNet-50 at batch 32, the algorithms in $ALGOS, on minsky
    nn=$1 csv=$2; shift 2
    mkdir -p "$tmp/p$nn" && "$BUILD/ddlbench" platform --preset minsky --nodes "$nn" -o "$tmp/p$nn" >/dev/null &&
        DDL_RANKS_PER_NODE=4 sh harness/scripts/simlaunch.sh $((nn * 4)) "$tmp/p$nn" "$SIM" train --model resnet50 \
            --batch 32 -a "$ALGOS" --profile p100 --platform minsky --gpus-per-node 4 --csv "$csv" \
            "$@" >"$csv.log" 2>&1 </dev/null
}
within() { # sim.csv model.csv label: step_ms_median per algorithm within 0.5% (every algorithm of $ALGOS),
           # compute_ms and sgd_ms within 0.1%, comm_ms within 10%
    awk -F, -v lbl="$3" -v want="$(echo "$ALGOS" | tr , '\n' | grep -c .)" 'FNR == 1 { f++ } /^#/ { next }
        !h[f]++ { for (i = 1; i <= NF; i++) c[f, $i] = i; next }
        function off(x, y, lim) { return y > 0 ? (x - y) / y > lim || (y - x) / y > lim : x != y }
        f == 1 { a = $c[1, "algo"]; s[a] = $c[1, "step_ms_median"]; sc[a] = $c[1, "comm_ms"]
                 sp[a] = $c[1, "compute_ms"]; sg[a] = $c[1, "sgd_ms"]; next }
        { a = $c[2, "algo"]; m = $c[2, "step_ms_median"]; n++
          if (!(a in s)) { print "FAIL " lbl " " a ": no simulated row"; bad++; next }
          d = (m - s[a]) / s[a]
          printf "# %s %-5s sim %9.4f ms  model %9.4f ms  %+.3f%%  (comm %.3f / %.3f ms)\n", lbl, a, s[a], m,
              100 * d, sc[a], $c[2, "comm_ms"]
          if (off(m, s[a], 0.005)) { print "FAIL " lbl " " a ": step: model more than 0.5% off"; bad++ }
          # the parts the two price alike agree to 0.1%; the allreduces to 10% (the simulation adds segment latencies)
          if (off($c[2, "compute_ms"], sp[a], 0.001) || off($c[2, "sgd_ms"], sg[a], 0.001)) {
              print "FAIL " lbl " " a ": compute or SGD differ"; bad++ }
          if (off($c[2, "comm_ms"], sc[a], 0.10)) {
              print "FAIL " lbl " " a ": allreduce time more than 10% off"; bad++ } }
        END { exit bad || n < want }' "$1" "$2"
}

if [ "$sim" = 1 ]; then
    simtrain 2 "$tmp/w0.csv" --steps 1 --warmup 0; ok $? "sim train, no warm-up"
    simtrain 2 "$tmp/w1.csv" --steps 1 --warmup 1; ok $? "sim train, one warm-up step"
    # ms columns may differ by one unit in the 4th decimal: the 1-rank allreduce's 50 ns sits on a rounding edge
    awk -F, 'FNR == 1 { f++ } /^#/ { next } { r[f, FNR] = $0; n[f]++ }
        END { if (n[1] != n[2] || n[1] < 6) exit 1
              for (k in r) { split(k, q, SUBSEP); if (q[1] != 1) continue; split(r[1, q[2]], a, ",");
                  split(r[2, q[2]], b, ",")
                  for (i in a)
                      if (a[i] != b[i] && !(a[i] ~ /^[0-9.]+$/ && (a[i] - b[i])^2 <= 1e-8 + 1e-12)) exit 1 } }' \
        "$tmp/w0.csv" "$tmp/w1.csv"
    ok $? "the first simulated step equals the second (no warm-up vs one warm-up step, every column)"
    simtrain 2 "$tmp/s2.csv" --steps 2 --warmup 0
    rows "$tmp/s2.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n++;
        if ($c["step_ms_min"] != $c["step_ms_max"]) exit 1 } END { exit n != 5 }'
    ok $? "two simulated steps: step_ms_min = step_ms_max for every algorithm"
    for nn in 2 8 64; do
        for comp in full gemm; do
            if [ "$nn" != 2 ] || [ "$comp" = gemm ]; then
                simtrain "$nn" "$tmp/w0.csv" --steps 1 --warmup 0 --compute "$comp"
                ok $? "sim train at $((nn * 4)) GPUs, --compute $comp"
            fi # (2 nodes, full: w0.csv from above)
            "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a "$ALGOS" --preset minsky --nodes "$nn" \
                --profile p100 --compute "$comp" --csv "$tmp/m.csv" >/dev/null
            within "$tmp/w0.csv" "$tmp/m.csv" "$((nn * 4)) GPUs $comp"
            ok $? "model within 0.5% of the simulation at $((nn * 4)) GPUs, --compute $comp, every algorithm"
        done
    done
    # Horovod's cycles and a per-call cost (framework.h): the simulation and the model make the same
    # fused allreduces at the same wake-ups
    HVD="--cycle-ms 5 --bucket-mb 64 --call-us 20"
    simtrain 8 "$tmp/c.csv" --steps 1 --warmup 0 --compute gemm $HVD; ok $? "sim train at 32 GPUs with $HVD"
    "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a "$ALGOS" --preset minsky --nodes 8 \
        --profile p100 --compute gemm $HVD --csv "$tmp/m.csv" >/dev/null
    within "$tmp/c.csv" "$tmp/m.csv" "32 GPUs cycles"
    ok $? "model within 0.5% of the simulation at 32 GPUs with Horovod's cycles, every algorithm"
    # compute slowed beside the allreduces (fw_slowdown): the same first-order term in both
    simtrain 8 "$tmp/d.csv" --steps 1 --warmup 0 --compute gemm --contention 20
    ok $? "sim train at 32 GPUs with --contention 20"
    "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a "$ALGOS" --preset minsky --nodes 8 \
        --profile p100 --compute gemm --contention 20 --csv "$tmp/n.csv" >/dev/null
    within "$tmp/d.csv" "$tmp/n.csv" "32 GPUs contention"
    ok $? "model within 0.5% of the simulation at 32 GPUs with --contention 20, every algorithm"
    "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a ring --preset minsky --nodes 8 \
        --profile p100 --compute gemm --csv "$tmp/n0.csv" >/dev/null
    awk -F, 'FNR == 1 { f++ } /^#/ { next } !h[f]++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["algo"] == "ring" { v[f] = $c["compute_ms"] } END { exit !(v[1] > v[2] * 1.001) }' "$tmp/n.csv" "$tmp/n0.csv"
    ok $? "--contention 20 lengthens the ring's compute (backward beside its allreduces)"
    # communication slowed beside backward's compute (fw_comm_stretch): the same term in both
    simtrain 8 "$tmp/e.csv" --steps 1 --warmup 0 --compute gemm --comm-contention 150
    ok $? "sim train at 32 GPUs with --comm-contention 150"
    "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a "$ALGOS" --preset minsky --nodes 8 \
        --profile p100 --compute gemm --comm-contention 150 --csv "$tmp/n1.csv" >/dev/null
    within "$tmp/e.csv" "$tmp/n1.csv" "32 GPUs comm contention"
    ok $? "model within 0.5% of the simulation at 32 GPUs with --comm-contention 150, every algorithm"
    awk -F, 'FNR == 1 { f++ } /^#/ { next } !h[f]++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["algo"] == "ring" { v[f] = $c["comm_ms"]; p[f] = $c["compute_ms"] }
        END { exit !(v[1] > v[2] * 1.01 && p[1] == p[2]) }' "$tmp/n1.csv" "$tmp/n0.csv"
    ok $? "--comm-contention 150 lengthens the ring's allreduces, not its compute"
    # partial overlap (fw_hold): the same held enqueues in both
    simtrain 8 "$tmp/h.csv" --steps 1 --warmup 0 --compute gemm --overlap-from 100
    ok $? "sim train at 32 GPUs with --overlap-from 100"
    "$BUILD/ddlbench" model --train --model resnet50 --batch 32 -a "$ALGOS" --preset minsky --nodes 8 \
        --profile p100 --compute gemm --overlap-from 100 --csv "$tmp/n2.csv" >"$tmp/n2.out"
    within "$tmp/h.csv" "$tmp/n2.csv" "32 GPUs partial overlap"
    ok $? "model within 0.5% of the simulation at 32 GPUs with --overlap-from 100, every algorithm"
    awk -F, 'FNR == 1 { f++ } /^#/ { next } !h[f]++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["algo"] == "ring" { v[f] = $c["exposed_ms"]; p[f] = $c["compute_ms"] }
        END { exit !(v[1] > v[2] * 1.01 && p[1] == p[2]) }' "$tmp/n2.csv" "$tmp/n0.csv" &&
        grep -q "^# partial overlap, ring: +[0-9.]* ms a step" "$tmp/n2.out"
    ok $? "--overlap-from 100 exposes more of the ring's allreduces, not more compute; its term printed"
    # parallel launches give the serial sweep's scaling.csv
    S="--backend sim --nodes 2 --gpus-per-node 2 --models resnet50:4 --algos ring,ddl --train-args --steps=1"
    S="$S --build $BUILD -q"
    sh harness/scripts/sweep.sh $S --train-args "--steps 1 --warmup 0" --out "$tmp/j1" --jobs 1 >/dev/null 2>&1
    ok $? "sweep --jobs 1"
    sh harness/scripts/sweep.sh $S --train-args "--steps 1 --warmup 0" --out "$tmp/j2" --jobs 2 >/dev/null 2>&1
    ok $? "sweep --jobs 2"
    rows "$tmp/j1/scaling.csv" >"$tmp/a" && rows "$tmp/j2/scaling.csv" >"$tmp/b" && [ -s "$tmp/a" ] &&
        cmp -s "$tmp/a" "$tmp/b"
    ok $? "sweep --jobs 2 writes the scaling.csv of --jobs 1 (apart from # lines)"
else
    echo "# no $SIM or smpirun: the simulated checks are skipped (make sim)"
fi

# scale: refused with an estimate; forced or modelled it runs
out=$(sh harness/scripts/sweep.sh --nodes 4096 --build "$BUILD" --out "$tmp/big" 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'estimated on this machine.*--force' && [ ! -e "$tmp/big" ]
ok $? "sweep --nodes 4096 (16,384 simulated GPUs) refused with an estimate (exit $st: $out)"
sh harness/scripts/sweep.sh --nodes 4096 --force --dry-run --build "$BUILD" --out "$tmp/big" 2>&1 |
    grep -q 'simlaunch.sh 16384 '
ok $? "--force: the same sweep goes ahead (dry run)"
sh harness/scripts/sweep.sh --backend model --nodes 16384 --models resnet50:32 --algos ddl,auto --build "$BUILD" \
    --out "$tmp/mod" -q >/dev/null 2>&1; ok $? "sweep --backend model --nodes 16384"
rows "$tmp/mod/scaling.csv" | grep -q '^model,minsky,resnet50,32,224,65536,16384,4,auto,' &&
    ! rows "$tmp/mod/scaling.csv" | grep -q '^sim,'
ok $? "--backend model: a 65,536-GPU row, every row labelled model"
grep -q '^# platform: minsky (alpha-beta-gamma model' "$tmp/mod/scaling.csv"
ok $? "--backend model: labelled in the provenance"
dry=$(sh harness/scripts/sweep.sh --nodes 256 --dry-run --build "$BUILD" --out "$tmp/d256" 2>&1)
echo "$dry" | grep -q 'model --train --model resnet50 --batch 32 -a ring .*--nodes 256 ' &&
    echo "$dry" | grep 'simlaunch.sh 1024 ' | grep -q -- '-a mpi,rhd,ddl,auto ' &&
    echo "$dry" | grep 'simlaunch.sh 256 ' | grep -q -- '-a mpi,rhd,ddl,auto ' &&
    echo "$dry" | grep 'simlaunch.sh 64 ' | grep -q -- '-a mpi,ring,rhd,ddl,auto ' &&
    ! echo "$dry" | grep -q 'model --train .*--nodes 16 '
ok $? "--nodes 256: the ring from the model above 64 GPUs only, the rest simulated (dry run)"
sh harness/scripts/sweep.sh --nodes 256 --sim-ring-max 0 --dry-run --build "$BUILD" --out "$tmp/d0" 2>&1 |
    grep 'simlaunch.sh 1024 ' | grep -q -- '-a mpi,ring,rhd,ddl,auto '
ok $? "--sim-ring-max 0: every configuration simulated (dry run)"
out=$(sh harness/scripts/sweep.sh --sim-ring-max -1 --dry-run --build "$BUILD" 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q -- '--sim-ring-max: expected an integer'
ok $? "--sim-ring-max -1 refused (exit $st: $out)"
if [ "$sim" = 1 ]; then # a small mixed sweep: ring modelled above 2 GPUs, ddl simulated everywhere
    sh harness/scripts/sweep.sh --nodes 2 --gpus-per-node 2 --models resnet50:32 --algos ring,ddl --sim-ring-max 2 \
        --train-args "--steps 1 --warmup 0" --build "$BUILD" --out "$tmp/mix" -q >/dev/null 2>&1
    ok $? "mixed sweep (--sim-ring-max 2) runs"
    r=$(rows "$tmp/mix/scaling.csv")
    echo "$r" | grep -q '^model,minsky,resnet50,32,224,4,2,2,ring,' && echo "$r" |
        grep -q '^sim,minsky,resnet50,32,224,4,2,2,ddl,' &&
        echo "$r" | grep -q '^sim,minsky,resnet50,32,224,2,1,2,ring,' && [ "$(echo "$r" | grep -c '^model,')" = 1 ]
    ok $? "mixed sweep: the 4-GPU ring row labelled model, every other row sim"
    grep -q '^# mpi: SMPI' "$tmp/mix/scaling.csv"; ok $? "mixed sweep: the provenance is the simulation's"
fi
mkdir -p "$tmp/p1" && "$BUILD/ddlbench" platform --preset minsky --nodes 1 -o "$tmp/p1" >/dev/null
out=$(SMPI_FLAGS="--cfg=contexts/nthreads:2" sh harness/scripts/simlaunch.sh 4 "$tmp/p1" /bin/true 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'parallel_contexts'
ok $? "simlaunch.sh refuses contexts/nthreads:2 (SimGrid 3.32 race; exit $st)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
