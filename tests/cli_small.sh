#!/bin/sh
# cli_small.sh — issue 48's smaller items and numbers that mislead, each checked: --version, "did you
# mean" for every subcommand, a bad JSON output path is bad input (2), the one-rank hint of allreduce
# started alone, help texts true to the code (-a's default, model's profile default), the simulated
# device line, model train's vs_best, the straggler rule at 2 ranks. Prints "N passed, N failed".
. "$(dirname "$0")/lib/bad_inputs.sh"

"$exe" --version >"$tmp/out" 2>&1; st=$?
check "--version: exit 0, 'ddlbench COMMIT' ($st: $(cat "$tmp/out"))" \
    sh -c "[ $st -eq 0 ] && grep -qE '^ddlbench ([0-9a-f]{7,40}|unknown)$' '$tmp/out'"
"$exe" --help | grep -q -- '--version' && ok=0 || ok=1
check "--help names --version" [ $ok -eq 0 ]

# every subcommand, one letter short or one letter swapped: exit 2, one line suggesting it
for c in $("$exe" --help | awk 'f && NF { print $1 } /^commands:/ { f = 1 }'); do
    for typo in "${c%?}" "${c}x"; do
        "$exe" "$typo" >/dev/null 2>"$tmp/err"; st=$?
        check "ddlbench $typo: exit 2, 'did you mean $c?' (got $st: $(cat "$tmp/err"))" \
            sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "did you mean $3?" "$2"' - $st \
                "$tmp/err" "$c"
    done
done
"$exe" zzzzzzzz >/dev/null 2>"$tmp/err"; st=$?
check "ddlbench zzzzzzzz: exit 2 with no suggestion ($(cat "$tmp/err"))" sh -c \
    "[ $st -eq 2 ] && ! grep -q 'did you mean' '$tmp/err'"

# json: a bad output path is bad input, refused before the CSV is read
mkdir -p "$tmp/jdir"
for out in "$tmp/jdir" /proc/ddl_bad.json "$tmp/nosuch/x.json"; do
    "$exe" json "$root/results/reference/scaling.csv" "$out" >/dev/null 2>"$tmp/err"; st=$?
    check "json CSV $out: exit 2 in one line (got $st: $(cat "$tmp/err"))" \
        sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ]' - $st "$tmp/err"
done
check "json into a folder: nothing written" [ -z "$(ls -A "$tmp/jdir")" ]

# allreduce started alone: one rank, a hint; under a launcher: no hint
"$exe" allreduce -e 1K -n 1 -w 0 -a ring >"$tmp/out" 2>&1
check "allreduce alone: the one-rank hint ($(grep -c note "$tmp/out"))" grep -q \
    '^# note: 1 rank, not started by a launcher' "$tmp/out"
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -e 1K -n 1 -w 0 -a ring >"$tmp/out" 2>&1
    check "allreduce under mpilaunch 2: no hint" sh -c \
        "grep -q '^# ddlbench allreduce: 2 ranks' '$tmp/out' && ! grep -q '^# note: 1 rank' '$tmp/out'"
    # the straggler rule cannot fire at 2 ranks: it says so, and the CSV has NA
    sh "$root/harness/scripts/mpilaunch.sh" 2 "$exe" allreduce -e 1K -n 2 -w 0 -a ring --per-rank --csv "$tmp/pr.csv" \
        >"$tmp/out" 2>&1
    check "allreduce --per-rank at 2 ranks: 'not judged (the rule needs at least 3 ranks)'" \
        grep -q 'stragglers: not judged (the rule needs at least 3 ranks)' "$tmp/out"
    check "allreduce --per-rank at 2 ranks: stragglers NA in every row" \
        awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } { n++;
            if ($c["stragglers"] != "NA") bad = 1 }
            END { exit bad || !n }' "$tmp/pr.csv"
    sh "$root/harness/scripts/mpilaunch.sh" 3 "$exe" allreduce -e 1K -n 2 -w 0 -a ring --per-rank >"$tmp/out" 2>&1
    check "allreduce --per-rank at 3 ranks: judged" sh -c \
        "grep -q 'stragglers:' '$tmp/out' && ! grep -q 'not judged' '$tmp/out'"
fi

# help texts true to the code
"$exe" allreduce --help >"$tmp/h" 2>&1
check "allreduce --help: -a's default is every algorithm, not ddl" \
    sh -c "grep -q -- '-a, --algo LIST .*default: every registered one' '$tmp/h' && ! grep -q 'default ddl' '$tmp/h'"
check "allreduce --help: the noisy mark's rule" grep -q 'p99 is over 2x its median' "$tmp/h"
for sub in cost train; do
    "$exe" model $sub --help >"$tmp/h" 2>&1
    check "model $sub --help: the profile's default is the platform's GPU" \
        sh -c "grep -q \"the platform's own GPU\" '$tmp/h' && ! grep -q 'else p100' '$tmp/h'"
done
"$exe" model cost --platform dgxh100 --nodes 1 --bytes 1M --algo ring >"$tmp/out" 2>&1
check "model cost on dgxh100 without --profile: profile h100, as the help says" grep -q 'profile h100' "$tmp/out"

# model train: vs_best filled, exact (no (ns) mark), the fastest "best"
"$exe" model train --platform dgxh100 --nodes 2 --model resnet50 --algo ring,rhd,ddl --csv "$tmp/mt.csv" \
    >"$tmp/out" 2>&1
check "model train: one row 'best', the others +x.x% without (ns)" \
    sh -c "[ \$(grep -c ' best ' '$tmp/out') -eq 1 ] && [ \$(grep -cE ' \\+[0-9]+\\.[0-9]%  ' '$tmp/out') -eq 2 ] &&
           ! grep -q '(ns)' '$tmp/out'"
check "model train CSV: vs_best_pct = step / fastest step - 1, significant yes or best" \
    awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
        { s[NR] = $c["step_ms_median"]; v[NR] = $c["vs_best_pct"]; g[NR] = $c["significant"];
            if (!m || s[NR] < m) m = s[NR] }
        END { for (r in s) { want = 100 * (s[r] / m - 1); d = v[r] - want; if (d < 0) d = -d
              if (d > 0.01 || (g[r] != "yes" && g[r] != "best")) exit 1 } }' "$tmp/mt.csv"

# the simulated device line: not this host's CPU
case $BUILD in /*) sim=$BUILD/sim/ddlbench-sim;; *) sim=$root/$BUILD/sim/ddlbench-sim;; esac
if [ -x "$sim" ] && command -v smpirun >/dev/null 2>&1; then
    mkdir -p "$tmp/pl" && "$exe" platform --platform minsky --nodes 1 -o "$tmp/pl" >/dev/null 2>&1
    sh "$root/harness/scripts/simlaunch.sh" 4 "$tmp/pl" "$sim" allreduce -e 1K -n 1 -w 0 -a ring --csv "$tmp/sim.csv" \
        >/dev/null 2>&1
    check "simulated allreduce CSV: device 'simulated: ...', not the host's CPU ($(grep '^# device' "$tmp/sim.csv"))" \
        grep -q '^# device: simulated: ' "$tmp/sim.csv"
else
    echo "# no simulator build: the simulated device line not tried"
fi

# 2017 only where it belongs: a run on another machine's family gets no 2017 entry in its report
mkdir -p "$tmp/h200run"
sed 's/^# platform: .*/# platform: dgxh200/; s/,minsky,/,dgxh200,/' "$root/results/reference/scaling.csv" \
    >"$tmp/h200run/scaling.csv"
DDLBENCH=$exe sh "$root/harness/scripts/report_study.sh" "$tmp/h200run" >"$tmp/rs.md" 2>&1
check "report on dgxh200: no minsky, bigbasin or horovod entry among the closest figures" \
    sh -c "! grep -qE '\| (minsky|bigbasin|horovod)' '$tmp/rs.md'"
DDLBENCH=$exe sh "$root/harness/scripts/report_study.sh" "$root/results/reference" >"$tmp/rs.md" 2>&1
check "report on minsky: its family's entries" grep -q '| minsky |' "$tmp/rs.md"
"$exe" study >"$tmp/st.out" 2>&1
check "study: no internal goal in its output" sh -c "! grep -qiE 'goal|issue [0-9]' '$tmp/st.out'"
nfig=$(ls "$root"/harness/sim/studies/*.study | wc -l)
check "study (each figure on its own GPU): every figure compared" \
    sh -c "[ \$(grep -cE '^# band .*(inside|OUTSIDE) the band' '$tmp/st.out') -eq $nfig ] &&
           ! grep -q 'not compared' '$tmp/st.out'"
"$exe" study --profile h200 >"$tmp/st.out" 2>&1
check "study --profile h200: no P100 publication compared ('not compared', no OUTSIDE)" \
    sh -c "[ \$(grep -c 'GPUs: not compared with profile h200' '$tmp/st.out') -eq $nfig ] &&
           ! grep -q 'OUTSIDE' '$tmp/st.out' &&
           grep -q '^# catalogue: no figure compared' '$tmp/st.out'"
"$exe" study --platform dgxh200 --out "$tmp/sp" >"$tmp/st.out" 2>&1; st=$?
check "study --platform dgxh200: exit 0, profile h200 (its GPU), every corner on it ($st)" \
    sh -c "[ $st -eq 0 ] && grep -q -- '--profile h200' '$tmp/st.out' &&
           ! grep -qE '^  (minsky|bigbasin|horovod)' '$tmp/st.out' &&
           grep -q '^  dgxh200 ' '$tmp/st.out'"
check "study --platform dgxh200: report.md compares nothing" sh -c \
    "! grep -q 'OUTSIDE\|inside the band' '$tmp/sp/report.md'"
"$exe" study --platform nosuch >/dev/null 2>"$tmp/err"; st=$?
check "study --platform nosuch: exit 2 in one line ($st)" sh -c "[ $st -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ]"

report
