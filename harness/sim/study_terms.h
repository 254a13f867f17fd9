/* study_terms.h — two per-step terms a catalogue entry's published figure carries beyond the step schedule
 * (study.h applies them; each entry sources its own inputs, docs/SOURCES.md §17):
 *
 * The epoch's padded last step. MLPerf ResNet-50's logged throughput is epoch_examples / the epoch's time
 * (fit.py's `speed`), while the GPUs run whole batches: so many steps an epoch that the images processed
 * exceed the examples. The published per-GPU efficiency is then the step efficiency x r(run) / r(baseline),
 * r = epoch_examples x median over epochs of 1/steps / global batch (r = 1: no padding). Two iterators:
 *   fill   every epoch ceil(floor(N / W) / B) steps (DALI's LastBatchPolicy.FILL over N / W examples a
 *          rank; fit.py's get_epoch_size), W GPUs, B a GPU's batch.
 *   carry  MXNet's RateMatchInputIterator: steps of W x B images until the count reaches N, the surplus
 *          carried into the next epoch (epochs of ceil or floor of N / (W B) steps). Two readings, a corner
 *          each: the median over the run's epochs without noise (the longer epochs where they are the
 *          majority), or the mean epoch (N / (W B) steps: the median when the epochs' noise exceeds
 *          their one-step difference).
 *
 * Horovod's per-cycle coordination. Each cycle of Horovod's background thread, before it launches the
 * allreduces the ranks agree on, the ranks AND a bit vector of their cached tensors (one bit a tensor, 3
 * status bits: horovod/common/response_cache.cc, CacheCoordinator::sync) in one MPI_Allreduce over all
 * ranks (mpi_controller.cc, CrossRankBitwiseAnd): a small allreduce on the critical path of every step, priced
 * as recursive doubling's lg p rounds at the platform's latencies (an assumption: the log-depth small-message
 * algorithm; Open MPI 4.1's tuned table, the `mpi` row, would take a segmented ring at 16-63 ranks and reduce +
 * bcast from 256, and the MXNet containers' MPI is not logged). */
#ifndef HARN_STUDY_TERMS_H
#define HARN_STUDY_TERMS_H

#include "platform.h"

#include <stddef.h>

enum { EPOCH_FILL = 1, EPOCH_CARRY = 2 }; /* study_entry's epoch_steps, base_epoch_steps (0: not given) */
#define EPOCH_MAX_EPOCHS 1000           /* epochs: the run's epochs the median is over */
#define EPOCH_READINGS 2                /* carry: the noise-free median epoch, the mean epoch */

/* "fill" or "carry" into *mode (EPOCH_*); 0, or -1. */
int epoch_mode_parse(const char *v, int *mode);
/* The name of mode ("fill", "carry"; "?" for another). */
const char *epoch_mode_name(int mode);

/* r of one run (above): n examples an epoch over w GPUs at b images each, `mode`'s iterator over `epochs`
 * epochs (carry only); r[0] the median reading, r[1] the mean's (fill: both the same). The readings: 1 or 2.
 * Needs n >= w >= 1, b >= 1, epochs >= 1 (carry). */
int epoch_ratio(long n, long w, long b, int mode, int epochs, double r[EPOCH_READINGS]);

/* GPU-to-GPU speed spread (gpu_spread_pct): each GPU's compute time fixed for the run at (1 + s Z), Z standard
 * normal (the form an assumption), so a synchronous step waits for the slowest of its N GPUs: 1 + s E[max of N Z].
 * Unlike jitter_pct (per-step noise, redrawn every step, Exp-distributed, GEMMs only: perf_step.h), the spread is
 * persistent and applies to the whole compute. E[max of n standard normals] by quadrature (0 for n = 1, 1/sqrt(pi)
 * for 2); n in 1..PLATFORM_MAX_HOSTS. */
double spread_max_mean(int n);
/* The scaled run's compute factor against a baseline of `base` GPUs whose published rate already holds its own
 * slowest GPU: (1 + s m(gpus)) / (1 + s m(base)), s = pct / 100; 1 for gpus <= base. */
double spread_factor(double pct, int gpus, int base);

/* Seconds of Horovod's coordination of `bytes` (> 0) over every rank of pf (0 on one rank); 0, or 2 with err. */
int sync_seconds(const platform *pf, double bytes, double *seconds, char *err, size_t errlen);

#endif
