#!/bin/sh
# bad_inputs_classes.sh — issue 27's hostile-input classes, each one test looping over everything it
# covers, so a new subcommand, option or file key is covered without a new line:
#   1. every subcommand, given an argument with a newline, a terminal control byte or a byte that is
#      not UTF-8: exit 2, one line on stderr, no control byte echoed, nothing written;
#   2. every subcommand with both --csv and --json, given one file for both: exit 2, one line naming
#      the clash, no file;
#   3. every key of a platform file and of a profile, and every kind of line of a model file, its
#      line holding a control byte: exit 2, one line naming the file and the line, not echoing it;
#   4. a failure after an output folder was made removes it (study --out: the folder it made);
#   5. every subcommand under a 2-rank MPI launch, given an unknown option: its error printed once.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

esc=$(printf '\033')
# one_line_no_ctrl STATUS ERRFILE: exit 2, one line, no control byte but its newline
one_line_no_ctrl() {
    [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d '\n' <"$2" | grep -q '[[:cntrl:]]'
}
cmds=$("$exe" --help | awk 'f && NF { print $1 } /^commands:/ { f = 1 }')
check "ddlbench --help lists the subcommands" [ "$(echo "$cmds" | wc -w)" -ge 10 ]

# 1. control characters and malformed UTF-8 in any argument of any subcommand
mkdir -p "$tmp/cwd"
for c in $cmds; do
    for val in "a
b" "a${esc}[2Jb" "$(printf 'a\377b')" "$(printf 'a\302\233b')"; do
        (cd "$tmp/cwd" && "$exe" "$c" --label "$val" --csv out.csv) >/dev/null 2>"$tmp/err" </dev/null
        st=$?
        check "$c --label <control>: exit 2, one clean line (got $st: $(cat -v "$tmp/err"))" one_line_no_ctrl \
            $st "$tmp/err"
        check "$c --label <control>: wrote nothing" [ -z "$(ls -A "$tmp/cwd")" ]
    done
done

# 2. two outputs, one path: the second option is refused before any work
for c in $cmds; do
    h=$("$exe" "$c" --help 2>&1)
    # subcommands whose usage lists both as options (a line opening with them), not merely names them
    echo "$h" | grep -qE -- '^ +(-[a-z], )?--csv' || continue
    echo "$h" | grep -qE -- '^ +(-[a-z], )?--json' || continue
    "$exe" "$c" --csv "$tmp/same" --json "$tmp/same" >/dev/null 2>"$tmp/err" </dev/null
    st=$?
    check "$c --csv F --json F: exit 2, one line naming the clash (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "same file as --csv" "$2"' - $st "$tmp/err"
    check "$c --csv F --json F: no file" [ ! -e "$tmp/same" ]
done

# 3. a control byte on any key's line of a platform file (every key dgxh200 and dgx1 export) or of
#    every shipped profile
for preset in dgxh200 dgx1; do
    "$exe" platform --export $preset -o "$tmp/$preset.platform" >/dev/null 2>&1 ||
        check "platform --export $preset" false
    n=$(wc -l <"$tmp/$preset.platform")
    i=1
    while [ $i -le "$n" ]; do
        line=$(sed -n "${i}p" "$tmp/$preset.platform")
        case $line in ''|'#'*) i=$((i + 1)); continue;; esac
        awk -v i=$i -v e="$esc" 'NR == i { sub(/=/, "= " e "[31m") } { print }' "$tmp/$preset.platform" \
            >"$tmp/c.platform"
        "$exe" platform --platform "$tmp/c.platform" --nodes 1 -o "$tmp/cwd" >/dev/null 2>"$tmp/err" </dev/null
        st=$?
        check "$preset line $i (${line%% *}) with a control byte: exit 2, one clean line naming it (got $st: $(cat -v \
            "$tmp/err"))" \
            sh -c 'one() { [ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d "\n" <"$2" | grep -q "[[:cntrl:]]"; }
                   one "$1" "$2" && grep -q "c.platform:$3:" "$2"' - $st "$tmp/err" $i
        i=$((i + 1))
    done
done
check "platform: nothing written by the refused files" [ -z "$(ls -A "$tmp/cwd")" ]
for prof in "$root"/harness/sim/profiles/*.profile; do
    n=$(wc -l <"$prof")
    i=1
    while [ $i -le "$n" ]; do
        case $(sed -n "${i}p" "$prof") in ''|'#'*) i=$((i + 1)); continue;; esac
        awk -v i=$i -v e="$esc" 'NR == i { sub(/=/, "= " e "[31m") } { print }' "$prof" >"$tmp/c.profile"
        "$exe" study --profile "$tmp/c.profile" --gpus 8 >/dev/null 2>"$tmp/err" </dev/null
        st=$?
        check "$(basename "$prof") line $i with a control byte: exit 2, one clean line naming it (got $st: $(cat -v \
            "$tmp/err"))" \
            sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d "\n" <"$2" | grep -q "[[:cntrl:]]" &&
                   grep -q "c.profile:$3:" "$2"' - $st "$tmp/err" $i
        i=$((i + 1))
    done
done

# a model file (ddlbench model text: every kind of line in Inception V3's), a control byte on a
# line of each kind it has
"$exe" model text --model inception3 >"$tmp/i3.model" 2>/dev/null || check "model text inception3" false
for kind in conv bn relu pool concat fc add dropout; do
    i=$(awk -v k="$kind" '$1 == k { print NR; exit }' "$tmp/i3.model")
    [ -n "$i" ] || continue
    awk -v i="$i" -v e="$esc" 'NR == i { $0 = $0 " x=" e "[31m" } { print }' "$tmp/i3.model" >"$tmp/c.model"
    "$exe" model --model "$tmp/c.model" --image-size 299 >/dev/null 2>"$tmp/err" </dev/null
    st=$?
    check "model file, a $kind line (line $i) with a control byte: exit 2, one clean line naming it (got $st: $(cat -v \
        "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && ! tr -d "\n" <"$2" | grep -q "[[:cntrl:]]" &&
               grep -q "c.model:$3:" "$2"' - $st "$tmp/err" $i
done

# 4. what a failure created is removed
"$exe" study --out "$tmp/newstudy" --gpus 8 --platform-dir "$tmp/nosuch" >/dev/null 2>"$tmp/err"; st=$?
check "study failing after --out was made: exit 2 (got $st)" [ $st -eq 2 ]
check "study failing after --out was made: the folder it made is gone" [ ! -e "$tmp/newstudy" ]
mkdir "$tmp/mine"
"$exe" study --out "$tmp/mine" --gpus 8 --platform-dir "$tmp/nosuch" >/dev/null 2>&1
check "study failing into the user's own folder: the folder stays" [ -d "$tmp/mine" ]

# 5. an error in the options, under a 2-rank launch, printed once (by rank 0), for every subcommand
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    for c in $cmds; do
        sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" "$c" --no-such-option >/dev/null 2>"$tmp/err" </dev/null
        n=$(grep -c 'no-such-option' "$tmp/err")
        check "mpi 2 ranks: $c --no-such-option: the error once (got $n: $(grep 'no-such' "$tmp/err" | head -n 2))" [ \
            "$n" -eq 1 ]
    done
fi

report
