/* switch_none.c — switch.h outside the simulation: a real machine's switches are not reachable as hosts,
 * so there is none; the callers keep their MPI point-to-point path. */
#include "switch.h"

void *coll_sw_self(void) { return 0; }
void *coll_sw_host(const char *key)
{
    (void)key;
    return 0;
}
double coll_sw_num(const char *key, double dflt)
{
    (void)key;
    return dflt;
}
int coll_sw_start(coll_sw_round *r, void *from, void *to, double bytes)
{
    (void)r, (void)from, (void)to, (void)bytes;
    return -1;
}
void coll_sw_wait(coll_sw_round *r) { r->n = 0; }
