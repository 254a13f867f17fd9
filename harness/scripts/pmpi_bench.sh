#!/bin/sh
# pmpi_bench.sh — `make pmpi-bench`: harness/scripts/pmpi_dp.py (an mpi4py + numpy data-parallel MLP,
# gradients averaged by Allreduce each step) at NP ranks (default 2), ROUNDS times each way,
# alternating: plain MPI, then with $BUILD/libddl_mpi.so preloaded (DDL_ALGO as set, default auto;
# DDL_MPI_MULTIPLE=1: mpi4py asks MPI_THREAD_MULTIPLE and this program calls MPI from one thread).
# A third way, DDL_ALGO=mpi, goes through the library and libddl's context to MPI's own allreduce:
# what the interposition itself costs. Each round's line, then one line: the best round's median
# step and Allreduce times each way and their ratios (MPI / libddl: above 1, libddl is faster).
# Fails if libddl took no Allreduce or the final losses differ beyond float32 rounding.
set -u
BUILD=${BUILD:-build}
NP=${NP:-2}; ROUNDS=${ROUNDS:-3}; STEPS=${STEPS:-40}
dir=$(dirname "$0")
so=$(cd "$BUILD" 2>/dev/null && pwd)/libddl_mpi.so
py=/usr/bin/python3
[ -f "$so" ] || { echo "pmpi_bench.sh: no $so (make first)" >&2; exit 2; }
"$py" -c 'import mpi4py, numpy' 2>/dev/null ||
    { echo "pmpi_bench.sh: $py lacks mpi4py or numpy (apt-get install python3-mpi4py python3-numpy)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$ROUNDS"); do
    for way in mpi ddl via; do
        case $way in
        mpi) sh "$dir/mpilaunch.sh" "$NP" "$py" "$dir/pmpi_dp.py" "$STEPS" ;;
        ddl) sh "$dir/mpilaunch.sh" "$NP" env LD_PRELOAD="$so" DDL_MPI_MULTIPLE=1 DDL_MPI_VERBOSE=1 \
                 "$py" "$dir/pmpi_dp.py" "$STEPS" ;;
        via) sh "$dir/mpilaunch.sh" "$NP" env LD_PRELOAD="$so" DDL_MPI_MULTIPLE=1 DDL_MPI_VERBOSE=1 DDL_ALGO=mpi \
                 "$py" "$dir/pmpi_dp.py" "$STEPS" ;;
        esac >"$tmp/out" 2>&1 </dev/null ||
            { echo "pmpi_bench.sh: the $way run failed:" >&2; tail -n 5 "$tmp/out" >&2; exit 1; }
        line=$(grep '^dp: ' "$tmp/out")
        echo "# round $r $way: $line"
        echo "$way $line" >>"$tmp/all"
        [ "$way" = mpi ] || grep -q 'libddl took allreduce=[1-9]' "$tmp/out" ||
            { echo "pmpi_bench.sh: libddl took no Allreduce ($way):" >&2; cat "$tmp/out" >&2; exit 1; }
    done
done
awk -v np="$NP" '
    { for (i = 2; i < NF; i++) v[$i] = $(i + 1)
      w = $1; if (!(w in step) || v["step_ms"] < step[w]) { step[w] = v["step_ms"]; ar[w] = v["allreduce_ms"] }
      loss[w] = v["loss"]; n = v["gradient"] }
    END {
      d = loss["mpi"] - loss["ddl"]; if (d < 0) d = -d
      printf "pmpi-bench: mpi4py MLP, %d ranks, %d-float32 gradient: step %.2f ms MPI / %.2f ms libddl = %.3f, " \
             "allreduce %.2f / %.2f = %.3f (best of each way; loss %.6f vs %.6f); through the library to " \
             "MPI (DDL_ALGO=mpi): step %.2f, allreduce %.2f ms\n", np, n, step["mpi"], step["ddl"], \
             step["mpi"] / step["ddl"], ar["mpi"], ar["ddl"], ar["mpi"] / ar["ddl"], loss["mpi"], loss["ddl"], \
             step["via"], ar["via"]
      exit d > 1e-4 * (loss["mpi"] > 1 ? loss["mpi"] : 1)
    }' "$tmp/all"
