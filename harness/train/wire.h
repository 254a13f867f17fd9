/* wire.h — the gradients' type on the wire (`--grad-dtype fp32|fp16|bf16`, mixed precision): what the
 * allreduces move and reduce. The step computes fp32 gradients and keeps fp32 master weights; with
 * fp16 or bf16 each bucket is cast to a 2-byte copy when backward completes it, that copy is
 * allreduced (libddl reduces DDL_FLOAT16 / DDL_BFLOAT16 in float32 arithmetic, rounding once a step
 * of the algorithm), and the sums are cast back to fp32 before the update (AMP's and MLPerf's
 * Horovod fp16 allreduce). The bucket caps and Horovod's fusion threshold count wire bytes, so a
 * 64 MiB threshold holds ResNet-50's 51 MB of fp16 gradients in one buffer. */
#ifndef HARN_WIRE_H
#define HARN_WIRE_H

#include "ddl.h"

#include <stddef.h>

/* "fp32" | "fp16" | "bf16" -> *out (DDL_FLOAT32, DDL_FLOAT16, DDL_BFLOAT16). 0, or -1. */
int wire_parse(const char *s, ddl_dtype *out);
/* The option's spelling of t ("fp32", "fp16", "bf16"; "?" for another type). */
const char *wire_name(ddl_dtype t);
/* Bytes per gradient element on the wire: 4 or 2. */
size_t wire_bytes(ddl_dtype t);
/* n fp32 values of src cast to t into dst (t's elements; round to nearest even); fp32 copies. */
void wire_pack(ddl_dtype t, const float *src, void *dst, size_t n);
/* n elements of t in src back to fp32 into dst. */
void wire_unpack(ddl_dtype t, const void *src, float *dst, size_t n);

#endif
