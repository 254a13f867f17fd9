/* platform.c — the checks and the options of a platform (see platform.h for the model; platform_presets.c
 * holds the preset table, platform_xml.c writes it for SMPI, platform_file.c reads and writes it as a file). */
#include "platform.h"
#include "opts.h"
#include "parse.h"
#include "platform_file.h"
#include "profile.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int platform_is_file(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    return n && (strchr(s, '/') || (n > 9 && !strcmp(s + n - 9, ".platform")));
}

int platform_lookup(platform *pf, const char *preset, char *err, size_t errlen)
{
    if (platform_is_file(preset)) {
        if (platform_file_load(preset, pf, NULL, err, errlen)) return 2;
        pf->nodes = 0;
        return 0;
    }
    for (int i = 0; i < platform_preset_count(); i++)
        if (preset && !strcmp(preset, platform_preset(i)->name)) return *pf = *platform_preset(i), 0;
    snprintf(err, errlen, "--platform: expected %s or a platform file, got \"%.32s\"", platform_preset_names(),
             preset ? preset : "");
    return 2;
}

/* The first g GPUs of each node (or g of them where a node had fewer): the rails and socket halves they
 * use. Each NIC keeps its GPUs (its bandwidth: nic_bw / nics); g GPUs within one half use one socket. */
static int regroup(platform *pf, int g, char *err, size_t errlen)
{
    const int g0 = pf->gpus_per_node, r0 = platform_nics(pf), q = g0 / r0; /* GPUs per rail */
    const double per_nic = pf->nic_bw / r0;
    if (g < 1 || g > PLATFORM_MAX_GPUS_PER_NODE)
        return snprintf(err, errlen, "--gpus-per-node: expected 1..%d, got %d", PLATFORM_MAX_GPUS_PER_NODE, g), 2;
    if (r0 > 1 && g > q && g % q)
        return snprintf(err, errlen, "--gpus-per-node %d: expected whole rails of %d GPUs (platform %s: %d NICs for "
                                     "%d GPUs), or at most %d", g, q, pf->name, r0, g0, q), 2;
    const double per_line = pf->nic_line_bw / r0;
    if (r0 > 1) pf->nics = g > q ? g / q : 1, pf->nic_bw = per_nic * platform_nics(pf),
                pf->nic_line_bw = per_line * platform_nics(pf);
    if (platform_sockets(pf) == 2 && g != g0) {
        if (g > g0 / 2)
            return snprintf(err, errlen, "--gpus-per-node %d: platform %s has two sockets of %d GPUs; expected %d, "
                            "or at most %d", g, pf->name, g0 / 2, g0, g0 / 2), 2;
        pf->sockets = 1;
    }
    if (platform_has_links(pf)) { /* the first g GPUs' links among themselves */
        if (g > g0)
            return snprintf(err, errlen, "--gpus-per-node %d: platform %s links %d GPUs pair by pair; expected "
                            "at most %d", g, pf->name, g0, g0), 2;
        unsigned char sub[sizeof pf->links] = { 0 };
        for (int i = 0; i < g; i++)
            for (int j = 0; j < g; j++) sub[i * g + j] = pf->links[i * g0 + j];
        memcpy(pf->links, sub, sizeof sub);
    }
    pf->gpus_per_node = g;
    if (g < 2) pf->nvls_bw = 0; /* one GPU: nothing for the switch to reduce */
    return 0;
}

/* nodes and GPUs per node on a looked-up platform; partial: a leaf larger than the nodes is partly
 * filled (a preset's always is), else it is an error naming the file. */
static int place(platform *pf, const char *preset, int nodes, int gpus_per_node, int partial, char *err,
                 size_t errlen)
{
    char why[300];
    int from_file = platform_is_file(preset);
    pf->nodes = nodes;
    if ((partial || !from_file) && pf->leaf_nodes > nodes) pf->leaf_nodes = nodes;
    if (gpus_per_node && gpus_per_node != pf->gpus_per_node && regroup(pf, gpus_per_node, err, errlen)) return 2;
    if (nodes < 1 || nodes > PLATFORM_MAX_NODES)
        return snprintf(err, errlen, "--nodes: expected 1..%d, got %d", PLATFORM_MAX_NODES, nodes), 2;
    if (pf->gpus_per_node < 1 || pf->gpus_per_node > PLATFORM_MAX_GPUS_PER_NODE)
        return snprintf(err, errlen, "--gpus-per-node: expected 1..%d, got %d", PLATFORM_MAX_GPUS_PER_NODE,
                        pf->gpus_per_node), 2;
    if (!from_file) return strcmp(preset, "custom") ? platform_check(pf, err, errlen) : 0;
    if (!platform_check(pf, why, sizeof why)) return 0;
    snprintf(err, errlen, "platform file %s: %s%s", preset, why,
             strstr(why, "leaf_nodes: a leaf") ? " (or --partial-leaf)" : "");
    return 2;
}

int platform_init(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen)
{
    return platform_lookup(pf, preset, err, errlen) || place(pf, preset, nodes, gpus_per_node, 0, err, errlen) ? 2 : 0;
}

int platform_init_partial(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen)
{
    return platform_lookup(pf, preset, err, errlen) || place(pf, preset, nodes, gpus_per_node, 1, err, errlen) ? 2 : 0;
}

void platform_describe(const platform *pf, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%d GPUs/node%s%s: GPU link %.4g GB/s per GPU", pf->gpus_per_node,
                                pf->profile[0] ? " of " : "", pf->profile, pf->intra_bw / 1e9);
    if (n < len && pf->intra_line_bw > 0)
        n += (size_t)snprintf(buf + n, len - n, " (line %.4g)", pf->intra_line_bw / 1e9);
    if (n < len) n += (size_t)snprintf(buf + n, len - n, ", %.3g us", pf->intra_lat * 1e6);
    if (n < len && pf->nvls_bw > 0)
        n += (size_t)snprintf(buf + n, len - n, "; NVSwitch reduces (NVLS) at %.4g GB/s per GPU", pf->nvls_bw / 1e9);
    if (n < len && platform_sockets(pf) == 2)
        n += (size_t)snprintf(buf + n, len - n, "; 2 sockets over %.4g GB/s, %.3g us", pf->socket_bw / 1e9,
                              platform_socket_lat(pf) * 1e6);
    if (n < len && platform_has_links(pf))
        n += (size_t)snprintf(buf + n, len - n, "; direct NVLinks of %.4g GB/s, else the host at %.4g GB/s, %.3g us",
                              pf->link_bw / 1e9, pf->host_bw / 1e9, pf->host_lat * 1e6);
    if (n < len && platform_nics(pf) > 1)
        n += (size_t)snprintf(buf + n, len - n, "; %d NICs x %.4g GB/s = %.4g GB/s per node", platform_nics(pf),
                              pf->nic_bw / platform_nics(pf) / 1e9, pf->nic_bw / 1e9);
    else if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "; 1 NIC (or pipe) of %.4g GB/s per node", pf->nic_bw / 1e9);
    if (n < len && pf->nic_line_bw > 0)
        n += (size_t)snprintf(buf + n, len - n, " (line %.4g a NIC)", pf->nic_line_bw / platform_nics(pf) / 1e9);
    if (n < len) n += (size_t)snprintf(buf + n, len - n, ", %.3g us", pf->inter_lat * 1e6);
    if (n < len && pf->leaf_nodes)
        n += (size_t)snprintf(buf + n, len - n, "; leaves of %d nodes%s, %.3g:1, spine %.3g us", pf->leaf_nodes,
                              pf->rail_leaves ? " per rail" : "", platform_oversub(pf), platform_spine_lat(pf) * 1e6);
    if (n < len && pf->sharp_bw > 0)
        snprintf(buf + n, len - n, "; switches reduce (IB SHARP) at %.4g GB/s a NIC", pf->sharp_bw / 1e9);
}

void profile_stem(const char *s, char *out, size_t len)
{
    const char *b = strrchr(s, '/');
    size_t n;
    b = b ? b + 1 : s;
    n = strlen(b);
    if (n > 8 && !strcmp(b + n - 8, ".profile")) n -= 8;
    snprintf(out, len, "%.*s", (int)n, b);
}

int platform_profile(const platform *pf, const char *given, int override, const char **out, char *err, size_t errlen)
{
    char stem[256];
    if (!given) return *out = pf->profile[0] ? pf->profile : "p100", 0;
    profile_stem(given, stem, sizeof stem);
    *out = given;
    size_t own = strlen(pf->profile);
    if (override || !pf->profile[0] || !strcmp(stem, pf->profile) || strchr(given, '/') ||
        (!strncmp(stem, pf->profile, own) && stem[own] == '-'))
        return 0; /* a file: as given; NAME-x: the platform's GPU run another way (h100-amp) */
    profile probe;
    if (profile_load(given, &probe, err, errlen)) return 0; /* no such profile: the caller's load says so */
    snprintf(err, errlen, "--profile %.64s: platform %s has %s GPUs (its profile); expected %s, or --override-platform "
             "to run %.64s on it", given, pf->name, pf->profile, pf->profile, stem);
    return 2;
}

int platform_gpn_check(const char *preset, long gpus_per_node, int override, char *err, size_t errlen)
{
    platform pf;
    if (!preset || !strcmp(preset, "custom") || gpus_per_node <= 0 || override) return 0;
    if (platform_lookup(&pf, preset, err, errlen)) return 2;
    if (pf.gpus_per_node == gpus_per_node) return 0;
    snprintf(err, errlen, "--gpus-per-node %ld: platform %s has %d GPUs per node; expected %d, or --override-platform "
             "to run %ld per node on it", gpus_per_node, pf.name, pf.gpus_per_node, pf.gpus_per_node, gpus_per_node);
    return 2;
}

const char *platform_preset_names(void)
{
    static char names[256];
    size_t used = 0;
    const int n = platform_preset_count();
    for (int i = 0; i < n && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 i ? (i == n - 1 ? " or " : ", ") : "", platform_preset(i)->name);
    return names;
}

/* A bandwidth outside [1 kB/s, max]: slower than any link, or 0, would price a step as inf (issue 27). */
static int bad_positive(double v, double max) { return !(v >= 1e3 && v <= max) || !isfinite(v); }

/* nvlinks: within the node's GPUs, symmetric, none to itself, each count 1..18; their bandwidths. */
static int check_links(const platform *pf, char *err, size_t errlen)
{
    const int g = pf->gpus_per_node;
    if (g > PLATFORM_LINK_GPUS || platform_sockets(pf) == 2)
        return snprintf(err, errlen, "nvlinks: expected at most %d GPUs per node and one socket (the links are the "
                                     "node's topology)", PLATFORM_LINK_GPUS), 2;
    for (int i = 0; i < PLATFORM_LINK_GPUS * PLATFORM_LINK_GPUS; i++) {
        int a = i / g, b = i % g, k = pf->links[i];
        if (k && (i >= g * g || a == b || k > 18 || pf->links[b * g + a] != k))
            return snprintf(err, errlen, "nvlinks: expected pairs of GPUs 0..%d, each pair once, 1..18 links", g - 1),
                   2;
    }
    if (bad_positive(pf->link_bw, 1e15) || bad_positive(pf->host_bw, 1e15) || !(pf->host_lat >= pf->intra_lat) ||
        pf->host_lat > 1)
        return snprintf(err, errlen, "nvlinks: expected nvlink_bw and host_bw in [1k, 1P] bytes/s and host_lat in "
                                     "intra_lat..1 s"), 2;
    return 0;
}

/* Today's fields (platform.h), named as a platform file's keys. 0, or 2 with a message. */
static int platform_check_fabric(const platform *pf, char *err, size_t errlen)
{
    const int g = pf->gpus_per_node, s = platform_sockets(pf), r = platform_nics(pf);
    if (pf->sockets < 0 || pf->sockets > 2)
        return snprintf(err, errlen, "sockets: expected 1 or 2, got %d", pf->sockets), 2;
    if (s == 2 && (g % 2 || bad_positive(pf->socket_bw, 1e15)))
        return snprintf(err, errlen, "sockets = 2: expected an even gpus_per_node (got %d) and socket_bw in (0, 1P] "
                                     "bytes/s", g), 2;
    if (!(pf->socket_lat == 0 || (pf->socket_lat >= pf->intra_lat && pf->socket_lat <= 1)))
        return snprintf(err, errlen, "socket_lat: expected intra_lat..1 s"), 2;
    if (pf->nics < 0 || g % r || (s == 2 && r > 1 && r % 2))
        return snprintf(err, errlen, "nics: expected a divisor of gpus_per_node %d (a rail of gpus_per_node/nics GPUs "
                                     "per NIC; with sockets = 2, 1 or an even number), got %d", g, pf->nics), 2;
    if (pf->leaf_nodes < 0 || pf->leaf_nodes > PLATFORM_MAX_NODES || (pf->rail_leaves && pf->leaf_nodes < 1))
        return snprintf(err, errlen, "leaf_nodes: expected 1..%d nodes per leaf switch (0: one switch; rail_leaves "
                                     "needs leaves), got %d", PLATFORM_MAX_NODES, pf->leaf_nodes), 2;
    if (pf->rail_leaves != 0 && pf->rail_leaves != 1)
        return snprintf(err, errlen, "rail_leaves: expected yes or no"), 2;
    if (!(pf->oversub == 0 || (pf->oversub >= 1 && pf->oversub <= 1e6)))
        return snprintf(err, errlen, "oversubscription: expected a ratio >= 1 (1 = non-blocking), got %g", pf->oversub),
               2;
    if (!(pf->spine_lat == 0 || (pf->spine_lat >= pf->inter_lat && pf->spine_lat <= 1)))
        return snprintf(err, errlen, "spine_lat: expected inter_lat..1 s (a message across the spine also crosses "
                                     "its leaves)"), 2;
    if (platform_has_links(pf) && check_links(pf, err, errlen)) return 2;
    if (pf->intra_line_bw != 0 && !(pf->intra_line_bw >= pf->intra_bw && pf->intra_line_bw <= 1e15))
        return snprintf(err, errlen, "intra_line_bw: expected 0 (not given) or a line rate of at least intra_bw %.4g "
                        "GB/s (what is achieved stays under the line rate), got %.4g GB/s", pf->intra_bw / 1e9,
                        pf->intra_line_bw / 1e9), 2;
    if (pf->nic_line_bw != 0 && !(pf->nic_line_bw >= pf->nic_bw && pf->nic_line_bw <= 1e15))
        return snprintf(err, errlen, "nic_line_bw: expected 0 (not given) or a line rate of at least nic_bw %.4g "
                        "GB/s per NIC, got %.4g GB/s", pf->nic_bw / r / 1e9, pf->nic_line_bw / r / 1e9), 2;
    if (pf->nvls_bw != 0 && (platform_has_links(pf) || g < 2 || bad_positive(pf->nvls_bw, 1e15)))
        return snprintf(err, errlen, "nvls_bw: expected a GPU link rate in [1k, 1P] bytes/s on a node of 2 or more "
                        "GPUs on one NVSwitch (platform %s: %s)", pf->name,
                        platform_has_links(pf) ? "GPUs linked pair by pair (nvlinks), no switch to reduce"
                        : g < 2                ? "one GPU per node"
                                               : "bad rate"), 2;
    if (pf->sharp_bw != 0 && (!pf->leaf_nodes || bad_positive(pf->sharp_bw, 1e15)))
        return snprintf(err, errlen, "sharp_bw: expected a NIC rate in [1k, 1P] bytes/s on a fabric of leaf switches "
                        "(leaf_nodes; platform %s: %s)", pf->name, pf->leaf_nodes ? "bad rate" : "no leaf switches"), 2;
    if (pf->leaf_nodes > pf->nodes)
        return snprintf(err, errlen, "leaf_nodes: a leaf of %d nodes on %d nodes: expected at most the node count",
                        pf->leaf_nodes, pf->nodes), 2;
    return 0;
}

int platform_check(const platform *pf, char *err, size_t errlen)
{
    const char *what = NULL;
    if (pf->nodes < 1 || pf->nodes > PLATFORM_MAX_NODES) what = "--nodes: expected 1..16384";
    else if (pf->gpus_per_node < 1 || pf->gpus_per_node > PLATFORM_MAX_GPUS_PER_NODE)
        what = "--gpus-per-node: expected 1..64";
    else if ((long)pf->nodes * pf->gpus_per_node > PLATFORM_MAX_HOSTS)
        what = "--nodes x --gpus-per-node: expected at most 65536 GPUs";
    else if (bad_positive(pf->intra_bw, 1e15)) what = "--intra-bw: expected a bandwidth in [1k, 1P] bytes/s";
    else if (bad_positive(pf->nic_bw, 1e15)) what = "--inter-bw: expected a bandwidth in [1k, 1P] bytes/s";
    else if (!(pf->intra_lat >= 0 && pf->intra_lat <= 1)) what = "--intra-lat: expected 0..1 s";
    else if (!(pf->inter_lat >= pf->intra_lat && pf->inter_lat <= 1))
        what = "--inter-lat: expected intra-lat..1 s (a message between nodes also crosses GPU links)";
    if (!what) return platform_check_fabric(pf, err, errlen);
    snprintf(err, errlen, "%s", what);
    return 2;
}

/* number, then a suffix looked up in units[] (multipliers); "" must be listed to allow none */
typedef struct unit { const char *suffix; double mult, div; } unit; /* value x mult / div */

static int parse_with_units(const char *s, const unit *units, int nunits, double *out)
{
    char *end;
    size_t n = parse_decimal_len(s); /* decimal only: strtod alone would read 0x10, inf and nan */
    if (!n) return 2;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end != s + n || !isfinite(v) || v < 0) return 2;
    for (int i = 0; i < nunits; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            *out = v * units[i].mult / units[i].div;
            return 0;
        }
    return 2;
}

int platform_parse_bw(const char *s, double *out)
{
    static const unit u[] = {
        { "", 1, 1 }, { "Bps", 1, 1 }, { "B/s", 1, 1 },
        { "k", 1e3, 1 }, { "kBps", 1e3, 1 }, { "kB/s", 1e3, 1 }, { "M", 1e6, 1 }, { "MBps", 1e6, 1 },
        { "MB/s", 1e6, 1 }, { "G", 1e9, 1 }, { "GBps", 1e9, 1 }, { "GB/s", 1e9, 1 }, { "T", 1e12, 1 },
        { "TBps", 1e12, 1 }, { "TB/s", 1e12, 1 }, { "Mbit", 1e6, 8 }, { "Mbps", 1e6, 8 }, { "Gbit", 1e9, 8 },
        { "Gbps", 1e9, 8 }, { "Tbit", 1e12, 8 }, { "Tbps", 1e12, 8 },
    };
    return parse_with_units(s, u, (int)(sizeof u / sizeof u[0]), out);
}

int platform_parse_lat(const char *s, double *out)
{
    static const unit u[] = { { "", 1, 1 }, { "s", 1, 1 }, { "ms", 1, 1e3 }, { "us", 1, 1e6 }, { "ns", 1, 1e9 } };
    return parse_with_units(s, u, (int)(sizeof u / sizeof u[0]), out);
}

int platform_opt(int argc, char **argv, int *i, platform_opts *o, char *err, size_t errlen)
{
    const opts_set set = { platform_rows, PLATFORM_ROWS, o };
    opts_parser p = { &set, 1, NULL, 0, 0, { 0 } };
    int rc = opts_parse_one(&p, argc, argv, i, err, errlen);
    return rc == OPTS_NOT_MINE ? 1 : rc ? 2 : 0;
}

int platform_from_opts(const platform_opts *o, platform *pf, char *err, size_t errlen)
{
    const char *preset = o->preset ? o->preset : "minsky";
    int custom = strcmp(preset, "custom") == 0;
    if (o->nodes < 0) {
        snprintf(err, errlen, "--nodes: expected a positive integer (required)");
        return 2;
    }
    if (!custom && (o->intra_bw >= 0 || o->intra_lat >= 0 || o->inter_bw >= 0 || o->inter_lat >= 0)) {
        snprintf(err, errlen, "--intra-bw/--intra-lat/--inter-bw/--inter-lat: only with --preset custom");
        return 2;
    }
    if (platform_gpn_check(o->preset, o->gpus_per_node, o->override, err, errlen)) return 2; /* given: the truth */
    if ((o->partial_leaf ? platform_init_partial : platform_init)(pf, preset, (int)o->nodes, (int)o->gpus_per_node,
                                                                  err, errlen))
        return 2;
    if (!custom) return 0;
    if (o->intra_bw < 0 || o->intra_lat < 0 || o->inter_bw < 0 || o->inter_lat < 0) {
        snprintf(err, errlen, "--preset custom: expected --intra-bw, --intra-lat, --inter-bw and --inter-lat");
        return 2;
    }
    pf->intra_bw = o->intra_bw;
    pf->intra_lat = o->intra_lat;
    pf->nic_bw = o->inter_bw;
    pf->inter_lat = o->inter_lat;
    return platform_check(pf, err, errlen);
}

int platform_env(const char **name, long *gpus_per_node, char *err, size_t errlen)
{
    const char *n = getenv("DDL_SIM_PLATFORM"), *g = getenv("DDL_SIM_GPUS_PER_NODE");
    platform pf;
    char why[400], *end;
    *name = NULL, *gpus_per_node = 0;
    if (!n || !*n) return 0;
    if (platform_lookup(&pf, n, why, sizeof why))
        return snprintf(err, errlen, "DDL_SIM_PLATFORM (the platform folder's sim.env): %s", why), 2;
    long v = g && *g ? strtol(g, &end, 10) : pf.gpus_per_node;
    if (g && *g && (*end || v < 1 || v > 64))
        return snprintf(err, errlen, "DDL_SIM_GPUS_PER_NODE (the platform folder's sim.env): expected an integer in "
                        "1..64, got \"%.40s\"", g), 2;
    *name = n, *gpus_per_node = v;
    return 0;
}
