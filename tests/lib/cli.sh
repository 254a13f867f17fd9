# tests/lib/cli.sh — sourced by the CLI shell tests (not a test itself: tests/run.sh runs tests/*.sh
# only). Sets BUILD, exe, tmp (removed on exit), the passed/failed counters and:
#   ok / bad MESSAGE            count a check
#   expect_status WANT ARGS...  run $exe ARGS without a launcher; the exit status must be WANT and,
#                               for WANT = 2 (bad input), stderr exactly one line
#   report                      print "N passed, N failed" and return non-zero if any failed
BUILD=${BUILD:-build}
exe=$BUILD/ddlbench
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

expect_status() {
    want=$1; shift
    "$exe" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne "$want" ]; then bad "ddlbench $*: exit $got, want $want ($(head -n 1 "$tmp/err"))"
    elif [ "$want" -eq 2 ] && [ "$lines" -ne 1 ]; then bad "ddlbench $*: $lines stderr lines, want 1"
    else ok; fi
}

report() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
