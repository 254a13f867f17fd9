/* counters.h — hardware counters around the training step's GEMMs (PAPI), per rank, on the calling
 * thread: PAPI_TOT_INS and PAPI_TOT_CYC (-> IPC) and PAPI_SP_OPS or PAPI_FP_OPS (-> GFLOP/s).
 * The seam: built with PAPI (-DDDL_HAVE_PAPI, -lpapi) when the Makefile finds it, otherwise — and
 * always under simulation — every call is a no-op and counters_open says why they are unavailable.
 * Only the calling thread is counted: OpenBLAS worker threads (OPENBLAS_NUM_THREADS > 1) and the
 * communication thread's reductions are not. */
#ifndef HARN_COUNTERS_H
#define HARN_COUNTERS_H

#include <stddef.h>

typedef struct counters_totals {
    double ins, cyc;  /* instructions and cycles in the counted regions; < 0 = not available */
    double flops;     /* floating-point operations; < 0 = not available */
} counters_totals;

/* Initialises PAPI and starts the event set. 0 when at least instructions and cycles count; else
 * non-zero with the reason in why (e.g. "PAPI_add_event(PAPI_TOT_INS): Event does not exist").
 * Calling it again returns the first answer. */
int counters_open(char *why, size_t len);
/* Brackets a counted region (a GEMM); cheap reads; no-ops when unavailable. */
void counters_begin(void);
void counters_end(void);
/* Totals since the last take (or open), then zeroes them. All fields -1 when unavailable. */
void counters_take(counters_totals *out);
/* Stops counting and releases the event set. */
void counters_close(void);

#endif
