#!/bin/sh
# registry_extra.sh — an algorithm is one file plus one row. The test build (make registry-extra)
# registers tests/extra/allreduce_star.c's "star" and nothing else changes; this checks that it
# appears everywhere the registry is iterated, and nowhere in the shipped build:
#   the CLI: `ddlbench list` and `list --names`, allreduce -a, train -a, model --algo, sweep.sh --algos;
#   the tests: test_allreduce's matrix (every type, op, count, placement) at 1..4 ranks and 2 nodes;
#   auto: with a cost model that makes star cheapest, auto picks it (test_allreduce's "auto picks");
#   star has no reduce-scatter or allgather: `list` marks it, the benchmarks refuse it (exit 2),
#   test_collectives gets DDL_ERR_ALGO from it and runs auto's among the others.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib/cli.sh"
dir=$(dirname "$0")
shipped=$exe
exe=$BUILD/extra/ddlbench
test_bin=$BUILD/extra/tests/test_allreduce
launch() { sh "$dir/../harness/scripts/mpilaunch.sh" "$@" </dev/null; }
expect_shipped() { extra=$exe; exe=$shipped; expect_status "$@"; exe=$extra; }

for f in "$shipped" "$exe" "$test_bin"; do
    [ -x "$f" ] || { echo "no $f (make registry-extra)"; echo "0 passed, 1 failed"; exit 1; }
done

# The CLI: list, and the name checks of allreduce, train, model and sweep.sh.
"$shipped" list --names >"$tmp/shipped" && "$exe" list --names >"$tmp/extra" || bad "list --names: non-zero exit"
{ cat "$tmp/shipped"; echo star; } | cmp -s - "$tmp/extra" && ok ||
    bad "list --names: extra build is not the shipped names + star: $(tr '\n' ' ' <"$tmp/extra")"
grep -qx star "$tmp/shipped" && bad "the shipped build lists star" || ok
"$exe" list | awk '{ print $1 }' | cmp -s - "$tmp/extra" && ok || bad "list and list --names disagree"
"$exe" list | grep -q '^star  *test fixture' && ok || bad "list: no star line with its help"
expect_status 2 list --bogus
expect_status 2 train -a star,nosuch
expect_shipped 2 allreduce -a star
expect_shipped 2 train -a star
"$exe" model --algo star,ring --preset minsky --nodes 2 --bytes 1M >"$tmp/model" 2>&1 &&
    awk '$1 == "star" && $2 > 0 { f = 1 } END { exit !f }' "$tmp/model" && ok ||
        bad "model --algo star: $(tail -n 1 "$tmp/model")"
expect_shipped 2 model --algo star --preset minsky --nodes 2 --bytes 1M
sh "$dir/../harness/scripts/sweep.sh" --build "$BUILD/extra" --backend mpi --algos ring,star --dry-run -q \
    --out "$tmp/sweep" >"$tmp/sweep.out" 2>&1 && grep -q 'ring,star' "$tmp/sweep.out" && ok ||
    bad "sweep.sh --algos ring,star with the extra build: $(tail -n 1 "$tmp/sweep.out")"
sh "$dir/../harness/scripts/sweep.sh" --build "$BUILD" --backend mpi --algos ring,star --dry-run -q --out "$tmp/sweep" \
    >"$tmp/sweep.out" 2>&1
[ $? -eq 2 ] && grep -q 'unknown algorithm "star"' "$tmp/sweep.out" && ok ||
    bad "sweep.sh accepts star with the shipped build"

# Real runs: the allreduce benchmark (self-checking) and a training step, with star and auto.
launch 3 "$exe" allreduce -a star,auto -b 1K -e 64K -f 8 -w 0 -n 2 >"$tmp/run" 2>&1
st=$?
rows=$(grep -v '^#' "$tmp/run" | awk '$5 == "star"' | wc -l)
[ "$st" -eq 0 ] && [ "$rows" -eq 6 ] && ok || { bad "3-rank allreduce -a star: exit $st, $rows star rows (want 6)"
    tail -n 3 "$tmp/run"; }
grep -v '^#' "$tmp/run" | awk '$NF != 0 { b++ } END { exit b > 0 }' && ok || bad "3-rank allreduce -a star: #wrong != 0"
launch 2 "$exe" train -a star --batch 1 --image-size 32 --steps 1 --warmup 0 --check >"$tmp/train" 2>&1 && ok ||
    { bad "2-rank train -a star --check"; tail -n 3 "$tmp/train"; }

# The tests: test_allreduce's matrix iterates the registry; auto picks star when it is cheapest.
for run in 1 2 3 4 4:--rpn:2; do
    np=${run%%:*}; args=$(echo "${run#"$np"}" | tr ':' ' ')
    # shellcheck disable=SC2086
    launch "$np" "$test_bin" $args >"$tmp/t" 2>&1
    st=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/t" | tail -n 1)
    f=${line#*passed, }; f=${f%% failed*}
    [ "$st" -eq 0 ] && [ -n "$line" ] && [ "$f" = 0 ] && ok || { bad "test_allreduce np=$np$args: exit $st, \"$line\""
        grep -m 5 FAIL "$tmp/t"; }
    grep -q '^# algorithms:.* star' "$tmp/t" && ok || bad "test_allreduce np=$np$args: star not in its matrix"
    grep -q '^# auto picks:.* star' "$tmp/t" && ok ||
        bad "test_allreduce np=$np$args: auto did not pick star when cheapest"
done

# An algorithm without reduce-scatter and allgather.
"$exe" list | grep -q '^star  *test fixture.*(allreduce only)$' && ok || bad "list: star not marked (allreduce only)"
expect_status 2 reduce-scatter -a star
expect_status 2 allgather -a ring,star
launch 2 "$BUILD/extra/tests/test_collectives" >"$tmp/t" 2>&1
st=$?
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/t" | tail -n 1)
[ "$st" -eq 0 ] && [ "${line#*passed, }" = "0 failed" ] && grep -q '^# without reduce-scatter and allgather: star$' \
    "$tmp/t" &&
    ok || { bad "test_collectives np=2 (extra build): exit $st, \"$line\""; grep -m 5 FAIL "$tmp/t"; }

report
