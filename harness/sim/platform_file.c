/* platform_file.c — the strict parser and writer of platform files (format in platform_file.h). */
#include "platform_file.h"
#include "outfile.h"
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 1000

enum { K_NAME, K_GPN, K_ILAT, K_IBW, K_XLAT, K_XBW, K_IRMS, K_XRMS, K_IPTS, K_XPTS, K_LATF, K_BWF, K_COUNT };
static const char *const keys[K_COUNT] = { "name", "gpus_per_node", "intra_lat", "intra_bw", "inter_lat",
                                           "inter_bw", "intra_rms_pct", "inter_rms_pct", "intra_points",
                                           "inter_points", "lat_factor", "bw_factor" };
#define REQUIRED 6 /* the first six keys */

int platform_factor_check(const char *s, char *err, size_t errlen)
{
    double last = -1;
    int n = 0;
    while (*s) {
        char *end;
        errno = 0;
        double size = strtod(s, &end), f;
        if (end == s || end != s + parse_decimal_len(s) || *end != ':' || errno || !isfinite(size) || size != floor(size) || *s == '+' || *s == '-') {
            snprintf(err, errlen, "expected SIZE:FACTOR pairs separated by ';' (SIZE a whole number of bytes)");
            return 2;
        }
        if (n == 0 && size != 0) {
            snprintf(err, errlen, "the first SIZE must be 0, got %.0f", size);
            return 2;
        }
        if (size <= last) {
            snprintf(err, errlen, "sizes not increasing (%.0f after %.0f): expected a monotonic list", size, last);
            return 2;
        }
        s = end + 1;
        errno = 0;
        f = strtod(s, &end);
        if (end == s || end != s + parse_decimal_len(s) || errno || !isfinite(f) || !(f > 0) || (*end && *end != ';') || *s == '+') {
            snprintf(err, errlen, "factor at size %.0f: expected a number > 0", size);
            return 2;
        }
        last = size, n++;
        s = *end ? end + 1 : end;
        if (end[0] == ';' && !end[1]) {
            snprintf(err, errlen, "trailing ';'");
            return 2;
        }
    }
    if (!n) snprintf(err, errlen, "empty list; expected SIZE:FACTOR pairs");
    return n ? 0 : 2;
}

static int number(const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end); /* decimal only: strtod alone would read 0x10, inf and nan */
    return !*v || *end || errno || !isfinite(*out) || parse_decimal_len(v) != strlen(v);
}

/* key (index k) = value v: store into pf/fit. 0, or 2 with err (prefix added by the caller). */
static int set_key(int k, const char *v, platform *pf, platform_fit *fit, char *err, size_t errlen)
{
    double d;
    if (k == K_NAME) {
        size_t n = strlen(v);
        if (!n || n > 63 || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n) {
            snprintf(err, errlen, "name: expected 1..63 of [A-Za-z0-9._-], got \"%.40s\"", v);
            return 2;
        }
        memcpy(pf->name, v, n + 1);
        return 0;
    }
    if (k == K_LATF || k == K_BWF) {
        char why[160];
        if (strlen(v) >= PLATFORM_FACTOR_LEN || platform_factor_check(v, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", keys[k], strlen(v) >= PLATFORM_FACTOR_LEN ? "longer than 255 bytes" : why);
            return 2;
        }
        strcpy(k == K_LATF ? fit->lat_factor : fit->bw_factor, v);
        return 0;
    }
    if (number(v, &d)) {
        snprintf(err, errlen, "%s: expected a decimal number, got \"%.40s\"", keys[k], v);
        return 2;
    }
    int integer = k == K_GPN || k == K_IPTS || k == K_XPTS, bw = k == K_IBW || k == K_XBW;
    if (d < 0 || (bw && d == 0)) {
        snprintf(err, errlen, "%s: negative fit: expected a number %s 0, got %.40s", keys[k], bw ? ">" : ">=", v);
        return 2;
    }
    if (integer && (d != floor(d) || d > 1e9)) {
        snprintf(err, errlen, "%s: expected a whole number, got %.40s", keys[k], v);
        return 2;
    }
    switch (k) {
    case K_GPN: pf->gpus_per_node = (int)d; break;
    case K_ILAT: pf->intra_lat = d; break;
    case K_IBW: pf->intra_bw = d; break;
    case K_XLAT: pf->inter_lat = d; break;
    case K_XBW: pf->nic_bw = d; break;
    case K_IRMS: fit->rms_pct[0] = d; break;
    case K_XRMS: fit->rms_pct[1] = d; break;
    case K_IPTS: fit->points[0] = (int)d; break;
    default: fit->points[1] = (int)d; break;
    }
    return 0;
}

/* One line [s, end). 0, or 2 with err. */
static int parse_line(const char *s, const char *end, platform *pf, platform_fit *fit, int *seen, char *err,
                      size_t errlen)
{
    char line[LINE_MAX_BYTES + 1], *p, *eq, *v, *ve;
    memcpy(line, s, (size_t)(end - s));
    line[end - s] = '\0';
    if ((p = strchr(line, '#'))) *p = '\0';
    for (p = line; *p == ' ' || *p == '\t'; p++) {}
    if (!*p || *p == '\r') return 0;
    if (!(eq = strchr(p, '='))) {
        snprintf(err, errlen, "expected \"key = value\"");
        return 2;
    }
    for (ve = eq; ve > p && strchr(" \t", ve[-1]); ve--) {}
    *ve = '\0';
    for (v = eq + 1; *v == ' ' || *v == '\t'; v++) {}
    for (ve = v + strlen(v); ve > v && strchr(" \t\r", ve[-1]); ve--) {}
    *ve = '\0';
    if (strpbrk(v, " \t")) {
        snprintf(err, errlen, "%.40s: expected one value, then at most a # comment", p);
        return 2;
    }
    int k = 0;
    while (k < K_COUNT && strcmp(p, keys[k])) k++;
    if (k == K_COUNT) {
        snprintf(err, errlen, "unknown key \"%.40s\" (expected name, gpus_per_node, intra_lat, intra_bw, "
                              "inter_lat, inter_bw, *_rms_pct, *_points, lat_factor, bw_factor)", p);
        return 2;
    }
    if (seen[k]++) {
        snprintf(err, errlen, "key \"%s\" given twice", keys[k]);
        return 2;
    }
    return set_key(k, v, pf, fit, err, errlen);
}

int platform_file_parse(const char *text, size_t len, const char *name, platform *pf, platform_fit *fit,
                        char *err, size_t errlen)
{
    int seen[K_COUNT] = { 0 }, lineno = 0;
    platform p;
    platform_fit f, *fp = fit ? fit : &f;
    char why[300];
    memset(&p, 0, sizeof p);
    memset(fp, 0, sizeof *fp);
    p.nodes = 1;
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "platform file %s: contains a NUL byte; expected key = value text", name);
        return 2;
    }
    for (const char *s = text, *end = text + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        lineno++;
        if (!nl || nl - s > LINE_MAX_BYTES) {
            snprintf(err, errlen, "platform file %s:%d: %s", name, lineno,
                     nl ? "line longer than 1000 bytes" : "last line has no newline (truncated file?)");
            return 2;
        }
        if (parse_line(s, nl, &p, fp, seen, why, sizeof why)) {
            snprintf(err, errlen, "platform file %s:%d: %s", name, lineno, why);
            return 2;
        }
        s = nl + 1;
    }
    for (int k = 0; k < REQUIRED; k++)
        if (!seen[k]) {
            snprintf(err, errlen, "platform file %s: missing key \"%s\"", name, keys[k]);
            return 2;
        }
    if (p.inter_lat < p.intra_lat) {
        snprintf(err, errlen, "platform file %s: inter_lat %.3g s < intra_lat %.3g s: expected the latency to grow "
                              "from the node level to the network level", name, p.inter_lat, p.intra_lat);
        return 2;
    }
    if (platform_check(&p, why, sizeof why)) {
        snprintf(err, errlen, "platform file %s: %s", name, why);
        return 2;
    }
    *pf = p;
    return 0;
}

int platform_file_load(const char *path, platform *pf, platform_fit *fit, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    int rc = 2;
    if (!f) {
        snprintf(err, errlen, "platform file %s: cannot open: %s", path, strerror(errno));
        return 2;
    }
    size_t len = 0;
    if (!(buf = malloc(PLATFORM_FILE_MAX_BYTES + 1))) snprintf(err, errlen, "platform file %s: out of memory", path);
    else if ((len = fread(buf, 1, PLATFORM_FILE_MAX_BYTES + 1, f)), ferror(f))
        snprintf(err, errlen, "platform file %s: read error", path);
    else if (len > PLATFORM_FILE_MAX_BYTES)
        snprintf(err, errlen, "platform file %s: larger than %d bytes", path, PLATFORM_FILE_MAX_BYTES);
    else
        rc = platform_file_parse(buf, len, path, pf, fit, err, errlen);
    fclose(f);
    free(buf);
    return rc;
}

int platform_file_write(const char *path, const platform *pf, const platform_fit *fit, const char *header,
                        char *err, size_t errlen)
{
    outfile o;
    if (outfile_open(&o, path, err, errlen)) return 1;
    FILE *f = o.f;
    for (const char *h = header; h && *h;) {
        size_t n = strcspn(h, "\n");
        fprintf(f, "# %.*s\n", (int)n, h);
        h += n + (h[n] == '\n');
    }
    fprintf(f, "name = %s\ngpus_per_node = %d\nintra_lat = %.6g\nintra_bw = %.6g\ninter_lat = %.6g\ninter_bw = %.6g\n",
            pf->name, pf->gpus_per_node, pf->intra_lat, pf->intra_bw, pf->inter_lat, pf->nic_bw);
    fprintf(f, "intra_rms_pct = %.3g\ninter_rms_pct = %.3g\nintra_points = %d\ninter_points = %d\n", fit->rms_pct[0],
            fit->rms_pct[1], fit->points[0], fit->points[1]);
    if (fit->lat_factor[0]) fprintf(f, "lat_factor = %s\n", fit->lat_factor);
    if (fit->bw_factor[0]) fprintf(f, "bw_factor = %s\n", fit->bw_factor);
    return outfile_commit(&o, err, errlen);
}

int platform_write_smpi_cfg(const platform_fit *fit, FILE *f)
{
    if (fit->lat_factor[0]) fprintf(f, "--cfg=smpi/lat-factor:%s\n", fit->lat_factor);
    if (fit->bw_factor[0]) fprintf(f, "--cfg=smpi/bw-factor:%s\n", fit->bw_factor);
    return ferror(f) ? -1 : 0;
}
