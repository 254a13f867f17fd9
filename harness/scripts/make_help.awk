# make_help.awk — `make help`: prints the Makefile's `##` blocks, each above the target or variable
# it documents; the name comes from the line below the block (a rule `name:` or an assignment
# `NAME ?=`), so the help cannot name a target that is not there. $(NAME) in the text and each
# variable's value come from the environment's h_NAME (make passes them, quoted). A block above
# anything else is an error, so a moved or renamed definition cannot leave a stale line.
function fill(s,   out, name) {
    while (match(s, /\$\([A-Za-z_]+\)/)) {
        name = substr(s, RSTART + 2, RLENGTH - 3)
        out = out substr(s, 1, RSTART - 1) ((("h_" name) in ENVIRON) ? ENVIRON["h_" name] : "$(" name ")")
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}
function emit(head, to,   i) {
    if (length(head) > 15) { for (i = n; i > 0; i--) doc[i] = doc[i - 1]; doc[0] = ""; n++ } # own line
    for (i = 0; i < n; i++) {
        line = sprintf("  %-15s %s", i ? "" : head, fill(doc[i])); sub(/ +$/, "", line)
        if (to == "t") targets = targets line "\n"; else vars = vars line "\n"
    }
    n = 0
}
/^##( |$)/ { sub(/^## ?/, ""); doc[n++] = $0; next }
n && /^[a-z][a-z-]*:/ { name = $0; sub(/:.*/, "", name); emit(name, "t"); next }
n && /^[A-Z_]+[ \t]*[?:+]?=/ {
    name = $0; sub(/[ \t]*[?:+]?=.*/, "", name)
    emit(name "=" ENVIRON["h_" name], "v"); next
}
n { printf "make_help.awk: %s:%d: a ## block above neither a target nor a variable\n", FILENAME, FNR > "/dev/stderr"
    bad = 1; exit 1 }
END {
    if (bad) exit 1
    printf "\nTargets:\n%s\nVariables (current values):\n%s", targets, vars
}
