/* step_full_plan.c — the full step's gradient buffers (see step_full.h, step_full_plan): a residual
 * block's shortcut shares the output's buffer, and a buffer's slot is reused once its last reader in
 * backward order is done. */
#include "step_full_priv.h"

#include <stdlib.h>

int step_full_plan(const model *m, int *gbuf, int *slot, int *nslots)
{
    int n = model_layer_count(m), used = 0, rc = 0;
    int *of = malloc((size_t)n * sizeof *of), *freelist = malloc((size_t)n * sizeof *freelist), nfree = 0;
    char *written = calloc((size_t)n, 1);
    if (!of || !freelist || !written) rc = -1;
    for (int l = 0; !rc && l < n; l++) gbuf[l] = l, of[l] = -1;
    for (int l = 0; !rc && l < n; l++) { /* residual blocks: the shortcut shares the output's buffer */
        const model_layer *L = model_layer_at(m, l);
        if (L->res_into < 0) continue;
        if (L->res_from == l) gbuf[l] = gbuf[L->res_into];
        else gbuf[L->res_into] = gbuf[L->res_from];
    }
    if (!rc && n) written[gbuf[n - 1]] = 1; /* the classifier's output gradient: the loss buffer */
    for (int l = n - 1; !rc && l >= 0; l--) {
        const model_layer *L = model_layer_at(m, l);
        if (!written[gbuf[l]] || (L->res_into >= 0 && !written[gbuf[L->res_into]])) rc = -1;
        for (int i = 0; !rc && i < nsrc(L); i++) {
            if (!writes_src(L, i)) continue;
            int g = gbuf[src_at(L, i)];
            if (g == gbuf[l]) rc = -1;
            else if (of[g] < 0 && g != gbuf[n - 1]) of[g] = nfree ? freelist[--nfree] : used++;
            written[g] = 1;
        }
        if (!rc && gbuf[l] == l && l != n - 1 && of[l] >= 0) freelist[nfree++] = of[l]; /* last reader */
    }
    for (int l = 0; !rc && l < n; l++) slot[l] = of[gbuf[l]]; /* -1: the loss buffer (or never written) */
    *nslots = used;
    free(of), free(freelist), free(written);
    return rc;
}
