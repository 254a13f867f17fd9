/* guard.h — refusing what cannot work before it starts (memory the machine does not have; output
 * paths are outfile.h's), and a test-only fault injection hook (tests/faults.sh), so that crash and
 * hang handling can be tested on purpose:
 * DDL_FAULT_INJECT="RANK:STEP[:kill|stop]" — when rank RANK reaches step STEP (`ddlbench train`: a
 * training step, counted from 0 over warm-up and timed steps within a configuration, so the first
 * configuration fires it; `ddlbench allreduce`: an iteration, counted over the whole sweep), `kill`
 * (default) raises SIGKILL on itself — a crashed rank — and `stop` raises SIGSTOP — a hung rank, whose
 * peers' watchdogs must end the job.
 * DDL_FAULT_INJECT="slow:RANK:MS" — a straggler: rank RANK sleeps MS milliseconds inside its own timed
 * work at every step (`train`: after the forward pass, so its compute time grows and its peers wait
 * in exposed communication; `allreduce`: after ddl_allreduce returns, before its clock stops), so the
 * per-rank timing (--per-rank) and report.md must flag it. Never set it outside tests. */
#ifndef HARN_GUARD_H
#define HARN_GUARD_H

#include <stddef.h>

/* Reads and checks DDL_FAULT_INJECT (before MPI starts). 0 ok (also when unset), 2 malformed (message in err). */
int guard_fault_init(char *err, size_t errlen);
/* Called by `rank` at step `step`: does not return if the fault is due, else returns. */
void guard_fault_point(int rank, long step);
/* Called by `rank` inside its timed work: sleeps when DDL_FAULT_INJECT=slow:RANK:MS names it. */
void guard_slow_point(int rank);

/* Bytes of memory available to this process's rank: MemAvailable of /proc/meminfo (else physical
 * pages x page size) divided by the ranks the launcher put on this node (OMPI_COMM_WORLD_LOCAL_SIZE,
 * MPI_LOCALNRANKS); 0 when unknown. */
size_t guard_mem_per_rank(void);
/* 0 if `bytes` fit in guard_mem_per_rank() (or it is unknown); else 2 with "WHAT needs X GB but this
 * machine has Y GB available per rank; expected ..." in err. */
int guard_mem_check(double bytes, const char *what, const char *expected, char *err, size_t errlen);
/* Bytes a training step of m allocates per rank (float32). gemm mode (full = 0), trainer.c:
 * parameters, gradients, the largest K x N input and its gradient, the largest M x N output; full
 * mode: parameters, gradients, SGD velocity and step_full.c's activations, im2col matrix and gradient
 * slots (step_full_bytes). */
typedef struct model model;
double guard_model_bytes(const model *m, int full);

#endif
