/* counters_sim.c — counters.h in the simulation build: there is no hardware to count, so the
 * counters are unavailable and the CSV columns read NA. */
#include "counters.h"

#include <stdio.h>

int counters_open(char *why, size_t len)
{
    if (why && len) snprintf(why, len, "simulation build (no hardware to count)");
    return 1;
}

void counters_begin(void) {}
void counters_end(void) {}
void counters_take(counters_totals *out) { *out = (counters_totals){ -1, -1, -1 }; }
void counters_close(void) {}
