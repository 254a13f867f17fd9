#!/bin/sh
# bad_inputs_train.sh — `ddlbench train` refuses every malformed input clearly: its options, device
# profiles, grids and patterns, model files (FILE:LINE, nothing written), the environment variables
# it and libddl read (DDL_*), alone and on 2 ranks; DDL_POLL_US=0 (documented) is accepted. The row format:
# tests/lib/bad_inputs.sh.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

# model files (docs/MODELS.md): each bad one names FILE:LINE
M="--batch 1 --image-size 32"
printf 'conv c1 in=image out=6x k=3\nfc fc out=2\n' >"$tmp/malformed.txt"
printf 'conv a in=b out=4 k=1\nconv b in=a out=4 k=1\nfc fc out=2\n' >"$tmp/cycle.txt"
printf 'conv a in=image out=4 k=1\nconv b in=a out=8 k=1\nadd s in=a,b\nfc fc out=2\n' >"$tmp/addshape.txt"
printf 'conv a in=image out=4 k=1\nconv b in=a out=4 k=3 s=2\nconcat s in=a,b\nfc fc out=2\n' >"$tmp/catshape.txt"
printf 'conv a in=image out=4 k=1\nconv b cin=8 out=4 k=1\nfc fc out=2\n' >"$tmp/cin.txt"
printf 'conv a in=image out=4 k=1\ndeconv b out=4 k=1\nfc fc out=2\n' >"$tmp/kind.txt"
printf 'conv a in=image out=4 k=1\nfc fc ou' >"$tmp/cut.txt"
printf 'conv a in=image out=4 k=1\nconv b in=image out=4 k=1\nfc fc in=a out=2\n' >"$tmp/unread.txt"
: >"$tmp/emptymodel.txt"

G='gemm_gflops_fp32 = 1\ngemm_gflops_fp16 = 1\nreduce_ns_per_byte = 1\nmem_gbps = 1\n'
printf "${G}precision = fp64\n" >"$tmp/fp64.profile"
printf "${G}sms = 132\n" >"$tmp/notile.profile"
printf "${G}fused = 4\n" >"$tmp/fused4.profile"

rows <<EOF
# one bad value per option
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
-- ddlbench train -a nccl-tree --shard full ## --shard full
-- ddlbench train --shard full --check ## --shard
-- ddlbench train --shard zero2 ## --shard
-- ddlbench train -a nccl-tree --shard gradients ## --shard gradients
-- ddlbench train --shard optimizer --check ## --shard
-- ddlbench train --optimizer adamw ## --optimizer
-- ddlbench train --optimizer ## --optimizer
-- ddlbench train --optimizer=LAMB ## --optimizer
-- ddlbench train --optimizer adam --device gpu ## --optimizer adam
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
DDL_GRID=3x1 -- mpi2 allreduce -a ddl -e 1K -n 1 -w 0
DDL_RANKS_PER_NODE=3 -- mpi2 train $P -a ring
-- mpi2 train $P -a ddl --grid 3
# strong scaling (gbatch.h): a global batch below the GPUs, beside --batch, out of range
-- ddlbench train --global-batch 0 ## --global-batch
-- ddlbench train --grad-dtype fp8 ## --grad-dtype
-- ddlbench train --grad-dtype ## --grad-dtype
-- ddlbench train $P --grad-dtype fp16 --device gpu ## --grad-dtype
-- ddlbench model train --platform dgxh100 --nodes 8 --grad-dtype int32 ## --grad-dtype
-- ddlbench advise --model resnet50 --platform dgxh100 --nodes 8 --grad-dtype f16 ## --grad-dtype
-- ddlbench train --global-batch 3 --batch 2 ## --global-batch
-- mpi2 train --global-batch 1 --image-size 32 --steps 1 --warmup 0 --csv $tmp/gb.csv ## --global-batch
-- ddlbench model train --platform dgxh100 --nodes 8 --global-batch 63 ## --global-batch
-- ddlbench model train --platform dgxh100 --nodes 8 --global-batch 640 --batch 10 ## --global-batch
-- ddlbench advise --model resnet50 --platform dgxh100 --nodes 8 --global-batch 32 ## --global-batch
-- ddlbench advise --model resnet50 --platform dgxh100 --nodes 8 --limit 0 ## --limit
-- ddlbench advise --model resnet50 --platform dgxh100 --nodes 8 --limit 101 ## --limit
-- ddlbench advise --model resnet50 --platform dgxh100 --nodes 8 --limit 90 --sim ## --sim
# issue 18's classes: output paths checked before the work, every override honoured or refused, memory
# checks, exact sizes, one precise line naming the option
-- ddlbench train $P --jitter 0x10 ## --jitter
-- ddlbench train $P --jitter inf ## --jitter
-- ddlbench train $P --contention -1 ## --contention
-- ddlbench train $P --contention nan ## --contention
-- ddlbench train $P --contention 5 ## --contention
-- ddlbench train $P --comm-contention -1 ## --comm-contention
-- ddlbench train $P --comm-contention inf ## --comm-contention
-- ddlbench train $P --comm-contention 150 ## --comm-contention
-- ddlbench model train --preset minsky --nodes 2 --comm-contention 1001 ## --comm-contention
-- ddlbench train $P --overlap-from -1 ## --overlap-from
-- ddlbench train $P --overlap-from 50 ## --overlap-from
-- ddlbench model train --preset minsky --nodes 2 --overlap-from 101 ## --overlap-from
-- ddlbench model train --preset minsky --nodes 2 --overlap-from nan ## --overlap-from
-- ddlbench train $P --images-per-s 7008@400 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s 0@400 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s -1@400 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s 7008 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s 7008@0 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s 7008@4x ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s nan@400 ## --images-per-s
-- ddlbench model train --preset minsky --nodes 2 --images-per-s '' ## --images-per-s
-- ddlbench model train --preset dgxh100 --nodes 1 --profile a100-amp ## a100-amp
-- ddlbench train $P --jitter ' 1' ## --jitter
-- ddlbench train $P -a ddl --grid 1 --patterns ring,ring,ring,ring,ring,ring,ring,ring,ring ## patterns
-- ddlbench train $P -a ddl --grid 1 --patterns ring,ring,ring,ring,ring,ring,ring,ring,junk ## patterns
-- ddlbench train $P -a ddl --grid 1 --patterns ring,rhd,ring,rhd,ring,rhd,ring,rhd, ## patterns
-- ddlbench train $P -a ddl --grid '' ## --grid
-- ddlbench train $P -a ddl --patterns '' ## --patterns
DDL_GRID=7 -- ddlbench train $P -a ddl --grid '' ## --grid
DDL_POLL_US=abc -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=1000001 -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=-1 -- ddlbench train $P -a ring ## DDL_POLL_US
DDL_POLL_US=0x10 -- ddlbench train $P -a ring ## DDL_POLL_US
-- ddlbench train $P --profile $tmp/hex.profile ## decimal
-- ddlbench train $P --profile $tmp/fp64.profile ## fp64.profile:5: precision
-- ddlbench train $P --profile $tmp/notile.profile ## go together
-- ddlbench train $P --profile $tmp/fused4.profile ## fused4.profile:5: fused
-- ddlbench model train --preset minsky --nodes 2 --profile $tmp/fp64.profile ## fp64.profile:5: precision
-- ddlbench train $P --profile $tmp/inf.profile ## decimal
-- ddlbench train $P --profile $tmp/fifo.profile ## regular file
-- ddlbench train $P --platform nosuch ## --platform
-- ddlbench train $P --platform custom ## --platform
# model files: malformed, a cycle, shape mismatches, an unknown kind, cut in the middle of a layer
-- ddlbench train $M --model $tmp/malformed.txt --csv $tmp/m.csv ## malformed.txt:1:
-- ddlbench train $M --model $tmp/cycle.txt --csv $tmp/m.csv ## cycle.txt:1:
-- ddlbench train $M --model $tmp/addshape.txt --csv $tmp/m.csv ## addshape.txt:3:
-- ddlbench train $M --model $tmp/catshape.txt ## catshape.txt:3:
-- ddlbench train $M --model $tmp/cin.txt ## cin.txt:2:
-- ddlbench train $M --model $tmp/kind.txt ## kind.txt:2:
-- ddlbench train $M --model $tmp/cut.txt ## cut.txt:2:
-- ddlbench train $M --model $tmp/unread.txt ## unread.txt:2:
-- ddlbench train $M --model $tmp/emptymodel.txt ## emptymodel.txt
-- ddlbench train $M --model $tmp/nosuch.txt ## nosuch.txt
-- ddlbench train $M --model $tmp/adir/ ## adir
-- ddlbench model --model $tmp/cut.txt ## cut.txt:2:
-- ddlbench model --model $tmp/catshape.txt ## catshape.txt:3:
-- ddlbench model train --platform minsky --nodes 2 --model $tmp/addshape.txt --csv $tmp/m.csv ## addshape.txt:3:
-- ddlbench model text --model $tmp/cycle.txt ## --model
-- ddlbench train --model inception3 --batch 1 --image-size 64 ## --image-size 64
-- ddlbench model --model vgg16 --image-size 16 ## --image-size 16
# hostile probes: empty, negative, overflow, junk suffix, huge, unicode and path oddities
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
DDL_SEGMENT_BYTES=' 64' -- ddlbench train $P -a ring ## DDL_SEGMENT_BYTES
DDL_SEGMENT_BYTES=0x40 -- ddlbench train $P -a ring ## DDL_SEGMENT_BYTES
DDL_PIPELINE_DEPTH=0x4 -- ddlbench train $P -a ring ## DDL_PIPELINE_DEPTH
DDL_RANKS_PER_NODE=+1 -- ddlbench train $P -a ring ## DDL_RANKS_PER_NODE
DDL_PROFILE_DIR=/nonexistent -- ddlbench train $P --profile p100 ## --profile
EOF

check "a bad model file writes nothing (--csv)" [ ! -e "$tmp/m.csv" ]
DDL_POLL_US=0 "$exe" train $P -a ring >/dev/null 2>"$tmp/err"; st=$?
check "DDL_POLL_US=0 (block in MPI_Wait, as ddl.h documents) accepted ($st: $(cat "$tmp/err"))" [ "$st" -eq 0 ]
report
