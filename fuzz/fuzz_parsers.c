/* fuzz_parsers.c — libFuzzer target over every parser of untrusted text: option values
 * (harness/common/parse.c), device profiles (profile_parse), ddl grids and patterns (collectives/grid.c),
 * platform bandwidths and latencies (platform.c), platform files (platform_file.c), the study
 * catalogue's entries (study_file.c), ddlbench's CSV (csv.c: first byte 250 and up, even) and the
 * key = value grammar (kv.c: odd). The first input byte picks the parser, the rest is
 * the text (NUL-terminated copy; profile_parse also gets the raw bytes, NULs included). Each result is
 * checked for the parser's own promises (value in range, items non-empty, dims multiply without
 * overflow), so a wrong accept aborts too. Build and run: make fuzz (FUZZ_SECONDS=60). */
#include "coll.h"
#include "csv.h"
#include "kv.h"
#include "parse.h"
#include "platform.h"
#include "platform_file.h"
#include "profile.h"
#include "study_file.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void one(uint8_t which, const char *s, const uint8_t *raw, size_t n)
{
    char buf[256], err[300];
    const char *items[8];
    size_t z;
    long v;
    int k, dims[DDL_MAX_DIMS], nd, pats[DDL_MAX_DIMS];
    double d;
    profile pr;
    platform pf;
    platform_fit fit;
    study_entry se;
    csv_doc cd;
    kv_reader kr;
    char *key, *val;
    switch (which >= 250 ? 10 + which % 2 : which % 10) {
    case 0: if (!parse_size(s, 1, (size_t)1 << 40, &z)) CHECK(z >= 1 && z <= (size_t)1 << 40); break;
    case 1: if (!parse_int(s, -1000, 1000000, &v)) CHECK(v >= -1000 && v <= 1000000); break;
    case 2:
        if (!parse_list(s, ',', buf, sizeof buf, items, 8, &k)) {
            CHECK(k >= 1 && k <= 8);
            for (int i = 0; i < k; i++) CHECK(items[i][0] && !strchr(items[i], ','));
        }
        break;
    case 3:
        if (!profile_parse((const char *)raw, n, "fuzz", &pr, err, sizeof err))
            CHECK(isfinite(pr.gemm_gflops_fp32) && isfinite(pr.reduce_ns_per_byte));
        break;
    case 4:
        if (!coll_grid_parse(s, dims, &nd)) {
            CHECK(nd >= 1 && nd <= DDL_MAX_DIMS);
            for (int i = 0; i < nd; i++) CHECK(dims[i] >= 1);
        }
        break;
    case 5:
        for (nd = 1; nd <= 3; nd++)
            if (!coll_patterns_parse(s, nd, pats))
                for (int i = 0; i < nd; i++) CHECK(pats[i] >= 0 && pats[i] < COLL_PAT_COUNT);
        break;
    case 6: if (!platform_parse_bw(s, &d)) CHECK(isfinite(d) && d >= 0); break; /* 0 refused later */
    case 7: if (!platform_parse_lat(s, &d)) CHECK(isfinite(d) && d >= 0); break;
    case 8:
        if (!platform_file_parse((const char *)raw, n, "fuzz", &pf, &fit, err, sizeof err)) {
            CHECK(pf.intra_bw > 0 && pf.nic_bw > 0 && pf.intra_lat >= 0 && pf.inter_lat >= pf.intra_lat);
            CHECK(pf.gpus_per_node >= 1 && pf.gpus_per_node <= PLATFORM_MAX_GPUS_PER_NODE && pf.name[0]);
            CHECK(!fit.bw_factor[0] || !platform_factor_check(fit.bw_factor, err, sizeof err));
        }
        break;
    case 9:
        if (!study_file_parse((const char *)raw, n, "fuzz", &se, err, sizeof err)) {
            CHECK(se.label[0] && se.model[0] && se.algo[0] && se.source[0]);
            CHECK(se.baseline >= 1 && se.baseline <= se.gpus && se.batch >= 1 && se.published > 0 &&
                  se.published <= 100);
            CHECK(se.nplatforms >= 1 && se.nplatforms <= STUDY_MAX_ALTS && se.noverlaps >= 1 && se.noverlaps <= 2);
        }
        break;
    case 10:
        if (!csv_read((const char *)raw, n, CSV_TEXT, &cd, err, sizeof err)) {
            CHECK(cd.ncols >= 1 && cd.ncols <= CSV_MAX_COLUMNS && cd.header_line >= 1);
            for (int r = 0; r < cd.nrows; r++) CHECK(cd.lines[r] > (r ? cd.lines[r - 1] : cd.header_line));
        }
        csv_free(&cd);
        break;
    case 11:
        kv_start(&kr, (const char *)raw, n);
        while ((k = kv_next(&kr, &key, &val, err, sizeof err)) == 1)
            CHECK(key[0] && !strpbrk(key, " \t=") && strlen(key) + strlen(val) <= KV_LINE_MAX);
        CHECK(k == 0 || (k == 2 && err[0]));
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[4096];
    if (size < 1) return 0;
    size_t n = size - 1 < sizeof text - 1 ? size - 1 : sizeof text - 1;
    memcpy(text, data + 1, n);
    text[n] = '\0';
    one(data[0], text, data + 1, size - 1);
    return 0;
}
