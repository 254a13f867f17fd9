/* sim_rates.c — storage of the injected rates (sim.h); compiled in both builds. */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double gemm_gflops, reduce_ns, mem_gbps, sgd_gbps; /* SMPI privatises globals: one per simulated rank */
static int red_n;                               /* the size-dependent reduction cost: points */
static size_t red_bytes[KERN_SIM_REDUCE_POINTS];
static double red_ns[KERN_SIM_REDUCE_POINTS];
typedef struct ws_table { int n; size_t bytes[KERN_SIM_WS_POINTS]; double ns[KERN_SIM_WS_POINTS]; } ws_table;
static ws_table ws, cp, wh;                     /* the exchange's and the plain copy's cost by working set;
                                                 * a whole message's between nodes */
static double call_overhead, poll_slack, fault_ns;
static int layer_priced;

void kern_sim_set_layer_priced(int on) { layer_priced = on != 0; }
int kern_sim_layer_priced(void) { return layer_priced; }

int kern_sim_set_rates(double gemm_gflops_fp32, double reduce_ns_per_byte)
{
    if (!(gemm_gflops_fp32 > 0) || !isfinite(gemm_gflops_fp32) || !(reduce_ns_per_byte >= 0) ||
        !isfinite(reduce_ns_per_byte))
        return -1;
    gemm_gflops = gemm_gflops_fp32;
    reduce_ns = reduce_ns_per_byte;
    return 0;
}

double kern_sim_gemm_gflops(void) { return gemm_gflops; }

int kern_sim_set_mem_gbps(double gbps)
{
    if (!(gbps > 0) || !isfinite(gbps)) return -1;
    mem_gbps = gbps;
    return 0;
}

double kern_sim_mem_gbps(void) { return mem_gbps; }

int kern_sim_set_sgd_gbps(double gbps)
{
    if (!(gbps >= 0) || !isfinite(gbps)) return -1;
    sgd_gbps = gbps;
    return 0;
}

double kern_sim_sgd_gbps(void) { return sgd_gbps > 0 ? sgd_gbps : mem_gbps; }

int kern_sim_set_reduce_table(int n, const size_t *bytes, const double *ns_per_byte)
{
    if (n < 0 || n > KERN_SIM_REDUCE_POINTS || (n && (!bytes || !ns_per_byte))) return -1;
    for (int i = 0; i < n; i++)
        if (!bytes[i] || (i && bytes[i] <= bytes[i - 1]) || !(ns_per_byte[i] >= 0) || !isfinite(ns_per_byte[i]))
            return -1;
    for (int i = 0; i < n; i++) red_bytes[i] = bytes[i], red_ns[i] = ns_per_byte[i];
    red_n = n;
    return 0;
}

double kern_sim_reduce_interp(int n, const size_t *sizes, const double *ns, double flat, size_t bytes)
{
    if (n <= 0) return flat;
    if (bytes <= sizes[0]) return ns[0];
    if (bytes >= sizes[n - 1]) return ns[n - 1];
    int i = 1;
    while (sizes[i] < bytes) i++;
    double f = log((double)bytes / (double)sizes[i - 1]) / log((double)sizes[i] / (double)sizes[i - 1]);
    return ns[i - 1] + f * (ns[i] - ns[i - 1]);
}

double kern_sim_reduce_cost(size_t bytes)
{
    return kern_sim_reduce_interp(red_n, red_bytes, red_ns, reduce_ns, bytes);
}

static int table_set(ws_table *t, int n, const size_t *bytes, const double *ns_per_byte)
{
    if (n < 0 || n > KERN_SIM_WS_POINTS || (n && (!bytes || !ns_per_byte))) return -1;
    for (int i = 0; i < n; i++)
        if (!bytes[i] || (i && bytes[i] <= bytes[i - 1]) || !(ns_per_byte[i] >= 0) || !isfinite(ns_per_byte[i]))
            return -1;
    for (int i = 0; i < n; i++) t->bytes[i] = bytes[i], t->ns[i] = ns_per_byte[i];
    t->n = n;
    return 0;
}

int kern_sim_set_ws_table(int n, const size_t *bytes, const double *ns_per_byte)
{
    return table_set(&ws, n, bytes, ns_per_byte);
}
int kern_sim_set_copy_table(int n, const size_t *bytes, const double *ns_per_byte)
{
    return table_set(&cp, n, bytes, ns_per_byte);
}
int kern_sim_set_whole_table(int n, const size_t *bytes, const double *ns_per_byte)
{
    return table_set(&wh, n, bytes, ns_per_byte);
}
double kern_sim_whole_cost(size_t bytes) { return kern_sim_reduce_interp(wh.n, wh.bytes, wh.ns, 0, bytes); }

double kern_sim_ws_cost(size_t bytes) { return kern_sim_reduce_interp(ws.n, ws.bytes, ws.ns, 0, bytes); }

double kern_sim_copy_cost(size_t bytes)
{
    return cp.n ? kern_sim_reduce_interp(cp.n, cp.bytes, cp.ns, 0, bytes) : kern_sim_ws_cost(bytes);
}

/* A decimal number at s (digits, one '.', an exponent; no sign, hex, inf or nan); end past it. */
static int ws_number(const char *s, double *v, const char **end)
{
    const char *p = s;
    while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
           ((*p == '-' || *p == '+') && p > s && (p[-1] == 'e' || p[-1] == 'E')))
        p++;
    if (p == s || !(*s >= '0' && *s <= '9')) return -1;
    char buf[64], *q;
    if ((size_t)(p - s) >= sizeof buf) return -1;
    memcpy(buf, s, (size_t)(p - s));
    buf[p - s] = 0;
    *v = strtod(buf, &q);
    if (*q || !isfinite(*v)) return -1;
    *end = p;
    return 0;
}

int kern_sim_ws_parse(const char *s, int max, size_t *bytes, double *ns, const char **why)
{
    int n = 0;
    double last = 0;
    while (s && *s) {
        double size, v;
        const char *e;
        if (ws_number(s, &size, &e) || *e != ':' || size != floor(size) || size < 1 || size > 1e15)
            return *why = "expected SIZE:NS pairs separated by ';' (SIZE a whole number of bytes >= 1)", -1;
        if (ws_number(e + 1, &v, &e) || (*e && *e != ';') || !(v >= 0))
            return *why = "expected NS, a decimal number >= 0, after each SIZE:", -1;
        if (n && size <= last) return *why = "sizes not increasing: expected a monotonic table", -1;
        if (n == max) return *why = "too many points", -1;
        if (bytes && ns) bytes[n] = (size_t)size, ns[n] = v;
        last = size, n++;
        s = *e ? e + 1 : e;
        if (*e && !*s) return *why = "trailing ';'", -1;
    }
    if (!n) return *why = "empty table; expected SIZE:NS pairs", -1;
    return n;
}

int kern_sim_set_call_overhead(double seconds)
{
    if (!(seconds >= 0) || !isfinite(seconds)) return -1;
    call_overhead = seconds;
    return 0;
}

double kern_sim_call_overhead(void) { return call_overhead; }

int kern_sim_set_poll_slack(double seconds)
{
    if (!(seconds >= 0) || !isfinite(seconds)) return -1;
    poll_slack = seconds;
    return 0;
}

double kern_sim_poll_slack(void) { return poll_slack; }

int kern_sim_set_fault_cost(double ns_per_byte)
{
    if (!(ns_per_byte >= 0) || !isfinite(ns_per_byte)) return -1;
    fault_ns = ns_per_byte;
    return 0;
}

double kern_sim_fault_cost(void) { return fault_ns; }
