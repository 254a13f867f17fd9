/* wire.c — the gradients' wire type and its casts (wire.h). */
#include "wire.h"
#include "half.h"

#include <stdint.h>
#include <string.h>

int wire_parse(const char *s, ddl_dtype *out)
{
    static const struct { const char *name; ddl_dtype t; } names[] = {
        { "fp32", DDL_FLOAT32 }, { "fp16", DDL_FLOAT16 }, { "bf16", DDL_BFLOAT16 },
    };
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) return *out = names[i].t, 0;
    return -1;
}

const char *wire_name(ddl_dtype t)
{
    return t == DDL_FLOAT32 ? "fp32" : t == DDL_FLOAT16 ? "fp16" : t == DDL_BFLOAT16 ? "bf16" : "?";
}

size_t wire_bytes(ddl_dtype t) { return t == DDL_FLOAT16 || t == DDL_BFLOAT16 ? 2 : 4; }

void wire_pack(ddl_dtype t, const float *src, void *dst, size_t n)
{
    uint16_t *h = dst;
    if (t == DDL_FLOAT16) for (size_t i = 0; i < n; i++) h[i] = kern_f32_to_f16(src[i]);
    else if (t == DDL_BFLOAT16) for (size_t i = 0; i < n; i++) h[i] = kern_f32_to_bf16(src[i]);
    else memcpy(dst, src, n * sizeof *src);
}

void wire_unpack(ddl_dtype t, const void *src, float *dst, size_t n)
{
    const uint16_t *h = src;
    if (t == DDL_FLOAT16) for (size_t i = 0; i < n; i++) dst[i] = kern_f16_to_f32(h[i]);
    else if (t == DDL_BFLOAT16) for (size_t i = 0; i < n; i++) dst[i] = kern_bf16_to_f32(h[i]);
    else memcpy(dst, src, n * sizeof *dst);
}
