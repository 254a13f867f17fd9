#!/bin/sh
# bad_inputs_round4b.sh — issue 48's hostile-input classes 6 to 9 (1 to 5: bad_inputs_round4.sh), each
# closed as a class: one loop over every surface it has:
#   6. numbers that would yield inf, nan or negatives: refused (a study's single-GPU figure; every
#      number merge copies from a raw CSV);
#   7. the sweep's own checks: a train option the sweep sets, in every spelling (--opt value,
#      --opt=value, an alias, after 5 KiB of blanks), a junk SEC_PER_KUNIT, a comma in a platform path;
#   8. make expands no environment variable: $(shell ...) in SLURM_JOB_ID, LSB_JOBID, PBS_JOBID and an
#      unrelated one, under make -n help and make -n run;
#   9. a sign in any number of a platform file's nvlinks; no "+-" before a negative effect.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

# fixtures: a platform file, a study catalogue, a sweep folder with a raw CSV
"$exe" platform --export dgxh200 -o "$tmp/ok.platform" >/dev/null 2>&1 || check "platform --export dgxh200" false
mkdir -p "$tmp/cat" "$tmp/qcat" "$tmp/sw/raw" "$tmp/o"
cp "$root/harness/sim/studies/04-horovod128-inception3.study" "$tmp/cat/e.study"
raw=$(ls "$root"/results/reference/raw/*-1.csv | head -n 1)
cp "$raw" "$tmp/sw/raw/$(basename "$raw")"
RAW=$tmp/sw/raw/$(basename "$raw")

# 6. numbers that would give inf, nan or negatives
for v in 1e6 1e-9 1e-300; do
    sed "s/^single_gpu_img_s = .*/single_gpu_img_s = $v/" "$tmp/cat/e.study" >"$tmp/qcat/e.study"
    rm -rf "$tmp/nout"
    timeout 60 "$exe" study --catalogue "$tmp/qcat" --out "$tmp/nout" >"$tmp/out" 2>"$tmp/err"; st=$?
    check "study, single_gpu_img_s = $v: exit 2 in one line naming it (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q single_gpu_img_s "$2"' - $st "$tmp/err"
    check "study, single_gpu_img_s = $v: nothing printed or written" sh -c "[ ! -s '$tmp/out' ] && [ ! -e '$tmp/nout' ]"
done
"$exe" study --out "$tmp/sout" >/dev/null 2>&1
check "study.csv: no inf, nan or negative time to train" \
    awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        { t = $c["time_to_train_h"]; if (t ~ /inf|nan/ || (t != "NA" && t + 0 < 0)) exit 1 }' "$tmp/sout/study.csv"
hdr=$(grep -v '^#' "$RAW" | head -n 1)
all=$(grep -v '^#' "$RAW" | awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) if ($i == "all") { print NR; exit } }')
ncol=$(echo "$hdr" | awk -F, '{ print NF }')
j=1
while [ $j -le "$ncol" ]; do
    name=$(echo "$hdr" | cut -d, -f$j)
    case $name in model|algo|dataset|rank) j=$((j + 1)); continue;; esac
    for v in 1e400 nan -5; do
        case $name:$v in other_ms:-5|other_pct:-5|lag_ms:-5) continue;; esac
        rm -rf "$tmp/sw/scaling.csv" "$tmp/sw/scaling.json"
        awk -v j=$j -v v=$v -v r="${all:-2}" \
            'BEGIN { FS = OFS = "," } /^#/ { print; next } { n++ } n == r { $j = v } { print }' \
            "$raw" >"$RAW"
        "$exe" merge "$tmp/sw" >/dev/null 2>"$tmp/err"; st=$?
        check "merge, raw $name = $v: exit 2 in one line naming it (got $st: $(cat "$tmp/err"))" \
            sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "$3" "$2"' - $st "$tmp/err" "$name"
        check "merge, raw $name = $v: nothing written" sh -c "! ls '$tmp/sw'/scaling.* >/dev/null 2>&1"
    done
    j=$((j + 1))
done
cp "$raw" "$RAW"

# 7. the sweep's checks, every spelling of an option the sweep sets itself
blanks=$(head -c 5000 /dev/zero | tr '\0' ' ')
for o in --csv --json --model --batch -a --algo --bucket-mb; do
    for form in "$o x" "$o=x" "--steps 1 $o=x" "$blanks$o x"; do
        "$exe" sweep-check --train-args "$form" >/dev/null 2>"$tmp/err"; st=$?
        check "sweep-check --train-args '$(echo "$form" | cut -c1-30)...': refused naming $o (got $st)" \
            sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -qF -- "$3" "$2"' - $st "$tmp/err" "$o"
    done
done
for o in --platform --preset --profile --gpus-per-node; do
    "$exe" sweep-check --backend sim --train-args "$o=x" >/dev/null 2>"$tmp/err"; st=$?
    check "sweep-check under sim, --train-args $o=x: refused (got $st: $(cat "$tmp/err"))" one_clean $st "$tmp/err"
done
for form in "--shard full" "--steps 1 --shard=gradients" "--shard optimizer"; do # sharding needs RS and AG
    "$exe" sweep-check --algos ring,nccl-tree --train-args "$form" >/dev/null 2>"$tmp/err"; st=$?
    check "sweep-check --algos ring,nccl-tree --train-args '$form': refused naming --algos and nccl-tree (got $st)" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q -- "--algos.*nccl-tree" "$2"' - $st "$tmp/err"
done
"$exe" sweep-check --algos ring,rhd --add-train-args "--shard full" >/dev/null 2>"$tmp/err"; st=$?
check "sweep-check --algos ring,rhd --add-train-args '--shard full': accepted (got $st: $(cat "$tmp/err"))" [ \
    $st -eq 0 ]
for v in junk 0 -1 1e3 ' 5'; do
    SEC_PER_KUNIT=$v "$exe" sweep-check --plan --nodes 4096 >/dev/null 2>"$tmp/err"; st=$?
    check "SEC_PER_KUNIT='$v': refused naming it (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && grep -q SEC_PER_KUNIT "$2"' - $st "$tmp/err"
done
mkdir -p "$tmp/a,b" "$tmp/q\"b"
for d in "$tmp/a,b" "$tmp/q\"b"; do
    cp "$tmp/ok.platform" "$d/x.platform"
    "$exe" sweep-check --platform "$d/x.platform" --nodes 32 >/dev/null 2>"$tmp/err"; st=$?
    check "sweep-check --platform with ',' or '\"' in its path: refused before any launch (got $st: $(cat \
        "$tmp/err"))" \
        one_clean $st "$tmp/err"
done

# 8. make: no environment variable expanded
for v in SLURM_JOB_ID LSB_JOBID PBS_JOBID HOSTILE_ANY; do
    for goal in help run; do
        rm -f "$tmp/pwned"
        env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$v=\$(shell touch $tmp/pwned)" make -n -s -C "$root" BUILD="$BUILD" \
            $goal >/dev/null 2>&1
        check "make -n $goal with $v='\$(shell touch ...)': nothing run" [ ! -e "$tmp/pwned" ]
    done
done

# 9. a sign in nvlinks (every other number of the file refuses one); the sign of an effect printed once
"$exe" platform --export dgx1 -o "$tmp/nv.platform" >/dev/null 2>&1
for v in "+0-1" "0-+1" "0-1:+2" "0-1:-2" "-0-1" "0-1,+2-3"; do
    sed "s/^nvlinks = .*/nvlinks = $v/" "$tmp/nv.platform" >"$tmp/nvs.platform"
    "$exe" platform --platform "$tmp/nvs.platform" --nodes 1 -o "$tmp/o" >/dev/null 2>"$tmp/err"; st=$?
    check "nvlinks = $v: refused naming the line (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "nvs.platform:[0-9]*: nvlinks" "$2"' - \
            $st "$tmp/err"
done
"$exe" model train --platform dgxh100 --nodes 2 --model resnet50 --algo ring,rhd --overlap-from 0.5 --contention 0 \
    --comm-contention 1 >"$tmp/eff.out" 2>&1
check "model train: its effects printed (the test reached them)" grep -q '^# partial overlap' "$tmp/eff.out"
check "model train: no \"+-\" before a negative effect" sh -c "! grep -q '+-' '$tmp/eff.out'"
check "no C source prints a literal '+' before a number (%+ prints the sign once): $(grep -rn '[^%]+%\.[0-9]' \
    "$root/harness" "$root/collectives" --include='*.c' | head -n 2)" \
    sh -c "! grep -rq '[^%]+%\.[0-9]' '$root/harness' '$root/collectives' --include='*.c'"

report
