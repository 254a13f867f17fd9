#!/bin/sh
# bad_inputs_round4.sh — issue 48's hostile-input classes, each closed as a class: one loop over every
# surface it has, so a new reader, output or option is one more word in a list:
#   1. a file that is not a regular file (a FIFO, a folder) given to every reader: refused (exit 2,
#      one line), never a hang (each run under a timeout);
#   2. a CR inside a line of every kind of input file: refused, the line named, the CR never echoed;
#   3. outputs checked before the work (a folder, an immutable folder: exit 2, nothing written), pairs
#      written together or not at all (merge's scaling.csv and scaling.json), and nothing a user wrote
#      silently lost (a calibrated platform file exported onto itself keeps its factors);
#   4. an option that a mode would ignore (platform --export with a platform option): refused;
#   5. file text reaching CSV: quoted as RFC 4180 says (a study label with a comma and a quote);
#   6. numbers that would yield inf, nan or negatives: refused (a study's single-GPU figure; every
#      number merge copies from a raw CSV);
#   7. the sweep's own checks: a train option the sweep sets, in every spelling (--opt value,
#      --opt=value, an alias, after 5 KiB of blanks), a junk SEC_PER_KUNIT, a comma in a platform path;
#   8. make expands no environment variable: $(shell ...) in SLURM_JOB_ID, LSB_JOBID, PBS_JOBID and an
#      unrelated one, under make -n help and make -n run;
#   9. a sign in any number of a platform file's nvlinks; no "+-" before a negative effect.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

# one_clean ST ERR: exit 2, one line, no control byte but its newline
one_clean() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d '\n' <"$2" | grep -q '[[:cntrl:]]'; }
cr=$(printf '\r')

# fixtures: a platform file, a model file, a study catalogue, a sweep folder with a raw CSV
"$exe" platform --export dgxh200 -o "$tmp/ok.platform" >/dev/null 2>&1 || check "platform --export dgxh200" false
"$exe" model text --model resnet50 >"$tmp/ok.model" 2>/dev/null || check "model text resnet50" false
mkdir -p "$tmp/cat" "$tmp/sw/raw"
cp "$root/harness/sim/studies/04-horovod128-inception3.study" "$tmp/cat/e.study"
cp "$root/harness/sim/profiles/p100.profile" "$tmp/ok.profile"
raw=$(ls "$root"/results/reference/raw/*-1.csv | head -n 1)
cp "$raw" "$tmp/sw/raw/$(basename "$raw")"
RAW=$tmp/sw/raw/$(basename "$raw")

# every reader, its file as @F@ (a shell word list; the reader is given a fresh name for each case)
readers="platform --platform @F@.platform --nodes 1 -o $tmp/o
model --model @F@.model --batch 1
train --model @F@.model --batch 1 --steps 1 --warmup 0 --image-size 32
model cost --algo ring --platform @F@.platform --nodes 1 --bytes 1M
study --profile @F@.profile --gpus 8
study --catalogue @F@
json @F@.csv $tmp/o.json
efficiency @F@.csv $RAW
efficiency $RAW @F@.csv
fidelity merge @F@.csv
fidelity profile @F@.profile
merge @F@"
mkdir -p "$tmp/o"

# 1. a FIFO (and a folder) where a file is read: exit 2 in one line, within the timeout
n=0
echo "$readers" >"$tmp/readers"
while IFS= read -r r; do
    n=$((n + 1))
    for kind in fifo dir; do
        f=$tmp/nr$n$kind
        case $r in
        'study --catalogue'*) mkdir -p "$f"; [ $kind = fifo ] && mkfifo "$f/e.study" || mkdir "$f/e.study";;
        merge*) mkdir -p "$f/raw"; [ $kind = fifo ] && mkfifo "$f/raw/x-1.csv" || mkdir "$f/raw/x-1.csv";;
        *) ext=$(echo "$r" | sed -n 's/.*@F@\([.a-z]*\).*/\1/p'); [ $kind = fifo ] && mkfifo "$f$ext" || mkdir "$f$ext";;
        esac
        args=$(echo "$r" | sed "s|@F@|$f|g")
        timeout 20 "$exe" $args >/dev/null 2>"$tmp/err" </dev/null
        st=$?
        check "$kind: ddlbench $r: exit 2 in one clean line, no hang (got $st: $(head -n 2 "$tmp/err"))" one_clean $st "$tmp/err"
    done
done <"$tmp/readers"
check "nothing written by the refused readers" [ -z "$(ls -A "$tmp/o")" ]

# 2. a CR inside a line (the CRLF line end is allowed) of every kind of file: refused, the line named
cr_case() { # WHAT FILE LINE ARGS...: the readers' words, FILE with a CR put inside line LINE
    what=$1 file=$2 line=$3; shift 3
    "$exe" "$@" >/dev/null 2>"$tmp/err" </dev/null
    st=$?
    check "CR inside $what line $line: exit 2, one line naming it, no CR shown (got $st: $(cat -v "$tmp/err"))" \
        sh -c 'one() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d "\n" <"$2" | grep -q "[[:cntrl:]]"; }
               one "$1" "$2" && grep -qE ":$3:|line $3:" "$2"' - $st "$tmp/err" "$line"
}
crline() { awk -v i="$2" -v c="$cr" 'NR == i { sub(/= /, "= " c "x") } { print }' "$1"; }
i=$(grep -n '^name' "$tmp/ok.platform" | cut -d: -f1)
crline "$tmp/ok.platform" "$i" >"$tmp/cr.platform"
cr_case "a platform file's" "$tmp/cr.platform" "$i" platform --platform "$tmp/cr.platform" --nodes 1 -o "$tmp/o"
i=$(grep -n '^gemm' "$tmp/ok.profile" | head -n 1 | cut -d: -f1)
crline "$tmp/ok.profile" "$i" >"$tmp/cr.profile"
cr_case "a profile's" "$tmp/cr.profile" "$i" study --profile "$tmp/cr.profile" --gpus 8
mkdir -p "$tmp/crcat"
i=$(grep -n '^label' "$tmp/cat/e.study" | cut -d: -f1)
crline "$tmp/cat/e.study" "$i" >"$tmp/crcat/e.study"
cr_case "a study entry's" "$tmp/crcat/e.study" "$i" study --catalogue "$tmp/crcat"
i=$(awk '$1 == "conv" { print NR; exit }' "$tmp/ok.model")
awk -v i="$i" -v c="$cr" 'NR == i { $0 = $0 " x=" c "y" } { print }' "$tmp/ok.model" >"$tmp/cr.model"
cr_case "a model file's" "$tmp/cr.model" "$i" model --model "$tmp/cr.model"
i=$(grep -n '^model,' "$RAW" | cut -d: -f1); i=$((i + 1))
awk -v i="$i" -v c="$cr" 'NR == i { sub(/,/, "," c "x,") } { print }' "$RAW" >"$tmp/cr.csv"
cr_case "a CSV's" "$tmp/cr.csv" "$i" json "$tmp/cr.csv" "$tmp/o.json"
awk '{ printf "%s\r\n", $0 }' "$tmp/ok.platform" >"$tmp/crlf.platform"
"$exe" platform --platform "$tmp/crlf.platform" --nodes 1 --partial-leaf -o "$tmp/o" >/dev/null 2>"$tmp/err"
check "a CRLF platform file is still read ($(cat -v "$tmp/err"))" [ $? -eq 0 ]
rm -f "$tmp/o"/*

# 3. outputs: checked before the work, pairs together, nothing the user wrote lost
mkdir -p "$tmp/adir2"
"$exe" platform --export dgxh200 -o "$tmp/adir2" >/dev/null 2>"$tmp/err"; st=$?
check "platform --export -o a folder: exit 2 in one line (got $st: $(cat "$tmp/err"))" one_clean $st "$tmp/err"
check "platform --export -o a folder: nothing in it" [ -z "$(ls -A "$tmp/adir2")" ]
if mkdir "$tmp/imm4" && chattr +i "$tmp/imm4" 2>/dev/null; then # root ignores permission bits, not this
    "$exe" platform --export dgxh200 -o "$tmp/imm4/x.platform" >/dev/null 2>"$tmp/err"; st=$?
    check "platform --export into an immutable folder: exit 2 (got $st: $(cat "$tmp/err"))" one_clean $st "$tmp/err"
    mkdir -p "$tmp/sw2/raw" && cp "$RAW" "$tmp/sw2/raw/"
    chattr -i "$tmp/imm4"
    cp -r "$tmp/sw2" "$tmp/imm4/" && chattr +i "$tmp/imm4/sw2"
    "$exe" merge "$tmp/imm4/sw2" >/dev/null 2>"$tmp/err"; st=$?
    check "merge into an immutable folder: exit 2 (got $st: $(cat "$tmp/err"))" one_clean $st "$tmp/err"
    chattr -i "$tmp/imm4/sw2" "$tmp/imm4"
else
    echo "# chattr +i not permitted: immutable folder outputs not tried"
fi
for half in scaling.csv scaling.json; do
    rm -rf "$tmp/sw/scaling.csv" "$tmp/sw/scaling.json"
    mkdir "$tmp/sw/$half"
    "$exe" merge "$tmp/sw" >/dev/null 2>"$tmp/err"; st=$?
    check "merge with $half a folder: exit 2 before any work (got $st: $(cat "$tmp/err"))" one_clean $st "$tmp/err"
    check "merge with $half a folder: the other of the pair not written" \
        sh -c "[ -d '$tmp/sw/$half' ] && [ \$(ls '$tmp/sw' | wc -l) -eq 2 ]"
    rmdir "$tmp/sw/$half"
done
cp "$tmp/ok.platform" "$tmp/cal.platform"
printf 'lat_factor = 0:1.5;65536:1.2\nbw_factor = 0:0.9\ncall_overhead = 2us\n' >>"$tmp/cal.platform"
"$exe" platform --export "$tmp/cal.platform" -o "$tmp/cal.platform" >/dev/null 2>"$tmp/err"; st=$?
check "a calibrated platform file exported onto itself: exit 0 ($st: $(cat "$tmp/err"))" [ $st -eq 0 ]
for k in lat_factor bw_factor call_overhead; do
    check "exported onto itself: $k kept" grep -q "^$k = " "$tmp/cal.platform"
done
"$exe" platform --export "$tmp/cal.platform" >"$tmp/cal.out" 2>/dev/null
check "a calibrated platform file exported to standard output: its factors shown" grep -q '^lat_factor = ' "$tmp/cal.out"

# 4. platform --export with any platform option: refused, naming it (each row of platform --help)
"$exe" platform --help | awk '/^  --/ { sub(/,$/, "", $1); v = $2 ~ /^[A-Z]+$/ ? "1" : ""
    if ($2 ~ /^--/) v = $3 ~ /^[A-Z]+$/ ? "1" : ""; print $1, v }' >"$tmp/popts"
while read -r o v; do
    case $o in --export|--help) continue;; esac
    "$exe" platform --export dgxh200 "$o" $v -o "$tmp/ex.platform" >/dev/null 2>"$tmp/err"; st=$?
    check "platform --export with $o: refused naming it (got $st: $(cat "$tmp/err"))" \
        sh -c 'one() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ]; }; one "$1" "$2" && grep -qF -- "$3" "$2"' - $st "$tmp/err" "$o"
    check "platform --export with $o: no file" [ ! -e "$tmp/ex.platform" ]
done <"$tmp/popts"

# 5. file text in CSV cells: a study label with a comma and a double quote stays one cell
mkdir -p "$tmp/qcat"
sed 's/^label = .*/label = Hv, "quoted" 90%/' "$tmp/cat/e.study" >"$tmp/qcat/e.study"
"$exe" study --catalogue "$tmp/qcat" --out "$tmp/qout" >/dev/null 2>"$tmp/err"; st=$?
check "study, a label with a comma and a quote: exit 0 ($st: $(cat "$tmp/err"))" [ $st -eq 0 ]
check "study.csv: the label quoted, its quote doubled (RFC 4180)" grep -q '^"Hv, ""quoted"" 90%",' "$tmp/qout/study.csv"
check "study.csv: every row as wide as the header (ddlbench json reads it)" \
    "$exe" json "$tmp/qout/study.csv" "$tmp/q.json"

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
        awk -v j=$j -v v=$v -v r="${all:-2}" 'BEGIN { FS = OFS = "," } /^#/ { print; next } { n++ } n == r { $j = v } { print }' \
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
check "sweep-check --algos ring,rhd --add-train-args '--shard full': accepted (got $st: $(cat "$tmp/err"))" [ $st -eq 0 ]
for v in junk 0 -1 1e3 ' 5'; do
    SEC_PER_KUNIT=$v "$exe" sweep-check --plan --nodes 4096 >/dev/null 2>"$tmp/err"; st=$?
    check "SEC_PER_KUNIT='$v': refused naming it (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && grep -q SEC_PER_KUNIT "$2"' - $st "$tmp/err"
done
mkdir -p "$tmp/a,b" "$tmp/q\"b"
for d in "$tmp/a,b" "$tmp/q\"b"; do
    cp "$tmp/ok.platform" "$d/x.platform"
    "$exe" sweep-check --platform "$d/x.platform" --nodes 32 >/dev/null 2>"$tmp/err"; st=$?
    check "sweep-check --platform with ',' or '\"' in its path: refused before any launch (got $st: $(cat "$tmp/err"))" \
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
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "nvs.platform:[0-9]*: nvlinks" "$2"' - $st "$tmp/err"
done
"$exe" model train --platform dgxh100 --nodes 2 --model resnet50 --algo ring,rhd --overlap-from 0.5 --contention 0 \
    --comm-contention 1 >"$tmp/eff.out" 2>&1
check "model train: its effects printed (the test reached them)" grep -q '^# partial overlap' "$tmp/eff.out"
check "model train: no \"+-\" before a negative effect" sh -c "! grep -q '+-' '$tmp/eff.out'"
check "no C source prints a literal '+' before a number (%+ prints the sign once): $(grep -rn '[^%]+%\.[0-9]' \
    "$root/harness" "$root/collectives" --include='*.c' | head -n 2)" \
    sh -c "! grep -rq '[^%]+%\.[0-9]' '$root/harness' '$root/collectives' --include='*.c'"

report
