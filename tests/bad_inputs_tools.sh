#!/bin/sh
# bad_inputs_tools.sh — the other subcommands refuse every malformed input clearly: `model` (layers,
# --time, --algo, --train), `platform` (presets, link figures, platform files), `calibrate`, `study`,
# `gpu-check`, `list`, an unknown command. The row format: tests/lib/bad_inputs.sh.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

printf 'embed e in=tokens vocab=9 out=12 seq=4\nlinear q out=36\nattn a heads=5\nlinear o out=12\n' >"$tmp/heads.txt"
printf 'embed e in=tokens vocab=9 out=12 seq=0\nlinear o out=4\n' >"$tmp/seq0.txt"
pfx='name = x\ngpus_per_node = %s\nintra_lat = 5us\nintra_bw = 80GB/s\ninter_lat = 10us\ninter_bw = 12.5GB/s\n%s\n'
printf "$pfx" 4 'sharp_bw = 12GB/s' >"$tmp/sharp_noleaf.platform"  # IB SHARP without leaf switches
printf "$pfx" 1 'nvls_bw = 80GB/s' >"$tmp/nvls_1gpu.platform"      # NVLS with nothing to reduce
printf "$pfx" 2 'nvls_bw = 80GB/s\nnvlinks = 0-1:2\nnvlink_bw = 20GB/s\nhost_bw = 10GB/s\nhost_lat = 9us' \
    >"$tmp/nvls_links.platform"                                    # NVLS on GPUs linked pair by pair
rows <<EOF
# one bad value per option
-- ddlbench model --model nosuch
-- ddlbench model --batch 0
-- ddlbench model --image-size 31
-- ddlbench model memory --shard fulll ## --shard
-- ddlbench model memory --optimizer adamw ## --optimizer
-- ddlbench model memory --precision fp8 ## --precision
-- ddlbench model memory --ranks 0 ## --ranks
-- ddlbench model memory --ranks 6 --shard-group 4 ## --shard-group
-- ddlbench model memory --model gpt2 --params 1e9 ## --params
-- ddlbench model memory --model $tmp/heads.txt ## heads.txt:3
-- ddlbench model memory --model $tmp/seq0.txt ## seq0.txt:1
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
-- ddlbench calibrate --bogus
-- ddlbench nosuchcommand
-- ddlbench model --train --preset minsky --nodes 0
-- ddlbench model --train --preset minsky --nodes 2 -a nosuch
-- ddlbench model --train --preset minsky --nodes 2 --bucket-mb -1
-- ddlbench model --train --preset minsky --nodes 2 --frobnicate 1
-- ddlbench model --train --nodes 2 --profile /nonexistent.profile
-- ddlbench model train --preset minsky --nodes 2 -a nccl-tree --shard full ## --shard full
-- ddlbench model train --preset minsky --nodes 2 --shard zero3 ## --shard
-- ddlbench model train --preset minsky --nodes 2 --optimizer adagrad ## --optimizer
-- ddlbench advise --model gpt2 --platform minsky --nodes 2 --shards --optimizer sgdm ## --optimizer
# issue 18's classes: output paths checked before the work, every override honoured or refused, memory
# checks, exact sizes, one precise line naming the option
-- ddlbench calibrate --network --name 'a b' ## --name
-- ddlbench platform --preset $tmp/hex.platform --nodes 2 ## decimal
-- ddlbench model --algo ring --bytes 1M --preset $tmp/inf.platform --nodes 2 ## decimal
-- ddlbench platform --preset $tmp/hexf.platform --nodes 2 ## lat_factor
-- ddlbench platform --preset $tmp/sharp_noleaf.platform --nodes 2 ## sharp_bw
-- ddlbench platform --preset $tmp/nvls_1gpu.platform --nodes 2 ## nvls_bw
-- ddlbench platform --preset $tmp/nvls_links.platform --nodes 2 ## nvls_bw
-- ddlbench model --algo ddl --grid 2x2x2x2x2x2x2x2 --patterns ring,ring,ring,ring,ring,ring,ring,ring,ring \
    --bytes 1M --preset minsky --nodes 64 ## patterns
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes 2 --profile $tmp/hex.profile ## decimal
-- ddlbench platform --preset custom --nodes 2 --intra-bw 0x10G --intra-lat 1us --inter-bw 1G --inter-lat 1us \
    ## --intra-bw
-- ddlbench platform --preset custom --nodes 2 --intra-bw 10G --intra-lat infus --inter-bw 1G --inter-lat 1us \
    ## --intra-lat
-- ddlbench model --time --batch 60000 ## --time
-- ddlbench list --bogus ## --bogus
# hostile probes: empty, negative, overflow, junk suffix, huge, unicode and path oddities
-- ddlbench model --batch abc ## --batch
-- ddlbench model --model '' ## --model
-- ddlbench model --reps 5 ## --reps
-- ddlbench model --cold ## --cold
-- ddlbench model --image-size=99999999999 ## --image-size
-- ddlbench model --algo ring --bytes -1 --preset minsky --nodes 2 ## --bytes
-- ddlbench model --algo ring --bytes 1T1 --preset minsky --nodes 2 ## --bytes
-- ddlbench model --algo ring,rhd,ddl,mpi,ring,rhd,ddl,mpi,ring --bytes 1M --preset minsky --nodes 2 ## --algo
-- ddlbench model --algo ring --grid 2x4 --bytes 1M --preset minsky --nodes 2 ## --grid
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes 99999 ## --nodes
-- ddlbench model --algo ring --bytes 1M --preset minsky --nodes ' 2' ## --nodes
-- ddlbench platform --preset custom --nodes 2 ## --preset custom
-- ddlbench platform --preset minsky --nodes '' ## --nodes
-- ddlbench platform --preset minsky --nodes 2 --intra-bw 1G ## --intra-bw
-- ddlbench gpu-check --peak-n 100 ## --peak-n
-- ddlbench gpu-check --bogus ## --bogus
-- ddlbench list extra ## extra
EOF
report
