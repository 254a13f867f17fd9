/* model_cost.h — the analytic α-β-γ model of each allreduce algorithm on a platform (platform.h):
 * predicted seconds for n bytes on all the platform's ranks (docs/SOURCES.md §5), with α and β per link
 * level taken from the same platform table the SMPI XML is generated from, and γ from the device
 * profile. tests/sim_model.sh checks it against the simulation.
 *
 * Levels: a step whose message stays in a node costs α = intra_lat, β = 1/intra_bw; one that
 * crosses nodes costs α = inter_lat, β = max(1/intra_bw, k/nic_bw), where k is the number of the
 * node's GPUs sending off-node in that step at once (they share the NIC). Every step waits for its
 * slowest message. Pipelining of segments inside a step is not modelled (one α per step).
 *   ring  2(p-1) steps of n/p bytes + γ·n(p-1)/p
 *   rhd   fold (p not 2^k: n bytes each way, + γn), lg q halving steps of n/2..n/q, the mirror
 *         doubling steps, γ·n(q-1)/q
 *   ddl   per grid dimension i (stride s = d1..d(i-1), data n/s): ring or rhd as above on d_i ranks;
 *         + γ·n(p-1)/p in total
 *   mpi   assumption — what Open MPI's coll/tuned fixed decision picks for allreduce (4.x): recursive
 *         doubling below 10,000 bytes (lg q steps of n bytes, + fold), the ring above. */
#ifndef HARN_MODEL_COST_H
#define HARN_MODEL_COST_H

#include "platform.h"

typedef struct cost_opts {
    const char *grid;      /* ddl: "4x16x4"; NULL = derived as the library does (ranks per node x ...) */
    const char *patterns;  /* ddl: "ring,rhd,..." per dimension; NULL = ring */
    double gamma;          /* s per byte reduced (profile reduce_ns_per_byte x 1e-9); 0 = free */
} cost_opts;

/* Predicted seconds for one allreduce of n bytes with algorithm algo (ring, rhd, ddl, mpi) over all
 * ranks of pf. Returns 0, or 2 with a one-line message (unknown algorithm, grid not matching). */
int model_cost(const platform *pf, const char *algo, double n, const cost_opts *o, double *seconds,
               char *err, size_t errlen);

#endif
