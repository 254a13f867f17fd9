/* framework.c — buckets or Horovod's cycles, turned into the step's allreduces (framework.h). */
#include "framework.h"

#include <math.h>
#include <stdio.h>

int fw_ideal(const framework *fw)
{
    return !fw || (fw->cycle_s <= 0 && fw->call_s <= 0 && fw->contention <= 0 && fw->comm_contention <= 0 &&
                   fw->overlap_from <= 0);
}

double fw_hold(const framework *fw, const double *ready, const size_t *count, int n)
{
    double total = 0, sum = 0;
    if (!fw || !(fw->overlap_from > 0) || n <= 0) return -INFINITY;
    for (int i = 0; i < n; i++) total += (double)count[i];
    for (int i = 0; i < n; i++) { /* the unit that brings the ready share to overlap_from (rounding aside) */
        sum += (double)count[i];
        if (sum >= fw->overlap_from * total * (1 - 1e-12)) return ready[i];
    }
    return ready[n - 1];
}

int fw_groups(const framework *fw, double t0, const double *ready, const size_t *count, int n, size_t esize,
              fw_group *g)
{
    int ng = 0;
    for (int i = 1; i < n; i++)
        if (ready[i] < ready[i - 1]) return -1;
    double hold = fw_hold(fw, ready, count, n); /* partial overlap: nothing enqueued before it */
#define READY(i) (ready[i] > hold ? ready[i] : hold)
    if (!fw || fw->cycle_s <= 0) { /* buckets: each unit as it completes */
        for (int i = 0; i < n; i++) g[ng++] = (fw_group){ i, 1, count[i], READY(i) };
        return ng;
    }
    long k = 0; /* the last wake-up taken */
    for (int i = 0; i < n;) {
        /* the first wake-up at or after unit i's readiness (a wake-up at exactly ready takes it) */
        long need = (long)ceil((READY(i) - t0) / fw->cycle_s - 1e-12);
        k = need > k + 1 ? need : k + 1;
        double wake = t0 + (double)k * fw->cycle_s;
        while (i < n && READY(i) <= wake + 1e-15) { /* every unit ready by this wake-up, fused in order */
            fw_group x = { i, 0, 0, wake };
            while (i < n && READY(i) <= wake + 1e-15 &&
                   (!x.n || !fw->fusion_bytes || (x.count + count[i]) * esize <= fw->fusion_bytes))
                x.count += count[i++], x.n++;
            g[ng++] = x;
        }
    }
#undef READY
    return ng;
}

double fw_slowdown(const framework *fw, double b1, const fw_group *g, const double *start, const double *dur, int n,
                   double *comm_end)
{
    double overlap = 0, end, extra;
    for (int i = 0; i < n; i++) {
        double e = start[i] + dur[i] < b1 ? start[i] + dur[i] : b1;
        if (e > start[i]) overlap += e - start[i];
    }
    extra = fw && fw->contention > 0 ? fw->contention * overlap : 0;
    end = b1 + extra;
    for (int i = 0; i < n; i++) {
        double enq = g[i].enqueue >= b1 - 1e-12 ? g[i].enqueue + extra : g[i].enqueue, s = start[i];
        if (enq > s) s = enq;
        if (i > 0 && end > s) s = end;
        end = s + dur[i];
    }
    *comm_end = end; /* b1 + extra when there are none */
    return extra;
}

double fw_comm_stretch(const framework *fw, double start, double dur, double b1)
{
    double c = fw ? fw->comm_contention : 0, before = b1 - start;
    if (!(c > 0) || !(dur > 0) || before <= 0) return dur;
    if (dur * (1 + c) <= before) return dur * (1 + c);
    return before + dur - before / (1 + c);
}

int fw_drain(const framework *fw, const fw_posts *p, const fw_backend *b, fw_group *g, double *start, double *dur,
             fw_drained *out)
{
    double call_s = fw ? fw->call_s : 0, end = 0;
    int ng = fw_groups(fw, p->t0, p->ready, p->count, p->n, p->esize, g), rc;
    *out = (fw_drained){ 0 };
    if (ng < 0) return -1;
    for (int i = 0; i < ng; i++) { /* one at a time, in enqueue order */
        double at = i > 0 && end > g[i].enqueue ? end : g[i].enqueue, s, d;
        if ((rc = b->call(b->arg, i, &g[i], at, call_s, &start[i], &d))) return rc;
        s = fw_comm_stretch(fw, start[i], d, p->b1); /* slowed beside backward's compute */
        if (s > d && b->hold) b->hold(b->arg, start[i] + s);
        out->comm_slowed_s += s - d;
        dur[i] = s, end = start[i] + s;
        if (i == 0) out->first_start = start[i];
        out->busy_s += s;
        out->calls++;
    }
    if (fw && fw->contention > 0) { /* the slowed compute, then the stream moved by it */
        double moved;
        out->slowed_s = fw_slowdown(fw, p->b1, g, start, dur, ng, &moved);
        if (ng) end = moved;
    }
    out->end = end;
    return 0;
}

const char *fw_describe(const framework *fw, char *buf, size_t len)
{
    int at = 0;
    if (!fw || fw->cycle_s <= 0) at = snprintf(buf, len, "buckets (an allreduce per bucket as it completes)");
    else if (fw->fusion_bytes)
        at = snprintf(buf, len, "cycles of %g ms (Horovod), the ready gradients fused up to %g MiB", fw->cycle_s * 1e3,
                      (double)fw->fusion_bytes / 1048576.0);
    else
        at =
            snprintf(buf, len, "cycles of %g ms (Horovod), the ready gradients fused without a cap", fw->cycle_s * 1e3);
    if (fw && fw->call_s > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "; %g us a call", fw->call_s * 1e6);
    else if (at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "; no per-call cost");
    if (fw && fw->contention > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "; compute %g%% slower beside an allreduce", fw->contention * 100);
    if (fw && fw->comm_contention > 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "; allreduces %g%% slower beside backward compute",
                       fw->comm_contention * 100);
    if (fw && fw->overlap_from > 0 && at >= 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, "; overlap from %g%% of the gradients (none enqueued before)",
                 fw->overlap_from * 100);
    return buf;
}
