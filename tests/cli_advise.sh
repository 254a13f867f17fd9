#!/bin/sh
# cli_advise.sh — `ddlbench advise` from the outside: bad input (unknown model, platform or algorithm,
# GPU counts <= 0 or not whole nodes, bad lists, missing options) exits 2 with one line; a model run
# prints the grid, the best setting and the DDP / Horovod lines; the one-bucket row exposes more than
# the advice; with --sim (when build/sim/ddlbench-sim exists) an 8-GPU grid runs in the simulator and
# the model's choice is reported there. Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }
A="--model resnet50 --platform minsky"
expect_status 2 advise --model vgg19 --platform minsky --gpus 8  # an unknown network (vgg16 is built in)
expect_status 2 advise --model resnet50 --platform nosuch --gpus 8
expect_status 2 advise --model resnet50 --platform custom --gpus 8
expect_status 2 advise $A --gpus 8 --algo nosuch
expect_status 2 advise $A --gpus 0
expect_status 2 advise $A --gpus -4
expect_status 2 advise $A --gpus x
expect_status 2 advise $A --gpus 6
expect_status 2 advise $A --gpus 8 --gpus-per-node 0
expect_status 2 advise $A --gpus 8 --caps 5,x
expect_status 2 advise $A --gpus 8 --sim --sim-exe /tmp  # a folder is not the simulation binary
expect_status 2 advise $A --gpus 8 --firsts ""
expect_status 2 advise $A --gpus 8 --batch 0
expect_status 2 advise $A --gpus 8 --profile nosuch
expect_status 2 advise $A
expect_status 2 advise --platform minsky --gpus 8
expect_status 2 advise $A --gpus 8 --bogus 1
expect_status 2 advise $A --gpus 8 --sim --sim-exe /no/such/ddlbench-sim
expect_status 0 advise --help

expect_status 0 advise $A --gpus 64 --algo auto
out=$(cat "$tmp/out")
head_re='^# ddlbench advise: resnet50 batch 32 (image 224) on minsky, 64 GPUs (16 nodes x 4), algorithm auto,'
echo "$out" | grep -q "$head_re"' profile p100$' &&
    ok || bad "header: $(echo "$out" | head -n 1)"
[ "$(echo "$out" | grep -cE '^ +[0-9]+( +[0-9]+\.[0-9]{2}){5}$')" -eq 13 ] && ok ||
    bad "grid: expected 13 rows of 5 cells"
best=$(echo "$out" | sed -n \
    's/^best (model): .* exposed communication \([0-9.]*\) ms per step (\([0-9.]*\)% of its [0-9.]* ms step)$/\1/p')
one=$(echo "$out" | awk '$1 == 0 && NF == 6 { print $2 }')
[ -n "$best" ] && [ -n "$one" ] && awk -v b="$best" -v o="$one" 'BEGIN { exit !(b < o) }' && ok ||
    bad "the advice ($best ms) should expose less than one bucket ($one ms)"
# the rule is printed with the advice (and in --help), with the least exposed setting beside it; shares of the step in %
rule_re='^  rule: the fewest buckets within 0\.1 ms or 10% \(the larger\) of the least exposed, then the larger cap; '
rule_re=$rule_re'the least exposed: --bucket-mb [0-9]+ --first-bucket-mb [0-9]+, [0-9]+ buckets, '
rule_re=$rule_re'[0-9.]+ ms \([0-9.]+%\)'
echo "$out" | grep -qE "$rule_re" &&
    ok || bad "no rule line under the advice: $(echo "$out" | grep -A1 '^best')"
least=$(echo "$out" | sed -n 's/^  rule: .*the least exposed: .* buckets, \([0-9.]*\) ms .*/\1/p')
[ -n "$least" ] && awk -v b="$best" -v l="$least" \
    'BEGIN { exit !(l <= b && (b - l <= 0.1 + 0.005 || b <= 1.1 * l + 0.005)) }' && ok ||
    bad "the advice ($best ms) is not within the rule's tolerance of the least exposed ($least ms)"
[ "$(echo "$out" | grep -cE '^ +[0-9]+( +[0-9]+\.[0-9]{2}%){5}$')" -eq 13 ] && ok ||
    bad "no grid of shares of the step (13 rows of 5 %)"
"$exe" advise --help | grep -q 'the fewest buckets within 0.1 ms or 10% (the larger) of the least exposed' && ok ||
    bad "--help does not state the rule"
echo "$out" | grep -q '^# model: the full step, as train --compute full' && ok ||
    bad "the model does not price the full step: $(echo "$out" | sed -n 2p)"
echo "$out" | grep -qE '^  PyTorch DDP:  DistributedDataParallel\(model, bucket_cap_mb=[0-9]+\) ' && ok ||
    bad "no DDP line"
echo "$out" | grep -qE '^  Horovod:      (HOROVOD_FUSION_THRESHOLD=[0-9]+ |one fused)' && ok || bad "no Horovod line"
cap=$(echo "$out" | sed -n 's/^  Horovod:      HOROVOD_FUSION_THRESHOLD=\([0-9]*\)   (\([0-9]*\) MiB.*/\1 \2/p')
[ -z "$cap" ] || [ "${cap% *}" -eq $((${cap#* } * 1048576)) ] && ok ||
    bad "Horovod threshold is not MiB x 1048576: $cap"

if [ -x "$BUILD/sim/ddlbench-sim" ]; then
    expect_status 0 advise $A --gpus 8 --caps 5,25,0 --firsts 0,1 --sim
    out=$(cat "$tmp/out")
    echo "$out" | grep -q '^# simulation (SMPI): exposed communication' && ok || bad "--sim: no simulation grid"
    echo "$out" |
        grep -qE \
        '^the model.s choice in the simulation: --bucket-mb [0-9]+ --first-bucket-mb [0-9]+: exposed [0-9.]+ ms$' &&
        ok || bad "--sim: no comparison line: $(echo "$out" | tail -n 1)"
    [ -z "$(ls -d /tmp/ddlbench-advise-* 2>/dev/null | xargs -r -n1 sh -c 'find "$0" -newer "'"$tmp"'" -maxdepth 0' \
        2>/dev/null)" ] &&
        ok || bad "--sim left its temporary folder"
    # a simulation binary under a path with a blank: smpirun gets a plain link to it
    mkdir -p "$tmp/with blank" && cp "$BUILD/sim/ddlbench-sim" "$tmp/with blank/"
    "$exe" advise $A --gpus 8 --image-size 32 --caps 5,25 --sim --sim-exe "$tmp/with blank/ddlbench-sim" \
        >"$tmp/sp.out" 2>&1 &&
        grep -q "in the simulation" "$tmp/sp.out" && ok ||
            bad "--sim-exe with a blank in its path: $(tail -n 1 "$tmp/sp.out")"
else
    echo "# $BUILD/sim/ddlbench-sim not built (make sim): --sim run skipped"
fi
report
