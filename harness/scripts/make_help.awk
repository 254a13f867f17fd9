# make_help.awk — `make help`: awk -f make_help.awk harness/scripts/make_table.txt Makefile.
# Prints the table's rows (targets, then variables with their current values); $(NAME) in a help
# and each variable's value come from the environment's h_NAME (make passes them, quoted). Fails,
# naming the line, when the table and the Makefile disagree: a rule `name:` or an assignment
# `NAME ?=` of the Makefile without a row, or a row whose target has no rule or whose variable the
# Makefile never names. So the help cannot drift from the definitions.
function fill(s,   out, name) {
    while (match(s, /\$\([A-Za-z_]+\)/)) {
        name = substr(s, RSTART + 2, RLENGTH - 3)
        out = out substr(s, 1, RSTART - 1) ((("h_" name) in ENVIRON) ? ENVIRON["h_" name] : "$(" name ")")
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}
function flush(   line, w, n, i) { # the row's head and its help, wrapped at 100 columns
    if (!kind) return
    if (length(head) > 15) { out[kind] = out[kind] "  " head "\n"; head = "" } # a long head: own line
    n = split(fill(text), w, " "); line = sprintf("  %-15s", head)
    for (i = 1; i <= n; i++) {
        if (length(line) + 1 + length(w[i]) > 100 && line ~ /[^ ]$/) {
            out[kind] = out[kind] line "\n"; line = sprintf("  %-15s", "")
        }
        line = line " " w[i]
    }
    out[kind] = out[kind] line "\n"; kind = ""
}
function fail(msg, f, l) {
    printf "make_help.awk: %s:%d: %s\n", f ? f : FILENAME, l ? l : FNR, msg > "/dev/stderr"; bad = 1
}
FNR == 1 { if (!file++) table = FILENAME; else flush() }
file == 1 && /^#/ { next }
file == 1 && /^(target|var) / {
    flush(); kind = $1; name = $2; text = $0
    sub(/^[a-z]+ +[^ ]+ +/, "", text)
    if (kind == "var") { sub(/^[^ ]+ +/, "", text); is_var[name] = FNR; head = name "=" ENVIRON["h_" name] }
    else { is_target[name] = FNR; head = name }
    next
}
file == 1 && /^ +[^ ]/ && kind { text = text " " $0; next }
file == 1 && NF { fail("neither a row nor a continuation"); next }
file == 2 && /^[a-z][a-z-]*( [a-z][a-z-]*)*:([^=]|$)/ { # one rule for one or several targets
    names = $0; sub(/:.*/, "", names); n = split(names, nm, " ")
    for (i = 1; i <= n; i++) {
        ruled[nm[i]] = 1
        if (!(nm[i] in is_target)) fail("target " nm[i] " has no row in the table")
    }
}
file == 2 && /^[A-Z_]+[ \t]*\?=/ {
    name = $0; sub(/[ \t]*\?=.*/, "", name)
    if (!(name in is_var)) fail("variable " name " has no row in the table")
}
file == 2 && !/^#/ { text2 = $0; gsub(/[^A-Za-z0-9_]+/, " ", text2); n = split(text2, w, " ")
    for (i = 1; i <= n; i++) named[w[i]] = 1 }
END {
    for (name in is_target)
        if (!(name in ruled)) fail("target " name " has no rule in the Makefile", table, is_target[name])
    for (name in is_var) if (!(name in named)) fail("variable " name " is not in the Makefile", table, is_var[name])
    if (bad) exit 1
    printf "ddlbench — allreduce (and reduce-scatter, allgather) algorithms and synthetic data-parallel training"
    printf " on MPI\n"
    printf "\nTargets:\n%s\nVariables (current values):\n%s", out["target"], out["var"]
}
