#!/bin/sh
# style.sh — the column limit of .clang-format (ColumnLimit: 120) holds: no line of a tracked .c or .h
# file is wider than 120 columns (UTF-8 characters, not bytes). One check per file, then a check that
# the counter itself catches a 121-column line and passes a 120-column one with multibyte characters.
# Prints "N passed, N failed".
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
pass=0 fail=0
# wide FILE...: "FILE:LINE: N columns" for every line over 120 columns (UTF-8 continuation bytes not counted)
wide() {
    LC_ALL=C awk '{ s = $0; gsub(/[\200-\277]/, "", s);
        if (length(s) > 120) printf "%s:%d: %d columns\n", FILENAME, FNR, length(s) }' "$@"
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the counter: 121 ASCII columns are too wide; 120 columns of which some are 2-byte characters are not
printf '%0121d\n' 0 >"$tmp/wide.c"
{ printf 'αβγ'; printf '%0117d\n' 0; } >"$tmp/narrow.c"
if [ "$(wide "$tmp/wide.c" | wc -l)" -eq 1 ] && [ -z "$(wide "$tmp/narrow.c")" ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL the column counter: 121 columns must count, 120 with UTF-8 must not"; fi
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIP: not a git checkout (the check reads git ls-files)"
else
    for f in $(git ls-files '*.c' '*.h'); do
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
