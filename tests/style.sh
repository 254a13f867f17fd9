#!/bin/sh
# style.sh — the column limit of .clang-format (ColumnLimit: 120) holds beyond C too: no line of a tracked
# .c, .h, .cpp, .cu, .sh, .py or .awk file, nor of the Makefile or a batch/ script, is wider than 120
# columns (UTF-8 characters, not bytes). One check per file, then checks that the counter itself catches a
# 121-column line and passes a 120-column one with multibyte characters, in C and in shell, and that the
# files checked include the non-C kinds. Prints "N passed, N failed".
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
pass=0 fail=0
# wide FILE...: "FILE:LINE: N columns" for every line over 120 columns (UTF-8 continuation bytes not counted)
wide() {
    LC_ALL=C awk '{ s = $0; gsub(/[\200-\277]/, "", s)
        if (length(s) > 120) printf "%s:%d: %d columns\n", FILENAME, FNR, length(s) }' "$@"
}
# the files the limit applies to
checked() { git ls-files '*.c' '*.h' '*.cpp' '*.cu' '*.sh' '*.py' '*.awk' Makefile 'batch/*'; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the counter: 121 ASCII columns are too wide; 120 columns of which some are 2-byte characters are not
printf '%0121d\n' 0 >"$tmp/wide.c"
{ printf 'αβγ'; printf '%0117d\n' 0; } >"$tmp/narrow.c"
if [ "$(wide "$tmp/wide.c" | wc -l)" -eq 1 ] && [ -z "$(wide "$tmp/narrow.c")" ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL the column counter: 121 columns must count, 120 with UTF-8 must not"; fi
# the same in a shell script: a comment of 121 characters with multibyte ones is too wide, of 120 is not
{ printf '# α-β-γ '; printf '%0113d\n' 0; } >"$tmp/wide.sh"
{ printf '# α-β-γ '; printf '%0112d\n' 0; } >"$tmp/narrow.sh"
if [ "$(wide "$tmp/wide.sh" | wc -l)" -eq 1 ] && [ -z "$(wide "$tmp/narrow.sh")" ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL the column counter on a .sh file: 121 columns must count, 120 must not"; fi
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIP: not a git checkout (the check reads git ls-files)"
else
    list=$(checked)
    for f in Makefile batch/slurm.sbatch tests/style.sh harness/scripts/make_help.awk collectives/switch_sim.cpp \
        kernels/reduce_cuda.cu tests/pmpi/check.py; do
        if echo "$list" | grep -qx "$f"; then pass=$((pass + 1))
        else fail=$((fail + 1)); echo "FAIL $f is not among the files checked"; fi
    done
    for f in $list; do
        [ -f "$f" ] || continue
        out=$(wide "$f")
        if [ -z "$out" ]; then pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL $f: lines over 120 columns:"; echo "$out" | head -n 5
        fi
    done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
