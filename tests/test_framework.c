/* test_framework.c — the framework between gradients and allreduces (harness/train/framework.c):
 * buckets as they complete; Horovod's cycles at t0 + k x cycle (a unit ready exactly at a wake-up is
 * taken by it, an idle stretch skips wake-ups, never one taken twice), fusion in posting order up to
 * the cap with a larger tensor alone, no cap, decreasing ready times refused, the descriptions, and
 * the first-order contention (fw_slowdown): overlap clipped at the end of backward, the tail moved;
 * partial overlap (fw_hold): nothing enqueued before the share of the elements is ready, with buckets
 * and with cycles; the drain policy both backends share (fw_drain), on a fake backend: grouping at the
 * fusion cap, cycle wake-ups, each call from max(its enqueue, the previous end) paying the per-call
 * cost, comm contention's stretch held on the stream, contention moving the tail, partial overlap,
 * a backend that starts late, a failed call and decreasing ready times.
 * No MPI needed. */
#include "framework.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void check_buckets(void)
{
    framework fw = { 0, 0, 0, 0, 0, 0 };
    double ready[] = { 1, 2, 2, 5 };
    size_t count[] = { 10, 20, 30, 40 };
    fw_group g[4];
    int n = fw_groups(&fw, 0, ready, count, 4, 4, g);
    int ok = n == 4;
    for (int i = 0; ok && i < 4; i++)
        ok = g[i].first == i && g[i].n == 1 && g[i].count == count[i] && g[i].enqueue == ready[i];
    CHECK(ok, "buckets: one allreduce each, enqueued as ready (%d groups)", n);
    CHECK(fw_groups(NULL, 0, ready, count, 4, 4, g) == 4, "no framework: buckets");
    CHECK(fw_ideal(&fw) && fw_ideal(NULL), "all zeros is ideal");
    fw.call_s = 1e-6;
    CHECK(!fw_ideal(&fw), "a per-call cost is not ideal");
}

static void check_cycles(void)
{
    /* t0 = 10, cycle 5: wake-ups at 15, 20, 25, ... */
    framework fw = { 5, 0, 0, 0, 0, 0 };
    double ready[] = { 11, 14, 15, 16, 31, 31.5 };
    size_t count[] = { 1, 2, 3, 4, 5, 6 };
    fw_group g[6];
    int n = fw_groups(&fw, 10, ready, count, 6, 1, g);
    CHECK(n == 3, "cycles: three wake-ups take work (%d)", n);
    CHECK(g[0].first == 0 && g[0].n == 3 && g[0].count == 6 && near(g[0].enqueue, 15),
          "wake-up at 15 takes the units ready by 15, the one at exactly 15 too (%d %d %zu %g)", g[0].first, g[0].n,
          g[0].count, g[0].enqueue);
    CHECK(g[1].first == 3 && g[1].n == 1 && near(g[1].enqueue, 20), "16 waits for 20 (%g)", g[1].enqueue);
    CHECK(g[2].first == 4 && g[2].n == 2 && g[2].count == 11 && near(g[2].enqueue, 35),
          "31 and 31.5 skip the idle wake-ups to 35 (%g)", g[2].enqueue);
    double early[] = { 0, 0 };
    n = fw_groups(&fw, 10, early, count, 2, 1, g);
    CHECK(n == 1 && near(g[0].enqueue, 15), "ready before t0: the first wake-up, never t0 itself (%g)", g[0].enqueue);
}

static void check_fusion(void)
{
    framework fw = { 1, 64, 0, 0, 0, 0 }; /* 64 bytes; 4-byte elements */
    double ready[] = { 0.5, 0.5, 0.5, 0.5, 0.5 };
    size_t count[] = { 8, 8, 20, 4, 4 }; /* 32, 32, 80, 16, 16 bytes */
    fw_group g[5];
    int n = fw_groups(&fw, 0, ready, count, 5, 4, g);
    CHECK(n == 3, "fusion: three allreduces (%d)", n);
    CHECK(g[0].first == 0 && g[0].n == 2 && g[0].count == 16, "32 + 32 bytes fill the cap");
    CHECK(g[1].first == 2 && g[1].n == 1 && g[1].count == 20, "80 bytes, over the cap, alone");
    CHECK(g[2].first == 3 && g[2].n == 2 && g[2].count == 8 && near(g[2].enqueue, 1), "the rest, same wake-up");
    fw.fusion_bytes = 0;
    CHECK(fw_groups(&fw, 0, ready, count, 5, 4, g) == 1 && g[0].n == 5, "no cap: one allreduce");
}

static void check_bad_and_text(void)
{
    framework fw = { 5e-3, 64 << 20, 20e-6, 0, 0, 0 };
    double ready[] = { 2, 1 };
    size_t count[] = { 1, 1 };
    fw_group g[2];
    char buf[200];
    CHECK(fw_groups(&fw, 0, ready, count, 2, 4, g) == -1, "decreasing ready times refused");
    CHECK(fw_groups(&fw, 0, ready, count, 0, 4, g) == 0, "nothing posted: no allreduce");
    fw_describe(&fw, buf, sizeof buf);
    CHECK(strstr(buf, "cycles of 5 ms") && strstr(buf, "64 MiB") && strstr(buf, "20 us a call"), "description: %s",
          buf);
    framework ideal = { 0, 0, 0, 0, 0, 0 };
    fw_describe(&ideal, buf, sizeof buf);
    CHECK(strstr(buf, "buckets") && strstr(buf, "no per-call cost"), "ideal description: %s", buf);
}

static void check_slowdown(void)
{
    framework fw = { 0, 0, 0, 0.5, 0, 0 };
    /* backward ends at 10; allreduces: [2,4] inside, [8,12] half inside, [10,11] enqueued at the end */
    fw_group g[3] = { { 0, 1, 1, 2 }, { 1, 1, 1, 8 }, { 2, 1, 1, 10 } };
    double start[] = { 2, 8, 12 }, dur[] = { 2, 4, 1 }, end = 0;
    double extra = fw_slowdown(&fw, 10, g, start, dur, 3, &end);
    /* overlap 2 + 2 = 4, extra 2; the last is enqueued at 12, starts at max(12, 12, prev end 12) */
    CHECK(near(extra, 2) && near(end, 13), "contention: 50%% of 4 s overlapped = 2 s; tail ends at 13 (%g, %g)", extra,
          end);
    start[2] = 10, dur[1] = 1; /* [8,9] and the last at [10,11]: now the moved enqueue decides */
    extra = fw_slowdown(&fw, 10, g, start, dur, 3, &end);
    CHECK(near(extra, 1.5) && near(end, 12.5),
          "contention: the last allreduce starts at the moved end of backward (%g, %g)", extra, end);
    fw.contention = 0;
    extra = fw_slowdown(&fw, 10, g, start, dur, 3, &end);
    CHECK(extra == 0 && near(end, 11), "no contention: nothing added, the stream's own end (%g, %g)", extra, end);
    fw.contention = 0.25;
    extra = fw_slowdown(&fw, 10, g, start, dur, 0, &end);
    CHECK(extra == 0 && near(end, 10), "no allreduces: no overlap, the end of backward (%g, %g)", extra, end);
    CHECK(!fw_ideal(&fw), "contention is not ideal");
    char buf[200];
    CHECK(strstr(fw_describe(&fw, buf, sizeof buf), "compute 25% slower beside an allreduce") != NULL, "described: %s",
          buf);
}

static void check_comm_stretch(void)
{
    framework fw = { 0, 0, 0, 0, 1.5, 0 }; /* 2.5x slower beside compute */
    /* backward ends at 10: [2, 2+1] alone ends well inside, so all of it is slowed */
    CHECK(near(fw_comm_stretch(&fw, 2, 1, 10), 2.5), "comm contention: inside backward, 1 s takes 2.5 (%g)",
          fw_comm_stretch(&fw, 2, 1, 10));
    /* [8, 8+4]: 2 s before b1 do 0.8 s of its work, the other 3.2 s at its own rate after: 5.2 */
    CHECK(near(fw_comm_stretch(&fw, 8, 4, 10), 5.2), "comm contention: straddling the end of backward, 2 + 3.2 (%g)",
          fw_comm_stretch(&fw, 8, 4, 10));
    /* exactly filling the time before b1 when slowed: 4 s of work from 0 to 10 */
    CHECK(near(fw_comm_stretch(&fw, 0, 4, 10), 10), "comm contention: slowed to exactly the end of backward (%g)",
          fw_comm_stretch(&fw, 0, 4, 10));
    CHECK(fw_comm_stretch(&fw, 10, 3, 10) == 3 && fw_comm_stretch(&fw, 11, 3, 10) == 3,
          "comm contention: an allreduce from the end of backward on runs at its own rate");
    CHECK(fw_comm_stretch(&fw, 2, 0, 10) == 0, "comm contention: an empty allreduce stays empty");
    CHECK(!fw_ideal(&fw), "comm contention is not ideal");
    char buf[256];
    CHECK(strstr(fw_describe(&fw, buf, sizeof buf), "allreduces 150% slower beside backward compute") != NULL,
          "described: %s", buf);
    fw.comm_contention = 0;
    CHECK(fw_comm_stretch(&fw, 2, 1, 10) == 1 && fw_ideal(&fw), "no comm contention: unchanged, ideal");
    CHECK(fw_comm_stretch(NULL, 2, 1, 10) == 1, "no framework: unchanged");
}

static void check_hold(void)
{
    framework fw = { 0, 0, 0, 0, 0, 0.5 };
    double ready[] = { 1, 2, 4, 8 };
    size_t count[] = { 10, 40, 20, 30 }; /* half of the 100 elements are ready with the second unit */
    fw_group g[4];
    CHECK(near(fw_hold(&fw, ready, count, 4), 2), "hold: 50%% of the elements ready at 2 (%g)",
          fw_hold(&fw, ready, count, 4));
    int n = fw_groups(&fw, 0, ready, count, 4, 4, g), ok = n == 4;
    double want[] = { 2, 2, 4, 8 };
    for (int i = 0; ok && i < 4; i++) ok = g[i].first == i && g[i].n == 1 && near(g[i].enqueue, want[i]);
    CHECK(ok, "hold, buckets: the first waits for 2, the rest as ready (%d groups)", n);
    fw.overlap_from = 0.51;
    CHECK(near(fw_hold(&fw, ready, count, 4), 4), "hold: 51%% needs the third unit (%g)",
          fw_hold(&fw, ready, count, 4));
    fw.overlap_from = 1;
    n = fw_groups(&fw, 0, ready, count, 4, 4, g);
    ok = n == 4;
    for (int i = 0; ok && i < 4; i++) ok = near(g[i].enqueue, 8);
    CHECK(ok, "hold 100%%: every bucket enqueued when backward's last is ready");
    fw.cycle_s = 3; /* wake-ups at 3, 6, 9: held to 4, the first three go at 6, the last at 9 */
    fw.overlap_from = 0.6;
    n = fw_groups(&fw, 0, ready, count, 4, 4, g);
    CHECK(n == 2 && g[0].n == 3 && near(g[0].enqueue, 6) && g[1].first == 3 && near(g[1].enqueue, 9),
          "hold with cycles: the held units fused at the first wake-up after the hold (%d groups, %g)", n,
          g[0].enqueue);
    CHECK(fw_hold(&fw, ready, count, 0) == -INFINITY, "hold: nothing posted, no hold");
    fw = (framework){ 0, 0, 0, 0, 0, 0 };
    CHECK(fw_hold(&fw, ready, count, 4) == -INFINITY && fw_hold(NULL, ready, count, 4) == -INFINITY, "no hold at 0");
    fw.overlap_from = 0.25;
    char buf[256];
    CHECK(!fw_ideal(&fw) && strstr(fw_describe(&fw, buf, sizeof buf), "overlap from 25% of the gradients") != NULL,
          "partial overlap is not ideal; described: %s", buf);
}

/* A fake backend: an allreduce of n elements lasts call_s + n x per_elem; it starts at `at`, or at
 * `late` when that is later (a clock-driven backend, as the simulation engine). Records the calls. */
typedef struct fake {
    double per_elem, late;
    int fail_at;            /* the call that fails (-1: none) */
    int calls, holds;
    double at[8], hold[8];
} fake;

static int fake_call(void *a, int i, const fw_group *g, double at, double call_s, double *start, double *dur)
{
    fake *f = a;
    if (i == f->fail_at) return 7;
    f->at[f->calls++] = at;
    *start = at > f->late ? at : f->late;
    *dur = call_s + (double)g->count * f->per_elem;
    return 0;
}

static void fake_hold(void *a, double t)
{
    fake *f = a;
    f->hold[f->holds++] = t;
}

static void check_drain_stream(void)
{
    /* buckets, 1 s a call + 1 s per element: ready at 1, 2, 2.5, 9 with 1, 2, 1, 1 elements */
    framework fw = { 0, 0, 1, 0, 0, 0 };
    double ready[] = { 1, 2, 2.5, 9 }, start[4], dur[4];
    size_t count[] = { 1, 2, 1, 1 };
    fw_group g[4];
    fake f = { 1, 0, -1, 0, 0, { 0 }, { 0 } };
    fw_backend be = { fake_call, fake_hold, &f };
    fw_posts p = { 0, 10, ready, count, 4, 4 };
    fw_drained d;
    int rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    /* [1,3], [3,6] (waits for the first), [6,8], [9,11] (the stream idle from 8 to 9) */
    CHECK(rc == 0 && d.calls == 4 && near(f.at[1], 3) && near(f.at[2], 6) && near(f.at[3], 9),
          "drain: each call from max(its enqueue, the previous end) (%g %g %g)", f.at[1], f.at[2], f.at[3]);
    CHECK(near(dur[0], 2) && near(dur[1], 3) && near(d.busy_s, 9) && near(d.first_start, 1) && near(d.end, 11),
          "drain: the per-call cost in each duration; busy %g, end %g", d.busy_s, d.end);
    CHECK(f.holds == 0 && d.slowed_s == 0 && d.comm_slowed_s == 0, "drain: no contention, nothing held or added");
    f = (fake){ 1, 4, -1, 0, 0, { 0 }, { 0 } }; /* a clock backend that cannot start before 4 */
    rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    CHECK(rc == 0 && near(start[0], 4) && near(f.at[1], 6) && near(d.end, 13),
          "drain: a late start moves the next call's earliest start (%g, end %g)", f.at[1], d.end);
    p.n = 0;
    CHECK(fw_drain(&fw, &p, &be, g, start, dur, &d) == 0 && d.calls == 0 && d.end == 0 && d.first_start == 0,
          "drain: nothing posted, no call, end 0");
}

static void check_drain_cycles(void)
{
    /* cycles of 5 from t0 = 10, fused up to 12 bytes (3 elements of 4 bytes); 0.5 s per element */
    framework fw = { 5, 12, 0, 0, 0, 0 };
    double ready[] = { 11, 12, 13, 14, 16 }, start[5], dur[5];
    size_t count[] = { 1, 1, 1, 1, 1 };
    fw_group g[5];
    fake f = { 0.5, 0, -1, 0, 0, { 0 }, { 0 } };
    fw_backend be = { fake_call, NULL, &f };
    fw_posts p = { 10, 30, ready, count, 5, 4 };
    fw_drained d;
    int rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    /* wake-up 15 takes 11..14: 3 fill the 12-byte cap, the fourth alone; wake-up 20 takes 16 */
    CHECK(rc == 0 && d.calls == 3 && g[0].n == 3 && g[1].n == 1 && near(g[1].enqueue, 15) && near(g[2].enqueue, 20),
          "drain, cycles: fused at the cap, the rest of the wake-up after it (%d calls)", d.calls);
    CHECK(near(start[0], 15) && near(start[1], 16.5) && near(start[2], 20) && near(d.end, 20.5),
          "drain, cycles: the wake-up's second call after the first; the next cycle's at its wake-up (%g %g %g)",
          start[0], start[1], start[2]);
    fw.fusion_bytes = 16; /* exactly at the cap: four units of 4 bytes fit in one call */
    rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    CHECK(rc == 0 && d.calls == 2 && g[0].n == 4 && near(dur[0], 2),
          "drain, cycles: a call of exactly the cap fuses (%d)", d.calls);
}

static void check_drain_contention(void)
{
    /* backward ends at 10; comm 2.5x slower beside it; 1 s per element, no per-call cost */
    framework fw = { 0, 0, 0, 0, 1.5, 0 };
    double ready[] = { 2, 8, 12 }, start[3], dur[3];
    size_t count[] = { 1, 4, 1 };
    fw_group g[3];
    fake f = { 1, 0, -1, 0, 0, { 0 }, { 0 } };
    fw_backend be = { fake_call, fake_hold, &f };
    fw_posts p = { 0, 10, ready, count, 3, 4 };
    fw_drained d;
    int rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    /* [2, 2+2.5]; [8, 8+5.2] (check_comm_stretch's case); the last from 13.2 at its own rate */
    CHECK(rc == 0 && f.holds == 2 && near(f.hold[0], 4.5) && near(f.hold[1], 13.2) && near(start[2], 13.2),
          "drain: comm contention held on the stream to the slowed ends (%d holds, %g %g)", f.holds, f.hold[0],
          f.hold[1]);
    CHECK(near(d.comm_slowed_s, 1.5 + 1.2) && near(d.busy_s, 2.5 + 5.2 + 1) && near(d.end, 14.2),
          "drain: comm contention added %g s; busy %g, end %g", d.comm_slowed_s, d.busy_s, d.end);
    fw = (framework){ 0, 0, 0, 0.5, 0, 0 }; /* compute 1.5x slower beside an allreduce */
    rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    /* [2,3] and [8,12] overlap backward 1 + 2 = 3 s: 1.5 s more compute; the last, enqueued at 12 >= 10,
     * moves to 13.5 and ends at 14.5 */
    CHECK(rc == 0 && near(d.slowed_s, 1.5) && near(d.end, 14.5) && d.comm_slowed_s == 0,
          "drain: contention slows backward by %g s and moves the tail to %g", d.slowed_s, d.end);
}

static void check_drain_hold_and_errors(void)
{
    framework fw = { 0, 0, 0, 0, 0, 0.5 }; /* nothing enqueued before half the elements are ready */
    double ready[] = { 1, 2, 4, 8 }, start[4], dur[4];
    size_t count[] = { 10, 40, 20, 30 };
    fw_group g[4];
    fake f = { 0.01, 0, -1, 0, 0, { 0 }, { 0 } };
    fw_backend be = { fake_call, NULL, &f };
    fw_posts p = { 0, 8, ready, count, 4, 4 };
    fw_drained d;
    int rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    /* held to 2: [2, 2.1], [2.1, 2.5], [4, 4.2], [8, 8.3] */
    CHECK(rc == 0 && near(start[0], 2) && near(start[1], 2.1) && near(start[2], 4) && near(d.end, 8.3),
          "drain, partial overlap: the first waits for the hold (%g %g %g, end %g)", start[0], start[1], start[2],
          d.end);
    f.fail_at = 2;
    f.calls = 0;
    rc = fw_drain(&fw, &p, &be, g, start, dur, &d);
    CHECK(rc == 7 && d.calls == 2 && f.calls == 2,
          "drain: a failed call stops the drain with its code (%d, %d calls)", rc, d.calls);
    double back[] = { 2, 1 };
    p.ready = back, p.n = 2;
    CHECK(fw_drain(&fw, &p, &be, g, start, dur, &d) == -1 && d.calls == 0, "drain: decreasing ready times refused");
}

int main(void)
{
    check_buckets();
    check_cycles();
    check_fusion();
    check_bad_and_text();
    check_slowdown();
    check_comm_stretch();
    check_hold();
    check_drain_stream();
    check_drain_cycles();
    check_drain_contention();
    check_drain_hold_and_errors();
    return TEST_REPORT();
}
