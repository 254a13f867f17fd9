#!/bin/sh
# plots_check.sh — charts where every line can be told apart (issue 48): each algorithm its own marker
# (and in busbw its own dash), markers sized by series so identical lines nest instead of hiding each
# other; keys outside the panels (they cover no line, bar or label); human ticks on log2 axes (1k,
# 2k, 256k, not 1024 or 262144). plots.sh is run once with a recording gnuplot (the styles it passes)
# and, where gnuplot is installed, once for real. Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

mkdir -p "$tmp/run" "$tmp/bin"
cp "$root/results/reference/scaling.csv" "$tmp/run/"
cat >"$tmp/bin/gnuplot" <<'EOF'
#!/bin/sh
# records the -e text of each chart; writes the output it was asked for
printf '%s\n' "$2" >>"$REC"
out=$(printf '%s\n' "$2" | sed -n "s/.*out='\([^']*\)'.*/\1/p"); : >"$out"
EOF
chmod +x "$tmp/bin/gnuplot"
REC=$tmp/rec PATH="$tmp/bin:$PATH" sh "$root/plots/plots.sh" "$tmp/run" >/dev/null 2>&1
styles() { grep "out='[^']*/$1\.svg" "$tmp/rec" | sed -n "s/.*styles='\([^']*\)'.*/\1/p" | head -n 1; }
eff=$(styles efficiency)
check "efficiency: styles passed ($eff)" [ -n "$eff" ]
check "efficiency: each algorithm its own marker ($eff)" \
    sh -c 'echo "$1" | tr " " "\n" | awk -F: "{ if (\$1 in pt && pt[\$1] != \$3) bad = 1; pt[\$1] = \$3
        if (\$3 in seen && seen[\$3] != \$1) bad = 1; seen[\$3] = \$1 }
        END { exit bad || NR < 2 }"' - "$eff"
bw=$(styles busbw)
check "busbw: each line its own dash and marker ($bw)" \
    sh -c 'echo "$1" | tr " " "\n" | awk -F: "{ d[\$2]++; p[\$3]++; n++ }
        END { for (k in d) if (d[k] > 1 && n <= 5) exit 1
        for (k in p) if (p[k] > 1 && n <= 6) exit 1; exit n < 2 }"' - "$bw"
check "no chart puts its key inside a panel" sh -c "! grep -n 'key inside' '$root'/plots/*.gp"
check "markers sized by series (psz) in every line chart" \
    sh -c "for f in efficiency throughput busbw; do grep -q 'ps psz(i)' '$root/plots/'\$f.gp || exit 1; done"

if command -v gnuplot >/dev/null 2>&1; then
    sh "$root/plots/plots.sh" "$tmp/run" >/dev/null 2>&1
    check "throughput.svg drawn" [ -s "$tmp/run/throughput.svg" ]
    check "throughput.svg: human ticks (1k), no 4-digit power of two (1024, 262144)" \
        sh -c "grep -q '<text>1k</text>' '$tmp/run/throughput.svg' &&
               ! grep -qE '<text>[0-9]{4,}</text>' '$tmp/run/throughput.svg'"
else
    echo "# gnuplot not installed: the drawn ticks not checked"
fi

report
