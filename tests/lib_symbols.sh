#!/bin/sh
# lib_symbols.sh — libddl.a exports the public API (ddl_*) and nothing else: every other symbol of
# the library is hidden and made local when the archive is sealed (Makefile: seal). Checks the host
# library and, where it was built, the CUDA one (build/cuda/libddl.a).
. "$(dirname "$0")/lib/cli.sh"
command -v nm >/dev/null || { echo "SKIP: nm not found"; report; exit 0; }
for lib in "$BUILD/libddl.a" "$BUILD/cuda/libddl.a"; do
    if [ ! -f "$lib" ]; then
        [ "$lib" = "$BUILD/libddl.a" ] && bad "$lib missing"
        continue
    fi
    syms=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }')
    others=$(echo "$syms" | grep -v -e '^ddl_' -e '^$' | head -n 5 | tr '\n' ' ')
    if [ -z "$others" ]; then ok; else bad "$lib exports symbols other than ddl_*: $others"; fi
    for f in ddl_ctx_create ddl_allreduce ddl_reduce_scatter ddl_allgather ddl_ctx_free ddl_last_error ddl_algo_name; do
        if echo "$syms" | grep -qx "$f"; then ok; else bad "$lib does not export $f"; fi
    done
done
report
