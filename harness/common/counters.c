/* counters.c — PAPI behind counters.h in the real builds (counters_sim.c is the simulation's).
 * With DDL_HAVE_PAPI: one event set on the calling thread, started once; counters_begin/end read it and accumulate the
 * difference, so a
 * region costs two PAPI_read calls and nothing is started or stopped per GEMM. Without: stubs that
 * report the counters unavailable, so the CSV columns read NA. */
#include "counters.h"

#include <stdio.h>
#include <string.h>

#ifdef DDL_HAVE_PAPI
#include <papi.h>

enum { EV_INS, EV_CYC, EV_FLOP, EV_MAX };

static struct {
    int state;              /* 0 not opened, 1 counting, -1 unavailable */
    int events;             /* events in the set: 2 (ins, cyc) or 3 (+ flops) */
    int set;                /* PAPI event set */
    long long at[EV_MAX];   /* values at counters_begin */
    long long sum[EV_MAX];  /* accumulated over regions */
    char why[200];
} ctr = { .set = PAPI_NULL };

static int fail(const char *what, int code)
{
    snprintf(ctr.why, sizeof ctr.why, "%s: %s", what, PAPI_strerror(code));
    if (ctr.set != PAPI_NULL) {
        PAPI_cleanup_eventset(ctr.set);
        PAPI_destroy_eventset(&ctr.set);
    }
    ctr.state = -1;
    return -1;
}

static int open_set(void)
{
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) return fail("PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
    if ((rc = PAPI_create_eventset(&ctr.set)) != PAPI_OK) return fail("PAPI_create_eventset", rc);
    if ((rc = PAPI_add_event(ctr.set, PAPI_TOT_INS)) != PAPI_OK) return fail("PAPI_add_event(PAPI_TOT_INS)", rc);
    if ((rc = PAPI_add_event(ctr.set, PAPI_TOT_CYC)) != PAPI_OK) return fail("PAPI_add_event(PAPI_TOT_CYC)", rc);
    ctr.events = 2;
    if (PAPI_add_event(ctr.set, PAPI_SP_OPS) == PAPI_OK || PAPI_add_event(ctr.set, PAPI_FP_OPS) == PAPI_OK)
        ctr.events = 3;
    if ((rc = PAPI_start(ctr.set)) != PAPI_OK) return fail("PAPI_start", rc);
    ctr.state = 1;
    return 0;
}

int counters_open(char *why, size_t len)
{
    if (ctr.state == 0) open_set();
    if (why && len) snprintf(why, len, "%s", ctr.state == 1 ? "" : ctr.why);
    return ctr.state == 1 ? 0 : 1;
}

void counters_begin(void)
{
    if (ctr.state == 1 && PAPI_read(ctr.set, ctr.at) != PAPI_OK) memset(ctr.at, 0, sizeof ctr.at);
}

void counters_end(void)
{
    long long now[EV_MAX];
    if (ctr.state != 1 || PAPI_read(ctr.set, now) != PAPI_OK) return;
    for (int e = 0; e < ctr.events; e++) ctr.sum[e] += now[e] - ctr.at[e];
}

void counters_take(counters_totals *out)
{
    *out = (counters_totals){ -1, -1, -1 };
    if (ctr.state != 1) return;
    out->ins = (double)ctr.sum[EV_INS];
    out->cyc = (double)ctr.sum[EV_CYC];
    if (ctr.events == 3) out->flops = (double)ctr.sum[EV_FLOP];
    memset(ctr.sum, 0, sizeof ctr.sum);
}

void counters_close(void)
{
    long long v[EV_MAX];
    if (ctr.state == 1) {
        PAPI_stop(ctr.set, v);
        PAPI_cleanup_eventset(ctr.set);
        PAPI_destroy_eventset(&ctr.set);
        ctr.set = PAPI_NULL;
        ctr.state = 0;
    }
}

#else /* no PAPI: the counters are unavailable */

int counters_open(char *why, size_t len)
{
    if (why && len) snprintf(why, len, "built without PAPI (install libpapi-dev and rebuild)");
    return 1;
}

void counters_begin(void) {}
void counters_end(void) {}
void counters_take(counters_totals *out) { *out = (counters_totals){ -1, -1, -1 }; }
void counters_close(void) {}

#endif
