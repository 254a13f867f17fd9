#!/bin/sh
# bad_inputs_round4.sh — issue 48's hostile-input classes 1 to 5 (6 to 9: bad_inputs_round4b.sh), each
# closed as a class: one loop over every surface it has, so a new reader, output or option is one more word:
#   1. a file that is not a regular file (a FIFO, a folder) given to every reader: refused (exit 2,
#      one line), never a hang (each run under a timeout);
#   2. a CR inside a line of every kind of input file: refused, the line named, the CR never echoed;
#   3. outputs checked before the work (a folder, an immutable folder: exit 2, nothing written), pairs
#      written together or not at all (merge's scaling.csv and scaling.json), and nothing a user wrote
#      silently lost (a calibrated platform file exported onto itself keeps its factors);
#   4. an option that a mode would ignore (platform --export with a platform option): refused;
#   5. file text reaching CSV: quoted as RFC 4180 says (a study label with a comma and a quote);
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

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
        *) ext=$(echo "$r" | sed -n 's/.*@F@\([.a-z]*\).*/\1/p'); [ $kind = fifo ] && mkfifo "$f$ext" ||
            mkdir "$f$ext";;
        esac
        args=$(echo "$r" | sed "s|@F@|$f|g")
        timeout 20 "$exe" $args >/dev/null 2>"$tmp/err" </dev/null
        st=$?
        check "$kind: ddlbench $r: exit 2 in one clean line, no hang (got $st: $(head -n 2 "$tmp/err"))" one_clean \
            $st "$tmp/err"
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
check "a calibrated platform file exported to standard output: its factors shown" grep -q '^lat_factor = ' \
    "$tmp/cal.out"

# 4. platform --export with any platform option: refused, naming it (each row of platform --help)
"$exe" platform --help | awk '/^  --/ { sub(/,$/, "", $1); v = $2 ~ /^[A-Z]+$/ ? "1" : ""
    if ($2 ~ /^--/) v = $3 ~ /^[A-Z]+$/ ? "1" : ""; print $1, v }' >"$tmp/popts"
while read -r o v; do
    case $o in --export|--help) continue;; esac
    "$exe" platform --export dgxh200 "$o" $v -o "$tmp/ex.platform" >/dev/null 2>"$tmp/err"; st=$?
    check "platform --export with $o: refused naming it (got $st: $(cat "$tmp/err"))" \
        sh -c 'one() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ]; }; one "$1" "$2" && grep -qF -- "$3" "$2"' - $st \
            "$tmp/err" "$o"
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

report
