#!/bin/sh
# report_study.sh RUN_DIR [EXE] — two sections of RUN_DIR/report.md (report.sh prints them into it):
#   1. the catalogue's closest published figures: the entries of harness/sim/studies (ddlbench study)
#      for the run's models on the run's platform family (the platform's name up to its first digit or
#      dash: minsky, bigbasin, horovod, dgxh...) only (the 2017 figures are not compared with another
#      machine's run: a line says there are none), each with its published figure,
#      the predicted band of results/study/bands.csv, and the run's own efficiency at that scale against
#      that baseline where the run reached both;
#   2. with RUN_DIR/realism/scaling.csv (make run REALISM=study): the largest scale's efficiency and step
#      of every model and algorithm, ideal beside the run with the non-ideal effects, and which effects.
# Markdown on stdout; nothing when there is nothing to say of section 2.
set -eu
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: report_study.sh RUN_DIR [EXE]" >&2; exit 2; }
dir=$1 root=$(cd "$(dirname "$0")/../.." && pwd)
b=${BUILD:-build}; case $b in /*) ;; *) b=$root/$b;; esac
exe=${2:-${DDLBENCH:-$b/ddlbench}} # its `catalogue`: the entries, read by column name
cat_dir=$root/harness/sim/studies bands=$root/results/study/bands.csv
csv_meta() { sed -n "s/^# $2: //p" "$1" | head -n 1; } # a provenance line of a scaling.csv
family() { basename "$1" .platform | sed 's/[ 0-9-].*//'; }
run_family=$(family "$(csv_meta "$dir/scaling.csv" platform)")

echo "## The closest published figures (ddlbench study)"
echo
echo "Entries of the catalogue (harness/sim/studies, \`make study\`: results/study/report.md) for this run's models,"
echo "on its platform family ($run_family) only (figures of other machines are not compared). Band: what the entry's"
echo "unknowns allow at its scale, by the alpha-beta-gamma step; this run: its own efficiency at that scale"
echo "against that baseline, where it reached both."
echo
echo "| model | entry | platform family | GPUs | baseline GPUs | published | predicted band |" \
    "this run (its best algorithm) |"
echo "|---|---|---|---:|---:|---:|---|---|"
"$exe" catalogue --catalogue "$cat_dir" 2>/dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) cc[$i] = i; next }
        { lab = $0; for (i = 1; i < cc["label"]; i++) sub(/^[^,]*,/, "", lab) # the last cell, maybe quoted
          if (lab ~ /^"/) { lab = substr(lab, 2, length(lab) - 2); gsub(/""/, "\"", lab) }
          split($cc["platforms"], p, "|")
          print $cc["entry"] "\t" $cc["model"] "\t" $cc["gpus"] "\t" $cc["baseline"] "\t" $cc["published_pct"] \
              "\t" p[1] "\t" lab }' |
    while IFS="$(printf '\t')" read -r e model gpus base pub plat label; do
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$e" "$model" "$gpus" "$base" "$pub" "$(family "$plat")" "$label"
    done | awk -F'\t' -v fam="$run_family" -v bands="$bands" -v csv="$dir/scaling.csv" '
    BEGIN { while ((getline l < bands) > 0) { split(l, b, ","); lo[b[2]] = b[3]; hi[b[2]] = b[4] }
            FS = ","; while ((getline l < csv) > 0) { if (l ~ /^#/) continue; n = split(l, x, ",")
                if (!h) { h = 1; for (i = 1; i <= n; i++) c[x[i]] = i; continue }
                m = x[c["model"]]; models[m] = 1; g = x[c["gpus"]] + 0; gpn = x[c["gpus_per_node"]] + 0
                k = m SUBSEP g; e1 = x[c["eff_vs_1gpu"]]; en = x[c["eff_vs_1node"]]
                # the best algorithm of the run at that scale, against one GPU and against one node
                if (e1 != "NA" && e1 + 0 > best1[k] + 0) { best1[k] = e1; a1[k] = x[c["algo"]] }
                if (en != "NA" && en + 0 > bestn[k] + 0) { bestn[k] = en; an[k] = x[c["algo"]]; node[m] = gpn } }
            FS = "\t" }
    { ent[NR] = $0 }
    END { for (i = 1; i <= NR; i++) { split(ent[i], q, "\t"); m = q[2]
              if (!(m in models) || q[6] != fam) continue
              k = m SUBSEP (q[3] + 0); run = "-"
              if (q[4] + 0 == 1 && (k in best1)) run = sprintf("%.1f%% (%s)", 100 * best1[k], a1[k])
              else if (q[4] + 0 == node[m] && (k in bestn)) run = sprintf("%.1f%% (%s)", 100 * bestn[k], an[k])
              band = (q[1] in lo) ? sprintf("%.1f-%.1f%%", lo[q[1]], hi[q[1]]) : "-"
              printf "| %s | %s (%s) | %s | %s | %s | %s%% | %s | %s |\n", m, q[7], q[1], q[6],
                  q[3], q[4], q[5], band, run; shown++ }
          if (!shown) printf "| - | no published figure of these models on the %s family " \
              "| - | - | - | - | - | - |\n", fam }'

real=$dir/realism/scaling.csv
[ -f "$real" ] || exit 0
echo
echo "## With the non-ideal effects (REALISM=study)"
echo
echo "The same sweep again with the effects the catalogue sources ($(csv_meta "$real" train_args | sed \
    's/.*--cycle-ms/--cycle-ms/')):"
echo "$(csv_meta "$real" framework)${real:+; }$(csv_meta "$real" \
    jitter). Data: [realism/scaling.csv](realism/scaling.csv)."
echo "Largest GPU count per model; E against one GPU."
echo
echo "| model | GPUs | algorithm | E ideal | E with effects | step ms ideal | step ms with effects |"
echo "|---|---:|---|---:|---:|---:|---:|"
awk -F, 'FNR == 1 { f++ } /^#/ { next } !h[f]++ { for (i = 1; i <= NF; i++) c[f, $i] = i; next }
    { m = $c[f, "model"]; g = $c[f, "gpus"] + 0; k = m SUBSEP $c[f, "algo"]
      if (g >= gm[f, m]) { gm[f, m] = g; e[f, k] = $c[f, "eff_vs_1gpu"]; s[f, k] = $c[f, "step_ms_median"] }
      if (f == 1 && !(k in seen)) { seen[k] = 1; keys[++n] = k } }
    function pct(x) { return x == "NA" || x == "" ? "NA" : sprintf("%.1f%%", 100 * x) }
    END { for (i = 1; i <= n; i++) { split(keys[i], q, SUBSEP)
              printf "| %s | %d | %s | %s | %s | %.2f | %s |\n", q[1], gm[1, q[1]], q[2], pct(e[1, keys[i]]),
                  pct(e[2, keys[i]]), s[1, keys[i]],
                  (2 SUBSEP keys[i]) in s ? sprintf("%.2f", s[2, keys[i]]) : "-" } }' \
    "$dir/scaling.csv" "$real"
