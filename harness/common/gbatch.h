/* gbatch.h — strong scaling: a fixed global batch divided over the GPUs (`--global-batch N` of train,
 * model train, advise, the study catalogue's `global_batch` and the sweep's GLOBAL_BATCH).
 * The rule, one for every front-end: each GPU takes floor(N / p) images; when p does not divide N
 * the remainder N mod p is dropped (as a data loader's drop_last), so the step runs p x floor(N / p)
 * images and says how many it dropped. N below p is refused: some GPU would have no image. Pure. */
#ifndef HARN_GBATCH_H
#define HARN_GBATCH_H

#include <stddef.h>

#define GBATCH_MAX 16777216L /* images per step over all GPUs (2^24; MLPerf's largest is 65,536) */

/* The rule in words, for --help: "floor(N / GPUs) per GPU; ...". */
#define GBATCH_RULE "each GPU takes floor(N / GPUs) images; the remainder N mod GPUs is dropped\n" \
                    "(as drop_last) and said; N below the GPU count is refused"

/* The per-GPU batch of global batch n over p GPUs into *per (and the images dropped into *dropped,
 * may be NULL). 0, or 2 with "OPT: ..." in err (opt names the option or key, e.g. "--global-batch"):
 * n < p, n or p not positive, or a per-GPU batch above max_per (0: no limit). */
int gbatch_split(long n, long p, long max_per, const char *opt, long *per, long *dropped, char *err, size_t errlen);

/* One line describing the split into buf ("global batch 3264 over 16 GPUs: 204 per GPU"; with the
 * dropped images when any). Returns buf. */
const char *gbatch_describe(long n, long p, char *buf, size_t len);

#endif
