/* watchdog_sim.c — simulation backend of watchdog.h: no thread (SMPI forbids them) and nothing to
 * watch (simulated time cannot hang on a wall clock; SimGrid reports deadlocks itself). */
#include "watchdog.h"

int watchdog_start(const char *prog)
{
    (void)prog;
    return 0;
}
void watchdog_arm(double seconds, const char *desc)
{
    (void)seconds;
    (void)desc;
}
void watchdog_note(const char *detail) { (void)detail; }
void watchdog_disarm(void) {}
void watchdog_exit_status(int status) { (void)status; }
void watchdog_stop(void) {}
