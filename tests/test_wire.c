/* test_wire.c — the gradients' wire type (harness/train/wire.c): names both ways, bytes per element,
 * and casts that keep small integers and halves exact and round the rest to the nearest of the type. */
#include "test.h"
#include "wire.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int main(void)
{
    static const char *const names[] = { "fp32", "fp16", "bf16" };
    for (int i = 0; i < 3; i++) {
        ddl_dtype t = DDL_INT32;
        CHECK(wire_parse(names[i], &t) == 0 && !strcmp(wire_name(t), names[i]), "%s both ways", names[i]);
        CHECK(wire_bytes(t) == (i ? 2u : 4u), "%s: %zu bytes", names[i], wire_bytes(t));
    }
    ddl_dtype t = DDL_FLOAT32;
    CHECK(wire_parse("fp8", &t) == -1 && wire_parse("", &t) == -1 && wire_parse(NULL, &t) == -1 && t == DDL_FLOAT32,
          "unknown names refused, the output left alone");
    CHECK(!strcmp(wire_name(DDL_INT32), "?"), "not a wire type");
    float src[] = { 0, 1, -8, 0.5f, 2048, 256, 1.0f / 3, 65504, -0.25f }, back[9];
    uint16_t h[9];
    float w32[9];
    ddl_dtype half[] = { DDL_FLOAT16, DDL_BFLOAT16 };
    for (int k = 0; k < 2; k++) {
        wire_pack(half[k], src, h, 9);
        wire_unpack(half[k], h, back, 9);
        for (int i = 0; i < 9; i++) {
            int whole = src[i] == floorf(src[i]);
            int exact = whole ? fabsf(src[i]) <= (k ? 256 : 2048) : src[i] == 0.5f || src[i] == -0.25f;
            if (exact) CHECK(back[i] == src[i], "%s: %g exact, got %g", wire_name(half[k]), src[i], back[i]);
            else CHECK(fabsf(back[i] - src[i]) <= fabsf(src[i]) * (k ? 1.0f / 256 : 1.0f / 2048),
                       "%s: %g rounded to %g", wire_name(half[k]), src[i], back[i]);
        }
    }
    wire_pack(DDL_FLOAT32, src, w32, 9);
    wire_unpack(DDL_FLOAT32, w32, back, 9);
    CHECK(!memcmp(back, src, sizeof src), "fp32: a copy");
    return TEST_REPORT();
}
