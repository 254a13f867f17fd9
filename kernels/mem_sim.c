/* mem_sim.c — simulation backend of mem.h: big buffers come from SMPI_SHARED_MALLOC, which maps
 * every simulated rank's buffer allocated at the same call site onto the same physical pages, so
 * 256 ranks x 100 MB need one 100 MB copy. Contents are meaningless (ranks overwrite each other):
 * results cannot be validated in simulation. Sizes are rounded to 64 bytes as in mem_host.c.
 * Each SMPI_SHARED_MALLOC maps and populates every page of its size and its free unmaps them (a third
 * of a launch's CPU time when every configuration did it): freed buffers are kept per rank
 * (mem_pool.h; globals are per rank under SMPI) and reused by the next configuration.
 * kern_copy (the plain copy's cost by working set), kern_landed (the exchange's) and kern_posted (the
 * per-call overhead), kern_fresh_pages and kern_whole_message charge the calling rank's clock (sim.h);
 * all 0 unless the platform has them. */
#include "mem.h"
#include "mem_pool.h"
#include "sim.h"

#include <simgrid/actor.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void *shared_alloc(size_t bytes) { return SMPI_SHARED_MALLOC(bytes); }
static void shared_release(void *p) { SMPI_SHARED_FREE(p); }

static mem_pool pool = { shared_alloc, shared_release, { { NULL, 0, 0 } }, 0 };

void *kern_buf_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes) return NULL;
    return mem_pool_get(&pool, rounded ? rounded : 64);
}

void kern_buf_free(void *p) { mem_pool_put(&pool, p); }

void *kern_operand_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 64, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void kern_operand_free(void *p, size_t bytes)
{
    if (p) munmap(p, bytes ? bytes : 64);
}

/* The copy costs of issue 26 (mem.h), from the environment simlaunch.sh sets from the platform
 * directory's sim.env (`ddlbench platform` wrote it from a checked platform file): read once per
 * simulated rank, at the first copy. A malformed value ends the run with one line, exit 2. */
static int sim_env_read;

static void sim_env_load(void)
{
    size_t b[KERN_SIM_WS_POINTS];
    double ns[KERN_SIM_WS_POINTS], o;
    const char *why = NULL, *oh = getenv("DDL_SIM_CALL_OVERHEAD"), *ps = getenv("DDL_SIM_POLL_SLACK"),
               *fa = getenv("DDL_SIM_FAULT");
    static const char *const var[3] = { "DDL_SIM_WS_COPY", "DDL_SIM_COPY", "DDL_SIM_WHOLE" };
    int (*const set[3])(int, const size_t *, const double *) = { kern_sim_set_ws_table, kern_sim_set_copy_table,
                                                                 kern_sim_set_whole_table };
    char *end;
    int n;
    sim_env_read = 1;
    for (int k = 0; k < 3; k++) {
        const char *v = getenv(var[k]);
        if (!v || !*v) continue;
        if ((n = kern_sim_ws_parse(v, KERN_SIM_WS_POINTS, b, ns, &why)) < 0 || set[k](n, b, ns)) {
            fprintf(stderr, "ddlbench: %s: %s, got \"%.60s\"\n", var[k], why ? why : "bad table", v);
            exit(2);
        }
    }
    if (oh && *oh) {
        o = strtod(oh, &end);
        if (*end || end == oh || kern_sim_set_call_overhead(o)) {
            fprintf(stderr, "ddlbench: DDL_SIM_CALL_OVERHEAD: expected seconds >= 0, got \"%.60s\"\n", oh);
            exit(2);
        }
    }
    if (ps && *ps) {
        o = strtod(ps, &end);
        if (*end || end == ps || kern_sim_set_poll_slack(o)) {
            fprintf(stderr, "ddlbench: DDL_SIM_POLL_SLACK: expected seconds >= 0, got \"%.60s\"\n", ps);
            exit(2);
        }
    }
    if (fa && *fa) {
        o = strtod(fa, &end);
        if (*end || end == fa || kern_sim_set_fault_cost(o)) {
            fprintf(stderr, "ddlbench: DDL_SIM_FAULT: expected ns per byte >= 0, got \"%.60s\"\n", fa);
            exit(2);
        }
    }
}

static void sim_charge(double seconds)
{
    if (seconds > 0) sg_actor_sleep_for(seconds);
}

void kern_copy(void *dst, const void *src, size_t bytes)
{
    if (!sim_env_read) sim_env_load();
    memcpy(dst, src, bytes);
    size_t ws = kern_sim_working_set();
    sim_charge((double)bytes * kern_sim_copy_cost(ws > bytes ? ws : bytes) * 1e-9);
}

void kern_landed(size_t bytes)
{
    if (!sim_env_read) sim_env_load();
    size_t ws = kern_sim_working_set();
    if (ws <= bytes) return;
    double extra = kern_sim_ws_cost(ws) - kern_sim_ws_cost(bytes);
    sim_charge((double)bytes * extra * 1e-9);
}

void kern_posted(void)
{
    if (!sim_env_read) sim_env_load();
    sim_charge(kern_sim_call_overhead());
}

int kern_moves_posted(void) { return 1; }

void kern_fresh_pages(size_t bytes)
{
    if (!sim_env_read) sim_env_load();
    sim_charge((double)bytes * kern_sim_fault_cost() * 1e-9);
}

void kern_whole_message(size_t bytes)
{
    if (!sim_env_read) sim_env_load();
    sim_charge((double)bytes * kern_sim_whole_cost(bytes) * 1e-9);
}

/* The simulated clock moves by the pause the real one would take (SMPI's own time injected into the
 * MPI_Testall before it is switched off: smpi/test:0, simlaunch.sh). */
void kern_poll_pause(long us)
{
    if (!sim_env_read) sim_env_load();
    sg_actor_sleep_for((double)us * 1e-6 + kern_sim_poll_slack());
}
