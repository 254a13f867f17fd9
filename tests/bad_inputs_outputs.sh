#!/bin/sh
# bad_inputs_outputs.sh — output paths: refused ones (a directory, a missing or unwritable folder,
# /proc, /sys, a file where a folder is expected, a report.md, hostfile or smpi.cfg that is a folder)
# exit 2 with one line before any work and leave nothing behind; accepted ones (a FIFO, a character
# device, a symbolic link) are written through or followed, never replaced. The row format:
# tests/lib/bad_inputs.sh. Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

# nccl-tests catalogues (nccl_cat.h): sizes out of order, a busbw that is not positive, an unknown
# machine; the run's --out folder must stay empty
ne="name = e\nmachine = %s\nnodes = 1\nnccl = 2.18.5\npublished_algo = Ring\nalgo = nccl-ring\nkind = user\n"
ne="${ne}role = prediction\nsource = s\n%b"
mkdir -p "$tmp/nc-order" "$tmp/nc-bw" "$tmp/nc-mach" "$tmp/nc-algo" "$tmp/nc-out"
printf "$ne" dgxh100 'point = 2048 1\npoint = 1024 2\n' >"$tmp/nc-order/e.nccl"
printf "$ne" dgxh100 'point = 1024 -1\n' >"$tmp/nc-bw/e.nccl"
printf "$ne" nosuch 'point = 1024 1\n' >"$tmp/nc-mach/e.nccl"
printf "$ne" dgxh100 'point = 1024 1\n' | sed 's/^algo = nccl-ring/algo = nosuch/' >"$tmp/nc-algo/e.nccl"

rows <<EOF
# one bad value per option
-- ddlbench train $P -a ddl --csv /nonexistent/dir/out.csv
-- ddlbench allreduce --csv /nonexistent/dir/out.csv -e 1K
-- ddlbench platform --preset minsky --nodes 2 -o /nonexistent/dir
# issue 18's classes: output paths checked before the work, every override honoured or refused, memory
# checks, exact sizes, one precise line naming the option
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
-- ddlbench study --out /proc/ddl_bad ## --out
-- ddlbench study --out $tmp/afile ## --out
-- ddlbench study --out $tmp/study ## report.md
# a catalogue entry that is wrong: one line naming the file and the line, exit 2, no --out folder
-- ddlbench study --catalogue $tmp/cat-base --out $tmp/cat-out ## e.study:5: baseline
-- ddlbench study --catalogue $tmp/cat-nobatch --out $tmp/cat-out ## e.study: missing key "batch"
-- ddlbench study --catalogue $tmp/cat-gb --out $tmp/cat-out ## e.study:10: global_batch
-- ddlbench study --catalogue $tmp/cat-cut --out $tmp/cat-out ## e.study:11: hours
-- ddlbench study --catalogue $tmp/cat-key --out $tmp/cat-out ## e.study:11: unknown key
-- ddlbench study --catalogue $tmp/cat-shard --out $tmp/cat-out ## e.study:11: shard: expected none, optimizer
-- ddlbench study --catalogue $tmp/cat-optim --out $tmp/cat-out ## e.study:11: optimizer: expected sgd, adam or lamb
-- ddlbench study --catalogue $tmp/cat-fused --out $tmp/cat-out \
    ## e.study:11: fused_at_scale: expected a whole number 1..3
-- ddlbench study --catalogue $tmp/cat-held --out $tmp/cat-out ## e.study:11: bn_held: expected 0, 1 or 0|1
-- ddlbench study --catalogue $tmp/cat-fixed --out $tmp/cat-out \
    ## e.study: step_fixed_us and step_fixed_source: expected both
-- ddlbench model --model resnet50 --profile $tmp/held.profile ## held.profile:5: bn_held
-- ddlbench study --catalogue $tmp/cat-graphs --out $tmp/cat-out ## e.study:11: cuda_graphs: expected on or off
-- ddlbench study --catalogue $tmp/cat-graphsat --out $tmp/cat-out \
    ## e.study:11: cuda_graphs_at_scale: expected on or off
-- ddlbench study --catalogue $tmp/cat-oshard --out $tmp/cat-out ## e.study:11: optimizer_shard: expected a whole number
-- ddlbench study --catalogue $tmp/cat-oshard2 --out $tmp/cat-out \
    ## e.study:12: optimizer_shard: shard = optimizer is given too
-- ddlbench study --catalogue $tmp/cat-gk --out $tmp/cat-out ## e.study:11: graph_kernel_us: expected one or two
-- ddlbench study --catalogue $tmp/cat-gksrc --out $tmp/cat-out ## e.study: graph_kernel_us and graph_kernel_source
-- ddlbench study --catalogue $tmp/cat-k --out $tmp/cat-out ## e.study:11: kernel_us: expected one or two
-- ddlbench study --catalogue $tmp/cat-ksrc --out $tmp/cat-out ## e.study: kernel_us and kernel_source
-- ddlbench study --catalogue $tmp/cat-plat --out $tmp/cat-out \
    ## e.study: platforms: platform file harness/sim/platforms/nosuchmachine.platform
-- ddlbench study --catalogue $tmp/cat-algo4 --out $tmp/cat-out \
    ## e.study:8: algo: expected 1..3 different algorithm names
-- ddlbench study --catalogue $tmp/cat-model --out $tmp/cat-out ## resnet9
-- ddlbench study --catalogue $tmp/nosuch ## --catalogue
-- ddlbench study --catalogue $tmp/adir ## no .study files
-- ddlbench nccl-compare --catalogue $tmp/nc-order --out $tmp/nc-out ## e.nccl:11: point: sizes out of order
-- ddlbench nccl-compare --catalogue $tmp/nc-bw --out $tmp/nc-out ## e.nccl:10: point: busbw
-- ddlbench nccl-compare --catalogue $tmp/nc-mach --out $tmp/nc-out ## e.nccl:2: machine nosuch
-- ddlbench nccl-compare --catalogue $tmp/nc-algo --out $tmp/nc-out ## e.nccl:6: algo
-- ddlbench nccl-compare --catalogue $tmp/nosuch ## nosuch
-- ddlbench nccl-compare --catalogue $tmp/adir ## no *.nccl file
-- ddlbench nccl-compare --entries nosuch ## --entries
-- ddlbench nccl-compare --min-bytes 1T ## --min-bytes
-- ddlbench nccl-compare --out /proc/ddl_bad ## --out
-- ddlbench nccl-compare --out $tmp/afile ## --out
-- ddlbench nccl-compare --sim $tmp/adir --out $tmp/nc-out --catalogue $tmp/nc-bw ## busbw
-- sweep --backend model --out /proc/ddl_bad ## --out
-- sweep --backend model --out $tmp/afile ## --out
-- script report.sh $tmp/run ## report.md
# hostile probes: empty, negative, overflow, junk suffix, huge, unicode and path oddities
-- ddlbench train --csv ## --csv
-- ddlbench train $P --csv '' ## --csv
-- ddlbench platform --preset minsky --nodes 2 -o ## -o
-- ddlbench calibrate -o ## -o
-- ddlbench calibrate -o $tmp/nosuch/x.profile ## -o
EOF

check "nccl-compare: nothing written on bad input" sh -c "[ -z \"\$(ls -A '$tmp/nc-out')\" ]"

# Output paths that are accepted (exit 0) are written through or followed, never replaced; refused
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
    check "--csv character device: exit 0 and still a device ($st: $(cat "$tmp/err"))" sh -c \
        "[ $st -eq 0 ] && [ -c '$tmp/null' ]"
    "$exe" train $P -a ring --csv "$tmp/null" >/dev/null 2>"$tmp/err"; st=$?
    check "train --csv character device: exit 0 and still a device ($st: $(cat "$tmp/err"))" sh -c \
        "[ $st -eq 0 ] && [ -c '$tmp/null' ]"
else
    echo "# mknod not permitted: character device outputs not tried"
fi
check "platform -o with hostfile or smpi.cfg a directory, study --out with report.md one: nothing written" \
    sh -c "! ls '$tmp/plat/'platform.xml* '$tmp/plat3/'platform.xml* '$tmp/plat3/'hostfile* \
        '$tmp/study/'study.csv* 2>/dev/null | grep -q ."
mkdir -p "$tmp/pl" && ln -s real.xml "$tmp/pl/platform.xml"
"$exe" platform --preset minsky --nodes 2 -o "$tmp/pl" >/dev/null 2>"$tmp/err"; st=$?
check "platform -o: platform.xml a symlink, followed and kept ($st: $(cat "$tmp/err"))" \
    sh -c "[ $st -eq 0 ] && [ -L '$tmp/pl/platform.xml' ] && grep -q '<platform' '$tmp/pl/real.xml' &&
        [ -s '$tmp/pl/hostfile' ]"
check "no .tmp left by any of these" sh -c "! ls '$tmp'/*.tmp '$tmp'/pl/*.tmp >/dev/null 2>&1"
if mkdir "$tmp/imm" && chattr +i "$tmp/imm" 2>/dev/null; then # root ignores permission bits, not this
    "$exe" allreduce -e 1K --csv "$tmp/imm/x.csv" >/dev/null 2>"$tmp/err"; st=$?
    check "--csv in an immutable folder: refused before the run ($st: $(cat "$tmp/err"))" sh -c \
        "[ $st -eq 2 ] && ! grep -q '^#' '$tmp/err'"
    "$exe" platform --preset minsky --nodes 1 -o "$tmp/imm" >/dev/null 2>"$tmp/err"; st=$?
    check "platform -o an immutable folder: refused ($st: $(cat "$tmp/err"))" [ "$st" -eq 2 ]
    chattr -i "$tmp/imm"
else
    echo "# chattr +i not permitted: immutable folder outputs not tried"
fi
report
