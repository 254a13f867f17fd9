#!/bin/sh
# cli_model.sh — `ddlbench model` from the outside: the printed totals of ResNet-50/101/101-22K match
# torchvision's counts; bad options exit 2 with one line on stderr; --help exits 0.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"

# expect_total KEY VALUE ARGS... : the "# KEY VALUE" totals line of ddlbench model ARGS
expect_total() {
    key=$1; want=$2; shift 2
    got=$("$exe" model "$@" 2>/dev/null | awk -v k="$key" '$1 == "#" && $2 == k { print $3 }')
    if [ "$got" = "$want" ]; then ok; else bad "ddlbench model $*: $key = '$got', want '$want'"; fi
}

[ -x "$exe" ] || { echo "no $exe (build first)"; echo "0 passed, 1 failed"; exit 1; }

expect_total parameters 25557032 --model resnet50
expect_total tensors 161 --model resnet50
expect_total fp32_gradient_MB 102.2 --model resnet50
expect_total fwd_GMACs_per_image 4.089 --model resnet50 --batch 8
expect_total largest_tensor 2359296 --model resnet50
expect_total parameters 44549160 --model resnet101 --batch 1
expect_total tensors 314 --model=resnet101
expect_total fwd_GMACs_per_image 7.801 --model resnet101
expect_total parameters 87252369 --model resnet101-22k
expect_total tensors 314 --model resnet101-22k
expect_total parameters 25557032 --image-size 160
expect_total fwd_GMACs_per_image 4.089

# rows: 109 layers for ResNet-50 (53 conv + 53 BN + 2 pools + FC); fc row has M=1000 N=batch K=2048
rows=$("$exe" model --model resnet50 --batch 4 | grep -vc '^#')
[ "$rows" -eq 109 ] && ok || bad "resnet50: $rows layer rows, want 109"
fc=$("$exe" model --model resnet50 --batch 4 | awk '$2 == "fc" { print $7, $8, $9 }')
[ "$fc" = "1000 4 2048" ] && ok || bad "fc GEMM '$fc', want '1000 4 2048'"

# --time runs every GEMM through the linked backend (tiny: 32x32 image, one run each)
t=$(OPENBLAS_NUM_THREADS=1 "$exe" model --model resnet50 --batch 1 --image-size 32 --time --reps 1 2>&1 |
    awk '$2 == "gemm_train_ms_per_step" { print ($3 > 0) }')
[ "$t" = 1 ] && ok || bad "--time: no positive gemm_train_ms_per_step"
t=$(OPENBLAS_NUM_THREADS=1 "$exe" model --model resnet50 --batch 1 --image-size 32 --time --cold --reps 1 2>&1 |
    awk '$2 == "gemm_train_ms_per_step" && /, cold\)/ { print ($3 > 0) }')
[ "$t" = 1 ] && ok || bad "--time --cold: no positive gemm_train_ms_per_step marked cold"
expect_status 2 model --time --reps 0
expect_status 2 model --reps x

expect_status 0 model --help
grep -q -- '--image-size' "$tmp/out" && ok || bad "--help does not document --image-size"
expect_status 0 model --model resnet101 --batch 1 --image-size 32
expect_status 2 model --model resnet152
expect_status 2 model --model
expect_status 2 model --batch 0
expect_status 2 model --batch -4
expect_status 2 model --batch 32x
expect_status 2 model --batch ""
expect_status 2 model --batch 99999999999999999999
expect_status 2 model --image-size 8
expect_status 2 model --image-size 16
expect_status 2 model --image-size 224.0
expect_status 2 model --image-size 1000000
expect_status 2 model --batch 100000 --image-size 1024
expect_status 2 model --bogus
expect_status 2 model --profile nosuch
expect_status 2 model --profile
# the non-GEMM bytes: a column per layer, totals that add up, a profile's predicted split
expect_total nongemm_fwd_MB_per_step 11328.3 --model resnet50 --batch 32
expect_total sgd_momentum_MB_per_step 511.1 --model resnet50 --batch 1 --image-size 64
bn=$("$exe" model --model resnet50 --batch 2 --image-size 64 | awk '$2 == "bn1" { print $(NF-1), $NF }')
[ "$bn" = "2.62 4.19" ] && ok || bad "bn1 fwd_MB bwd_MB '$bn', want '2.62 4.19' (20 and 32 bytes x 64x2x32x32)"
p100=$("$exe" model --model resnet50 --batch 32 --profile p100 | awk '$2 == "predicted_images_per_s" { print $3 }')
[ "$p100" = "160.0" ] && ok || bad "p100 profile: predicted $p100 images/s at batch 32, want 160.0 (its calibration)"
# a compute-model profile: each pass's time and kernel count; the kernels' fixed cost is the count x the profile's
# graph_kernel_us (4.0, with graphs); twice the batch, the same kernels
fw=$("$exe" model --model resnet50 --batch 1 --profile a100-amp | awk '$2 == "predicted_fwd_ms" { print $4, $9, $11 }')
fw2=$("$exe" model --model resnet50 --batch 2 --profile a100-amp | awk '$2 == "predicted_fwd_ms" { print $4, $9 }')
gk=$(awk '$1 == "graph_kernel_us" { print $3 }' "$(dirname "$0")/../harness/sim/profiles/a100-amp.profile")
echo "$fw $fw2 $gk" | awk '{ gsub(/[(;]/, ""); exit !($1 > 50 && $2 > $1 && $1 == $4 && $2 == $5 && $6 > 0 &&
    ($3 - ($1 + $2) * $6 / 1000) ^ 2 < 1e-6) }' && ok ||
    bad "predicted_fwd_ms: kernels and their cost '$fw' / '$fw2' ($gk us)"
expect_status 2 model resnet50
"$exe" model --model nosuch 2>&1 >/dev/null | grep -q 'resnet50, resnet101, resnet101-22k' && ok ||
    bad "unknown model: the error does not list the valid names"

# strong scaling (--global-batch, gbatch.h): each GPU floor(N / GPUs), the same step as --batch of that share,
# the remainder dropped and said; images/s counts the images run
gb=$("$exe" model train --platform dgxh100 --nodes 8 --global-batch 3200 -a rhd --csv "$tmp/gb.csv" 2>&1)
pb=$("$exe" model train --platform dgxh100 --nodes 8 --batch 50 -a rhd 2>&1)
echo "$gb" | grep -q '^# global batch 3200 over 64 GPUs: 50 per GPU (strong scaling)$' && ok ||
    bad "global batch line: $gb"
[ "$(echo "$gb" | grep '^  *rhd')" = "$(echo "$pb" | grep '^  *rhd')" ] && ok || bad "3200 over 64 is --batch 50"
grep -q '^# global_batch: global batch 3200 over 64 GPUs: 50 per GPU$' "$tmp/gb.csv" && ok || bad "CSV provenance"
grep -q '^resnet50,50,224,64,rhd,' "$tmp/gb.csv" && ok || bad "CSV batch column: the share"
"$exe" model train --platform dgxh100 --nodes 8 --global-batch 3210 -a rhd 2>&1 |
    grep -q '50 per GPU, 10 images dropped (3210 does not divide by 64; 3200 a step)' && ok || bad "remainder said"
# the resolved links (issue 48): ddlbench platform --show and the headers of model cost and model train
want="dgxh200: 8 GPUs/node of h200: GPU link 370 GB/s per GPU (line 450), 3 us; \
NVSwitch reduces (NVLS) at 382.5 GB/s per GPU; 8 NICs x 48 GB/s = 384 GB/s per node (line 50 a NIC), 6 us; \
leaves of 32 nodes per rail, 1:1, spine 7 us"
got=$("$exe" platform --show --platform dgxh200)
if [ "$got" = "$want" ]; then ok; else bad "platform --show dgxh200: '$got'"; fi
"$exe" platform --show --platform h200 | grep -q '1 NIC (or pipe) of 400 GB/s per node' && ok ||
    bad "--show h200: one pipe"
"$exe" platform --help | grep -q 'h200 *one-pipe model of a DGX H200 node' && ok ||
    bad "h200's help: the one-pipe model"
"$exe" platform --show --platform dgxh200 --nodes 16 | grep -q '^dgxh200, 16 nodes: .*leaves of 16 nodes' && ok ||
    bad "--show at 16 nodes: the leaf partly filled"
"$exe" model cost --algo ring --platform dgxh200 --nodes 4 --bytes 1M | grep -q '^# links: .*8 NICs x 48 GB/s = 384' &&
    ok || bad "model cost: # links header"
"$exe" model train --platform dgxh200 --nodes 2 -a ring 2>/dev/null | grep -q '^# links: .*8 NICs x 48 GB/s = 384' &&
    ok || bad "model train: # links header"
expect_status 2 platform --show --platform dgxh200 -o "$tmp"
expect_status 2 platform --show --platform nosuch
x=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe"); mkdir "$tmp/w"
(cd "$tmp/w" && "$x" platform --show --platform dgxh200 >/dev/null) && [ -z "$(ls "$tmp/w")" ] && ok ||
    bad "--show wrote something"

report
