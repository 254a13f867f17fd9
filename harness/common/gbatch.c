/* gbatch.c — a global batch over p GPUs (gbatch.h). */
#include "gbatch.h"

#include <stdio.h>

int gbatch_split(long n, long p, long max_per, const char *opt, long *per, long *dropped, char *err, size_t errlen)
{
    if (p < 1) return snprintf(err, errlen, "%s: expected a positive GPU count, got %ld", opt, p), 2;
    if (n < 1 || n > GBATCH_MAX)
        return snprintf(err, errlen, "%s: expected an integer in 1..%ld, got %ld", opt, GBATCH_MAX, n), 2;
    if (n < p)
        return snprintf(err, errlen, "%s: global batch %ld is below the %ld GPUs; expected at least one image per "
                        "GPU (%ld or more)", opt, n, p, p), 2;
    long b = n / p;
    if (max_per > 0 && b > max_per)
        return snprintf(err, errlen, "%s: global batch %ld over %ld GPUs is %ld images per GPU; expected at most %ld",
                        opt, n, p, b, max_per), 2;
    *per = b;
    if (dropped) *dropped = n - b * p;
    return 0;
}

const char *gbatch_describe(long n, long p, char *buf, size_t len)
{
    long b = p > 0 ? n / p : 0, r = n - b * p;
    if (r)
        snprintf(buf, len, "global batch %ld over %ld GPUs: %ld per GPU, %ld image%s dropped (%ld does not divide by "
                 "%ld; %ld a step)", n, p, b, r, r == 1 ? "" : "s", n, p, b * p);
    else snprintf(buf, len, "global batch %ld over %ld GPUs: %ld per GPU", n, p, b);
    return buf;
}
