/* watchdog.h — no silent hangs: a per-rank deadline that the loops arm and disarm.
 * watchdog_start() starts one small thread per process. A loop arms a deadline with a description
 * ("train ring step 3"); the communication engine adds what it is doing ("bucket 2 (25.0 MB)"). If
 * the deadline passes while armed, the thread prints ONE line on stderr naming rank, description,
 * detail and timeout, then MPI_Abort(MPI_COMM_WORLD, 1) ends the whole job with a non-zero status
 * (watchdog_exit_status: another)
 * (and, should MPI_Abort itself hang, an alarm ends the process 10 s later). Arming and noting copy
 * into fixed buffers under a mutex: nothing is allocated, so timed loops may arm every iteration.
 * Simulation build (watchdog_sim.c): SMPI allows no extra threads and simulated time never hangs on
 * a wall clock, so every function is a no-op there.
 * Defaults and why: cli_train.c, bench_allreduce.c. Test hook for hangs and crashes: guard.h (DDL_FAULT_INJECT). */
#ifndef HARN_WATCHDOG_H
#define HARN_WATCHDOG_H

#include <stddef.h>

#define WATCHDOG_DESC 160 /* description and detail buffers, bytes */

/* Starts the thread; prog prefixes the message ("ddlbench train"). 0 ok, -1 no thread. Idempotent. */
int watchdog_start(const char *prog);
/* Deadline `seconds` from now (<= 0: disarm) for the work described by desc (copied, truncated). */
void watchdog_arm(double seconds, const char *desc);
/* Detail of the current sub-operation (copied), e.g. "bucket 2 (25.0 MB)"; NULL or "" clears it. */
void watchdog_note(const char *detail);
void watchdog_disarm(void);
/* The job's exit status when the watchdog fires (default 1; calibrate --network: 2, a peer that cannot
 * be reached being bad input there). */
void watchdog_exit_status(int status);
/* Stops and joins the thread (before MPI_Finalize). */
void watchdog_stop(void);

#endif
