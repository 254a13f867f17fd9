#!/bin/sh
# bad_inputs_bench.sh — the collective benchmarks (`ddlbench allreduce`, `reduce-scatter`,
# `allgather`) and `ddlbench kernels` refuse every malformed input clearly: sizes, counts, types,
# devices, labels, the DDL_* variables of a benchmark run, buffers that do not fit in memory. The row
# format: tests/lib/bad_inputs.sh. Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

# a huge -s for kernels is refused only where three buffers of it do not fit in memory
kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
big=""; [ -n "$kb" ] && [ "$kb" -lt 50000000 ] && big="-- ddlbench kernels -s 16G ## -s"
rows <<EOF
# one bad value per option
-- ddlbench allreduce -b ""
-- ddlbench allreduce -e 64Q
-- ddlbench allreduce -e 1T -n 1 -w 0
-- ddlbench allreduce -n 99999999999999999999
-- ddlbench allreduce --timeout x
DDL_GRID=3 -- ddlbench allreduce -a ddl -e 1K
DDL_SEGMENT_BYTES=-1 -- ddlbench allreduce -a ring -e 1K
DDL_NET_SEGMENT_BYTES=1x -- ddlbench allreduce -a ring -e 1K
DDL_NET_SEGMENT_BYTES=32 -- ddlbench allreduce -a ddl -e 1K
DDL_CHANNELS=0 -- ddlbench allreduce -a nccl-ring -e 1K ## DDL_CHANNELS
DDL_CHANNELS=3 -- mpi2 allreduce -a nccl-ring -e 1K ## DDL_CHANNELS
DDL_CHANNELS=two -- mpi2 reduce-scatter -a nccl-ring -e 1K ## DDL_CHANNELS
DDL_PIPE_CHUNK=0 -- ddlbench allreduce -a ddl-pipe -e 1K ## DDL_PIPE_CHUNK
DDL_PIPE_WINDOW=65 -- mpi2 allreduce -a ddl-pipe -e 1K ## DDL_PIPE_WINDOW
DDL_PIPE_LEAD=x -- mpi2 allreduce -a ddl-pipe -e 1K ## DDL_PIPE_LEAD
# issue 18's classes: output paths checked before the work, every override honoured or refused, memory
# checks, exact sizes, one precise line naming the option
-- ddlbench kernels -s 5 ## -s
-- ddlbench allreduce -b 5 -e 1K ## -b
-- ddlbench allreduce -b 4 -e 1K -d float64 ## -b
-- ddlbench allreduce -b 2 -e 1023 -d float16 ## -e
-- ddlbench kernels -s 4K,6 ## -s
# hostile probes: empty, negative, overflow, junk suffix, huge, unicode and path oddities
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
-- ddlbench kernels -s 0 ## -s
-- ddlbench kernels -s '' ## -s
-- ddlbench kernels -s 1,,2 ## -s
-- ddlbench kernels -r 1001 ## -r
-- ddlbench kernels -x ## -x
-- ddlbench kernels -s 17G ## -s
$big
EOF
report
