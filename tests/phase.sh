#!/bin/sh
# phase.sh — harness/scripts/phase.sh, the per-part timing `make run` prints: one "# phase NAME: W s
# wall, C s CPU" line on stderr after a command that succeeded, its CPU counting the processes it
# started (a busy child shell); the command's stdout and exit status passed through; nothing added to
# a failing command's output (a refusal stays one line); a usage error is exit 2.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
ph="sh $(cd "$(dirname "$0")/.." && pwd)/harness/scripts/phase.sh"
# a child shell that runs awk until its children have used 0.2 s of CPU (its own `times`, written to
# $tmp/t), however loaded the machine: phase.sh's CPU must count at least that
burn='while :; do awk "BEGIN { for (i = 0; i < 200000; i++) s += i }"; times >"$0"
      awk "NR == 2 { split(\$1, a, \"m\"); exit !(a[1] * 60 + a[2] >= 0.2) }" "$0" && break; done; echo out'
$ph busy sh -c "$burn" "$tmp/t" >"$tmp/o" 2>"$tmp/e"; st=$?
[ $st -eq 0 ] && [ "$(cat "$tmp/o")" = out ] && ok || bad "busy: exit $st, stdout \"$(cat "$tmp/o")\" (want 0, out)"
[ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -Eq '^# phase busy: [0-9]+\.[0-9] s wall, [0-9]+\.[0-9] s CPU$' "$tmp/e" && ok ||
    bad "busy: one '# phase busy: W s wall, C s CPU' line, got \"$(cat "$tmp/e")\""
cpu=$(sed -n 's/.*wall, \([0-9.]*\) s CPU$/\1/p' "$tmp/e")
awk -v c="${cpu:-0}" 'BEGIN { exit !(c >= 0.15) }' && ok ||
    bad "busy: the children's 0.2 s of CPU counted, got \"$cpu\""
$ph fails sh -c 'echo "one line" >&2; exit 3' >"$tmp/o" 2>"$tmp/e"; st=$?
[ $st -eq 3 ] && [ "$(cat "$tmp/e")" = "one line" ] && ok || bad "fails: exit $st (want 3), stderr \"$(cat "$tmp/e")\""
$ph >/dev/null 2>"$tmp/e"; st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && ok || bad "no command: exit $st (want 2, one line)"
report
