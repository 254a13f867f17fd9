# catalogue.awk — awk rules shared by report.sh and summary.sh (prepended to their programs as text, so
# any awk runs it): the file named by -v catf is `ddlbench catalogue` CSV; its published labels and times
# to train are gathered by model and GPU count into pub[model, gpus] and hrs[model, gpus]. hm(h): hours
# as "N min", "N.N h" or "N.N d" ("NA" for none).
function hm(h) {
    if (h == "NA" || h == "") return "NA"
    return h < 1 ? sprintf("%.0f min", 60 * h) : h < 48 ? sprintf("%.1f h", h) : sprintf("%.1f d", h / 24)
}
FILENAME == catf && FNR == 1 { for (i = 1; i <= NF; i++) cc[$i] = i; next }
FILENAME == catf { lab = $0; for (i = 1; i < cc["label"]; i++) sub(/^[^,]*,/, "", lab) # the last cell, maybe quoted
    if (lab ~ /^"/) { lab = substr(lab, 2, length(lab) - 2); gsub(/""/, "\"", lab) }
    k = $cc["model"] SUBSEP $cc["gpus"]; if (k in pub) pub[k] = pub[k] ", " lab; else pub[k] = lab
    h = $cc["hours"] == "NA" ? "" : hm($cc["hours"])
    if (h != "" && (k in hrs)) hrs[k] = hrs[k] ", " h; else if (h != "") hrs[k] = h; next }
