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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char merr[512]; /* model_create's message */

/* The dump and the bytes lines of the golden files for (name, batch, image), in memory. */
static char *dump_of(const char *name, int batch, int image)
{
    model *m = NULL;
    char *buf = NULL;
    size_t len = 0;
    if (model_create(name, batch, image, &m, merr, sizeof merr)) return NULL;
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
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)))
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
        CHECK(want && got, "%s: %s", path, !want ? "cannot read (run from the repository root)" : merr);
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

/* A model built from `text` (written to a temporary .txt file) at batch 2, image `image`. */
static int build_text(const char *text, int image, model **m, char *path, size_t len)
{
    snprintf(path, len, "/tmp/ddl_model_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) return -1;
    fclose(f);
    int rc = model_create(path, 2, image, m, merr, sizeof merr);
    unlink(path);
    return rc;
}

/* torchvision's published parameter counts (docs/SOURCES.md): VGG-16 138,357,544; Inception V3
 * 27,161,264 with its auxiliary classifier, whose parameters are counted here from its layers. */
static void test_published_counts(void)
{
    model *m = NULL;
    CHECK(model_create("vgg16", 1, 224, &m, merr, sizeof merr) == 0, "vgg16: %s", merr);
    if (m) {
        CHECK(model_param_count(m) == 138357544LL, "vgg16: %lld parameters, torchvision 138,357,544",
              model_param_count(m));
        CHECK(model_tensor_count(m) == 32 && fabs(model_fwd_macs(m) / 1e9 - 15.47) < 0.005,
              "vgg16: 32 tensors, 15.47 GMACs (%.3f)", model_fwd_macs(m) / 1e9);
        const model_tensor *t = model_tensor_at(m, 26);
        CHECK(t && !strcmp(t->name, "classifier.0.weight") && t->numel == 4096LL * 25088,
              "vgg16: classifier.0.weight 4096 x 25088");
        model_free(m), m = NULL;
    }
    CHECK(model_create("inception3", 1, 299, &m, merr, sizeof merr) == 0, "inception3: %s", merr);
    if (!m) return;
    /* AuxLogits (torchvision InceptionAux(768, 1000)) on Mixed_6e's 768 x 17 x 17, behind a 1x1 stub conv from the
     * image */
    static const char aux[] = "conv stub in=image cin=3 out=768 k=1\n"
                              "pool AuxLogits.pool avg k=5 s=3\n"
                              "conv AuxLogits.conv0.conv out=128 k=1\nbn AuxLogits.conv0.bn relu\n"
                              "conv AuxLogits.conv1.conv out=768 k=5\nbn AuxLogits.conv1.bn relu\n"
                              "pool AuxLogits.avgpool avg global\nfc AuxLogits.fc cin=768 out=1000\n";
    model *a = NULL;
    char path[64];
    CHECK(build_text(aux, 17, &a, path, sizeof path) == 0, "AuxLogits: %s", merr);
    long long auxp = a ? model_param_count(a) - 3 * 768 : 0;
    CHECK(auxp == 3326696, "AuxLogits: %lld parameters", auxp);
    CHECK(model_param_count(m) == 23834568LL && model_param_count(m) + auxp == 27161264LL,
          "inception3: %lld parameters + AuxLogits %lld, torchvision 27,161,264 with AuxLogits", model_param_count(m),
          auxp);
    CHECK(model_tensor_count(m) == 284 && fabs(model_fwd_macs(m) / 1e9 - 5.71) < 0.005,
          "inception3: 284 tensors, 5.71 GMACs (%.3f)", model_fwd_macs(m) / 1e9);
    const model_layer *l = model_layer_at(m, model_layer_count(m) - 1);
    CHECK(l && l->kind == MODEL_FC && l->gemm[MODEL_FWD].k == 2048, "inception3: fc over 2048 features");
    model_free(a);
    model_free(m);
}

/* Bad files: exit code MODEL_EARG, one line "FILE:LINE: ...", nothing built. */
static void test_bad_files(void)
{
    static const struct { const char *text; int line; const char *says;
    } cases[] = {
        { "conv c1 in=image out=6x k=3\nfc fc out=2\n", 1, "expected a positive integer" },
        { "conv a in=b out=4 k=1\nconv b in=a out=4 k=1\nfc fc out=2\n", 1, "defined later at line 2" },
        { "conv a in=image out=4 k=1\nconv b in=a out=4 k=1\nconv c in=c out=4 k=1\nfc fc out=2\n", 3, "reads itself" },
        { "conv a in=image out=4 k=1\nconv b in=zz out=4 k=1\n", 2, "no line defines" },
        { "conv a in=image out=4 k=1\nconv b in=a out=8 k=1\nadd s in=a,b\nfc fc out=2\n", 3, "expected one shape" },
        { "conv a in=image out=4 k=1\nconv b in=a out=4 k=3 s=2\nconcat s in=a,b\nfc fc out=2\n", 3,
          "expected one H x W" },
        { "conv a in=image out=4 k=1\nconv b cin=8 out=4 k=1\nfc fc out=2\n", 2,
          "cin=8 but its input a has 4 channels" },
        { "conv a in=image cin=3 out=4 k=1\ndeconv b out=4 k=1\nfc fc out=2\n", 2, "unknown layer kind \"deconv\"" },
        { "conv a in=image out=4 k=1\nfc fc ou", 2, "ends in the middle of a line" },
        { "conv a in=image out=4 k=1\nconv b in=image out=4 k=1\nfc fc in=a out=2\n", 2, "b's output is never read" },
        { "conv a in=image out=4 k=1\nconv a out=4 k=1\n", 2, "already defined at line 1" },
        { "conv a in=image out=4 k=1 groups=2\n", 1, "unknown or incomplete attribute \"groups=2\"" },
        { "conv a in=image out=4\n", 1, "expected out= and k=" },
        { "# nothing\n\n", 2, "no layers" },
        { "conv a in=image out=4 k=1\nrelu r in=image\n", 2, "runs in place" },
        { "conv a in=image out=4 k=1\nrelu r\nconv b in=a out=4 k=1\n", 3, "overwrote in place" },
        { "conv a in=image out=4 k=1\npool p avg\n", 2, "expected k=" },
        { "conv a in=image out=4 k=1\nconv b out=4 k=1\nadd s in=b,a relu\n", 3, "must be a layer of its own" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model *m = (model *)&m;
        char path[64], where[96];
        int rc = build_text(cases[i].text, 32, &m, path, sizeof path);
        snprintf(where, sizeof where, "%s:%d: ", path, cases[i].line);
        const char *e = merr;
        CHECK(rc == MODEL_EARG && !m && !strncmp(e, where, strlen(where)) && strstr(e, cases[i].says) &&
                  !strchr(e, '\n'),
              "case %zu: rc %d, \"%s\", expected \"%s...%s\"", i, rc, e, where, cases[i].says);
    }
    model *m = NULL;
    CHECK(model_create("/nonexistent/x.txt", 1, 224, &m, merr, sizeof merr) == MODEL_EARG &&
              strstr(merr, "cannot open"),
          "missing file");
    CHECK(model_create("inception3", 1, 64, &m, merr, sizeof merr) == MODEL_EARG &&
              strstr(merr, "--image-size 64: too small for inception3") && strstr(merr, "window does not fit"),
          "inception3 at 64: %s", merr);
    CHECK(model_create("vgg16", 1, 31, &m, merr, sizeof merr) == MODEL_EARG && strstr(merr, "at least 32"),
          "vgg16 at 31: %s", merr);
    CHECK(model_create("resnet50.txt", 1, 224, &m, merr, sizeof merr) == MODEL_EARG && strstr(merr, "cannot open"),
          "a .txt name is a file");
}

/* The built-in texts read back as themselves (model_text is what `ddlbench model text` prints). */
static void test_texts(void)
{
    static const char *names[] = { "resnet50", "resnet101", "resnet101-22k", "vgg16", "inception3" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *t = model_text(names[i]), path[64];
        model *a = NULL, *b = NULL;
        CHECK(t && build_text(t, 224, &a, path, sizeof path) == 0 &&
                  model_create(names[i], 2, 224, &b, merr, sizeof merr) == 0,
              "%s text", names[i]);
        CHECK(a && b && model_param_count(a) == model_param_count(b) && model_layer_count(a) == model_layer_count(b),
              "%s: the printed text builds the same network", names[i]);
        free(t), model_free(a), model_free(b);
    }
    CHECK(!model_text("resnet152") && model_is_file("a/b") && model_is_file("x.txt") && !model_is_file("vgg16"),
          "names");
}

int main(void)
{
    test_resnets_identical();
    test_published_counts();
    test_bad_files();
    test_texts();
    return TEST_REPORT();
}
