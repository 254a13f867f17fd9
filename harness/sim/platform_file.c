/* platform_file.c — the strict parser of platform files (format in platform_file.h; the writers:
 * platform_file_write.c). */
#include "platform_file.h"
#include "kv.h"
#include "parse.h"
#include "textfile.h"
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define WIDE PLATFORM_MAX_GPUS_PER_NODE /* nvlinks are read before gpus_per_node is known */

/* The keys: what each holds and where it goes. REQ: must be given (inter_bw or nic_bw: one of them). */
enum { T_NAME, T_INT, T_NUM, T_BW, T_LAT, T_RATIO, T_BOOL, T_FACTOR, T_LINKS, T_WS };
enum { REQ = 1, FIT = 2 };
typedef struct key {
    const char *name;
    int type, flags;
    size_t off;            /* into platform, or into platform_fit with FIT */
    double max;            /* T_INT: the largest value */
} key;

#define PF(f) offsetof(platform, f)
#define FT(f) offsetof(platform_fit, f)
static const key keys[] = {
    { "name", T_NAME, REQ, PF(name), 0 },
    { "gpus_per_node", T_INT, REQ, PF(gpus_per_node), 1e9 },
    { "intra_lat", T_LAT, REQ, PF(intra_lat), 0 },
    { "intra_bw", T_BW, REQ, PF(intra_bw), 0 },
    { "inter_lat", T_LAT, REQ, PF(inter_lat), 0 },
    { "inter_bw", T_BW, 0, PF(nic_bw), 0 },
    { "nic_bw", T_BW, 0, PF(nic_bw), 0 },
    { "nics", T_INT, 0, PF(nics), PLATFORM_MAX_GPUS_PER_NODE },
    { "profile", T_NAME, 0, PF(profile), 0 },
    { "sockets", T_INT, 0, PF(sockets), 2 },
    { "socket_bw", T_BW, 0, PF(socket_bw), 0 },
    { "socket_lat", T_LAT, 0, PF(socket_lat), 0 },
    { "leaf_nodes", T_INT, 0, PF(leaf_nodes), PLATFORM_MAX_NODES },
    { "rail_leaves", T_BOOL, 0, PF(rail_leaves), 0 },
    { "oversubscription", T_RATIO, 0, PF(oversub), 0 },
    { "spine_lat", T_LAT, 0, PF(spine_lat), 0 },
    { "nvlinks", T_LINKS, 0, PF(links), 0 },
    { "nvlink_bw", T_BW, 0, PF(link_bw), 0 },
    { "host_bw", T_BW, 0, PF(host_bw), 0 },
    { "host_lat", T_LAT, 0, PF(host_lat), 0 },
    { "intra_line_bw", T_BW, 0, PF(intra_line_bw), 0 },
    { "nic_line_bw", T_BW, 0, PF(nic_line_bw), 0 },
    { "nvls_bw", T_BW, 0, PF(nvls_bw), 0 },
    { "sharp_bw", T_BW, 0, PF(sharp_bw), 0 },
    { "intra_rms_pct", T_NUM, FIT, FT(rms_pct[0]), 0 },
    { "inter_rms_pct", T_NUM, FIT, FT(rms_pct[1]), 0 },
    { "intra_points", T_INT, FIT, FT(points[0]), 1e9 },
    { "inter_points", T_INT, FIT, FT(points[1]), 1e9 },
    { "lat_factor", T_FACTOR, FIT, FT(lat_factor), 0 },
    { "bw_factor", T_FACTOR, FIT, FT(bw_factor), 0 },
    { "ws_copy_ns", T_WS, FIT, FT(ws_copy), 0 },
    { "copy_ns", T_WS, FIT, FT(copy), 0 },
    { "call_overhead", T_LAT, FIT, FT(call_overhead), 0 },
    { "poll_slack", T_LAT, FIT, FT(poll_slack), 0 },
    { "fault_ns", T_NUM, FIT, FT(fault_ns), 0 },
    { "whole_ns", T_WS, FIT, FT(whole), 0 },
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))
enum { K_INTER_BW = 5, K_NIC_BW = 6 };

int platform_factor_check(const char *s, char *err, size_t errlen)
{
    double last = -1;
    int n = 0;
    while (*s) {
        char *end;
        errno = 0;
        double size = strtod(s, &end), f;
        if (end == s || end != s + parse_decimal_len(s) || *end != ':' || errno || !isfinite(size) ||
            size != floor(size) || *s == '+' || *s == '-') {
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
        if (end == s || end != s + parse_decimal_len(s) || errno || !isfinite(f) || !(f > 0) || (*end && *end != ';') ||
            *s == '+') {
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

/* A name-like value: 1..63 (profile: 31) of [A-Za-z0-9._-]. */
static int set_name(const key *k, const char *v, char *dst, char *err, size_t errlen)
{
    size_t n = strlen(v), max = k->off == PF(profile) ? 31 : 63;
    if (!n || n > max || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n)
        return snprintf(err, errlen, "%s: expected 1..%zu of [A-Za-z0-9._-], got \"%.40s\"", k->name, max, v), 2;
    memcpy(dst, v, n + 1);
    return 0;
}

/* A number in its kind's form: a bandwidth "400Gbit" / "50GB/s", a latency "3us", a ratio "2" or
 * "2:1", yes/no, or a plain decimal. 0, or 2 with err. */
static int value_of(const key *k, const char *v, double *d, char *err, size_t errlen)
{
    double a, b;
    const char *colon = strchr(v, ':');
    char head[64];
    switch (k->type) {
    case T_BW:
        if (platform_parse_bw(v, d)) break;
        return *d > 0 ? 0 : (snprintf(err, errlen, "%s: negative fit: expected a bandwidth > 0", k->name), 2);
    case T_LAT:
        if (!platform_parse_lat(v, d)) return 0;
        if (!number(v, d) && *d < 0) return snprintf(err, errlen, "%s: negative fit: expected >= 0 s", k->name), 2;
        return snprintf(err, errlen, "%s: expected a decimal latency like 3us or 2e-6 (s, ms, us, ns), got \"%.40s\"",
                        k->name, v), 2;
    case T_BOOL:
        if (!strcmp(v, "yes") || !strcmp(v, "1")) return *d = 1, 0;
        if (!strcmp(v, "no") || !strcmp(v, "0")) return *d = 0, 0;
        return snprintf(err, errlen, "%s: expected yes or no, got \"%.40s\"", k->name, v), 2;
    case T_RATIO:
        if (colon && (size_t)(colon - v) < sizeof head) { /* "2:1" */
            memcpy(head, v, (size_t)(colon - v)), head[colon - v] = '\0';
            if (!number(head, &a) && !number(colon + 1, &b) && a >= b && b > 0) return *d = a / b, 0;
        } else if (!number(v, d) && *d >= 1) {
            return 0;
        }
        return snprintf(err, errlen, "%s: expected a ratio >= 1 like 2 or 2:1 (1 = non-blocking), got \"%.40s\"",
                        k->name, v), 2;
    default:
        if (number(v, d)) break;
        if (*d < 0) return snprintf(err, errlen, "%s: negative fit: expected a number >= 0, got %.40s", k->name, v), 2;
        if (k->type == T_INT && (*d != floor(*d) || *d > k->max))
            return snprintf(err, errlen, "%s: expected a whole number 0..%.0f, got %.40s", k->name, k->max, v), 2;
        return 0;
    }
    if (k->type == T_BW && !number(v, d) && *d <= 0)
        return snprintf(err, errlen, "%s: negative fit: expected a bandwidth > 0", k->name), 2;
    return snprintf(err, errlen, "%s: expected a %s, got \"%.40s\"", k->name,
                    k->type == T_BW ? "decimal bandwidth like 400Gbit, 50GB/s or 5e10 (bytes/s)" : "decimal number", v),
           2;
}

/* nvlinks = 0-1:2,0-2,...: pairs of GPUs (0..63 here; checked against gpus_per_node later) with their
 * link counts (default 1), into the matrix at stride WIDE; platform_file_parse compacts it. */
/* The decimal digits at p (no sign, no blank: as every other number of the file), *end after them
 * (*end == p: none). */
static long digits(const char *p, char **end)
{
    *end = (char *)p;
    if (*p < '0' || *p > '9') return -1;
    return strtol(p, end, 10);
}

static int set_links(const char *v, unsigned char *wide, char *err, size_t errlen)
{
    const char *p = v;
    while (*p) {
        char *end;
        long a = digits(p, &end), b, k = 1;
        if (end == p || *end != '-' || a < 0 || a >= PLATFORM_MAX_GPUS_PER_NODE) break;
        p = end + 1, b = digits(p, &end);
        if (end == p || b < 0 || b >= PLATFORM_MAX_GPUS_PER_NODE || a == b) break;
        if (*end == ':') { p = end + 1, k = digits(p, &end); if (end == p || k < 1 || k > 18) break; }
        if (wide[a * WIDE + b]) return snprintf(err, errlen, "nvlinks: pair %ld-%ld given twice", a, b), 2;
        wide[a * WIDE + b] = wide[b * WIDE + a] = (unsigned char)k;
        if (*end == ',' && end[1]) { p = end + 1; continue; }
        if (!*end) return 0;
        break;
    }
    return snprintf(err, errlen, "nvlinks: expected GPU pairs like 0-1:2,0-2 (GPU-GPU[:links 1..18], comma "
                                 "separated), got \"%.40s\"", v), 2;
}

/* key k = value v: store into pf/fit. 0, or 2 with err (prefix added by the caller). */
static unsigned char wide_links[WIDE * WIDE]; /* the nvlinks of the file being parsed (one parse at a time) */

static int set_key(const key *k, const char *v, platform *pf, platform_fit *fit, char *err, size_t errlen)
{
    char *base = k->flags & FIT ? (char *)fit : (char *)pf;
    double d;
    if (k->type == T_NAME) return set_name(k, v, base + k->off, err, errlen);
    if (k->type == T_LINKS) return set_links(v, wide_links, err, errlen);
    if (k->type == T_FACTOR || k->type == T_WS) {
        char why[160];
        const char *w = "";
        if (k->type == T_WS && strlen(v) < PLATFORM_FACTOR_LEN &&
            kern_sim_ws_parse(v, KERN_SIM_WS_POINTS, NULL, NULL, &w) < 0)
            return snprintf(err, errlen, "%s: %s", k->name, w), 2;
        if (strlen(v) >= PLATFORM_FACTOR_LEN || (k->type == T_FACTOR && platform_factor_check(v, why, sizeof why)))
            return snprintf(err, errlen, "%s: %s", k->name,
                            strlen(v) >= PLATFORM_FACTOR_LEN ? "longer than 255 bytes" : why), 2;
        strcpy(base + k->off, v);
        return 0;
    }
    if (value_of(k, v, &d, err, errlen)) return 2;
    if (k->type == T_INT || k->type == T_BOOL) *(int *)(base + k->off) = (int)d;
    else *(double *)(base + k->off) = d;
    return 0;
}

/* One key = value line (kv.h). 0, or 2 with err. */
static int parse_pair(const char *p, char *v, platform *pf, platform_fit *fit, int *seen, char *err, size_t errlen)
{
    char why[120];
    if (kv_word(v, why, sizeof why)) {
        snprintf(err, errlen, "%.40s: %s", p, why);
        return 2;
    }
    int k = 0;
    while (k < NKEYS && strcmp(p, keys[k].name)) k++;
    if (k == NKEYS) {
        snprintf(err, errlen, "unknown key \"%.40s\" (the keys: harness/sim/platform_file.h; an example: ddlbench "
                              "platform --export dgxh200)", p);
        return 2;
    }
    if (seen[k]++) {
        snprintf(err, errlen, "key \"%s\" given twice", keys[k].name);
        return 2;
    }
    return set_key(&keys[k], v, pf, fit, err, errlen);
}

int platform_file_parse(const char *text, size_t len, const char *name, platform *pf, platform_fit *fit,
                        char *err, size_t errlen)
{
    int seen[NKEYS] = { 0 };
    platform p;
    platform_fit f, *fp = fit ? fit : &f;
    char why[300];
    memset(&p, 0, sizeof p);
    memset(fp, 0, sizeof *fp);
    memset(wide_links, 0, sizeof wide_links);
    p.nodes = 1;
    kv_reader r;
    char *key, *val;
    int got;
    kv_start(&r, text, len);
    while ((got = kv_next(&r, &key, &val, why, sizeof why)) == 1)
        if (parse_pair(key, val, &p, fp, seen, why, sizeof why)) break;
    if (got) { /* 1: a pair refused, 2: a line that is not one */
        snprintf(err, errlen, "platform file %s:%d: %s", name, r.lineno, why);
        return 2;
    }
    for (int k = 0; k < NKEYS; k++)
        if ((keys[k].flags & REQ) && !seen[k]) {
            snprintf(err, errlen, "platform file %s: missing key \"%s\"", name, keys[k].name);
            return 2;
        }
    if (seen[K_INTER_BW] + seen[K_NIC_BW] != 1) {
        snprintf(err, errlen, "platform file %s: %s", name, seen[K_NIC_BW] ? "inter_bw and nic_bw: expected one of "
                 "them (inter_bw: all of a node's NICs; nic_bw: each)" : "missing key \"inter_bw\" (or nic_bw)");
        return 2;
    }
    if (seen[K_INTER_BW] && platform_nics(&p) > 1) { /* 50GB/s meant per NIC would be taken as the node's: 8x */
        snprintf(err, errlen, "platform file %s: inter_bw with nics = %d: ambiguous (the node's %d NICs together, or "
                 "each?); expected nic_bw = each NIC's bandwidth (the node's is nics x nic_bw)", name, p.nics, p.nics);
        return 2;
    }
    if (seen[K_NIC_BW]) p.nic_bw *= platform_nics(&p), p.nic_line_bw *= platform_nics(&p);
    for (int a = 0; a < WIDE; a++) /* nvlinks at the file's gpus_per_node */
        for (int b = 0; b < WIDE; b++)
            if (wide_links[a * WIDE + b] && (a >= p.gpus_per_node || b >= p.gpus_per_node ||
                                            p.gpus_per_node > PLATFORM_LINK_GPUS)) {
                snprintf(err, errlen, "platform file %s: nvlinks: pair %d-%d outside gpus_per_node %d (at most %d "
                         "GPUs linked pair by pair)", name, a, b, p.gpus_per_node, PLATFORM_LINK_GPUS);
                return 2;
            } else if (wide_links[a * WIDE + b]) {
                p.links[a * p.gpus_per_node + b] = wide_links[a * WIDE + b];
            }
    if (p.inter_lat < p.intra_lat) {
        snprintf(err, errlen, "platform file %s: inter_lat %.3g s < intra_lat %.3g s: expected the latency to grow "
                              "from the node level to the network level", name, p.inter_lat, p.intra_lat);
        return 2;
    }
    platform at = p; /* checked on as many nodes as its leaf holds: --nodes comes later (platform_init) */
    at.nodes = p.leaf_nodes > 1 ? p.leaf_nodes : 1;
    if (platform_check(&at, why, sizeof why)) {
        snprintf(err, errlen, "platform file %s: %s", name, why);
        return 2;
    }
    *pf = p;
    return 0;
}

int platform_file_load(const char *path, platform *pf, platform_fit *fit, char *err, size_t errlen)
{
    char *buf = NULL, why[400];
    size_t len = 0;
    int rc = textfile_read(path, &buf, &len, why, sizeof why);
    if (rc) snprintf(err, errlen, "platform file %s", why);
    else rc = platform_file_parse(buf, len, path, pf, fit, err, errlen);
    free(buf);
    return rc;
}
