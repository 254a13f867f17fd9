#!/bin/sh
# fuzz.sh DIR SECONDS CORPUS — what `make fuzz` runs: DIR/fuzz_parsers (libFuzzer over the text
# parsers, fuzz/fuzz_parsers.c) for SECONDS from DIR/corpus and CORPUS, inputs up to 512 bytes. A crash
# or a wrong accept stops it with the input in DIR/crash-*; its log is DIR/fuzz.log.
set -u
dir=$1 secs=$2 corpus=$3
mkdir -p "$dir/corpus" && cd "$dir" || exit 1
rm -f crash-*
./fuzz_parsers -max_total_time="$secs" -max_len=512 -print_final_stats=1 corpus "$corpus" >fuzz.log 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|SUMMARY|Done)' fuzz.log
if [ $rc -ne 0 ]; then tail -n 30 fuzz.log; echo "fuzz: FAILED, input in $dir/crash-*"; exit 1; fi
echo "fuzz: $secs s over parse_size/int/list, profile_parse, coll_grid/patterns_parse, platform bw/lat," \
    "platform files, study entries, CSV, key = value lines: nothing found"
