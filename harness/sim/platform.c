/* platform.c — the preset table, the checks and the options of a platform (see platform.h for the
 * model; platform_xml.c writes it for SMPI, platform_file.c reads and writes it as a file). */
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

typedef struct preset_row {
    platform pf;          /* nodes = 0: set by the caller */
    const char *help;     /* one line */
} preset_row;

static const preset_row presets[] = {
    /* IBM S822LC "Minsky" (the DDL study, arXiv 1708.02188; docs/SOURCES.md §1):
     *   4 P100 per node (docs/SOURCES.md §1);
     *   intra_bw 80 GB/s: NVLink 1.0, 4 links x 20 GB/s per direction per P100 (docs/SOURCES.md §1). The real
     *     Minsky splits them between the pair GPU and the CPU; a star at 80 GB/s is an upper bound;
     *   intra_lat 5 us: assumption (GPU-to-GPU MPI message in a node; not checked);
     *   nic_bw 12.5 GB/s: one InfiniBand EDR port, 100 Gb/s (docs/SOURCES.md §1; ports per server unconfirmed);
     *   inter_lat 10 us: assumption (IB EDR ~1 us plus GPU staging; not checked). */
    { { .name = "minsky", .gpus_per_node = 4, .intra_bw = 80e9, .intra_lat = 5e-6, .nic_bw = 12.5e9, .inter_lat = 10e-6,
        .profile = "p100" },
      "IBM Minsky: 4 P100/node, NVLink 1.0, IB EDR 100 Gb/s" },
    /* Facebook Big Basin (Goyal et al., arXiv 1706.02677; docs/SOURCES.md §2):
     *   8 P100 per node (docs/SOURCES.md §2); intra_bw 80 GB/s: P100 SXM2 NVLink 1.0, 4 x 20 GB/s
     *   (docs/SOURCES.md §1);
     *   intra_lat 5 us: assumption; nic_bw 6.25 GB/s: 50 Gbit Ethernet per server (docs/SOURCES.md §2);
     *   inter_lat 30 us: assumption (TCP over Ethernet through Gloo; not checked). */
    { { .name = "bigbasin", .gpus_per_node = 8, .intra_bw = 80e9, .intra_lat = 5e-6, .nic_bw = 6.25e9,
        .inter_lat = 30e-6, .profile = "p100" },
      "Facebook Big Basin: 8 P100/node, NVLink, 50 Gbit Ethernet" },
    /* A current 8 x H200 server (DGX/HGX H200 class):
     *   8 GPUs per node on NVSwitch; intra_bw 450 GB/s: NVLink 4, 900 GB/s bidirectional per GPU
     *     (NVIDIA H200 product brief; docs/SOURCES.md §3);
     *   intra_lat 3 us: assumption; nic_bw 400 GB/s: 8 x 400 Gb/s InfiniBand NDR per node
     *     (8 x 50 GB/s, one ConnectX-7 per GPU as in DGX H200);
     *   inter_lat 6 us: assumption (not checked). */
    { { .name = "h200", .gpus_per_node = 8, .intra_bw = 450e9, .intra_lat = 3e-6, .nic_bw = 400e9, .inter_lat = 6e-6,
        .profile = "h200" },
      "one-pipe model of a DGX H200 node (dgxh200): its 8 NDR NICs as one 400 GB/s pipe, one switch" },
    /* Today's NVIDIA systems (docs/SOURCES.md §12, each number there marked sourced or assumption).
     * NVIDIA DGX-1 (V100): 8 V100 SXM2 joined pair by pair, the hybrid cube-mesh: two fully connected
     *   quads, each GPU linked to its counterpart, 0-3, 1-2, 2-3, 4-7, 5-6, 6-7, 0-4, 1-5 doubled (6
     *   NVLink 2.0 links of 25 GB/s per direction a GPU, intra_bw 150 GB/s all of them); pairs without a
     *   link through PCIe 3.0 x16 and the CPUs (host_bw 15.75 GB/s: the x16 link; the path beyond it an
     *   assumption); 4 IB EDR NICs of 100 Gb/s, one per GPU pair; one switch; latencies assumptions. */
#define DGX1_LINK(a, b, n) [(a) * 8 + (b)] = (n), [(b) * 8 + (a)] = (n)
    { { .name = "dgx1", .gpus_per_node = 8, .intra_bw = 150e9, .intra_lat = 5e-6, .nics = 4, .nic_bw = 4 * 12.5e9,
        .inter_lat = 10e-6, .profile = "v100", .link_bw = 25e9, .host_bw = 15.75e9, .host_lat = 10e-6,
        .links = { DGX1_LINK(0, 1, 1), DGX1_LINK(0, 2, 1), DGX1_LINK(0, 3, 2), DGX1_LINK(1, 2, 2), DGX1_LINK(1, 3, 1),
                   DGX1_LINK(2, 3, 2), DGX1_LINK(4, 5, 1), DGX1_LINK(4, 6, 1), DGX1_LINK(4, 7, 2), DGX1_LINK(5, 6, 2),
                   DGX1_LINK(5, 7, 1), DGX1_LINK(6, 7, 2), DGX1_LINK(0, 4, 2), DGX1_LINK(1, 5, 2), DGX1_LINK(2, 6, 1),
                   DGX1_LINK(3, 7, 1) } },
      "DGX-1: 8 V100, NVLink 2 hybrid cube-mesh, 4 x IB EDR 100 Gb/s" },
#undef DGX1_LINK
    /* NVIDIA DGX A100: 8 A100 on NVSwitch, NVLink 3 600 GB/s bidirectional (300 per direction: the line
     *   rate); 8 x ConnectX-6 HDR 200 Gb/s (25 GB/s line), one per GPU (rails); SuperPOD scalable units of
     *   20 nodes on rail-aligned non-blocking leaves; latencies assumptions (spine: one more switch, +1 us).
     *   Achieved rates, inputs (docs/SOURCES.md §15): intra_bw 240 GB/s, what NCCL's ring reaches on one
     *   A100 node by NVIDIA's statement (NVIDIA/nccl #1712); nic_bw 24 GB/s per HDR NIC, NVIDIA's "peak
     *   performance per 200G NIC" (nccl-tests #119). */
    { { .name = "dgxa100", .gpus_per_node = 8, .intra_bw = 240e9, .intra_line_bw = 300e9, .intra_lat = 3e-6,
        .nics = 8, .nic_bw = 8 * 24e9, .nic_line_bw = 8 * 25e9, .inter_lat = 6e-6, .leaf_nodes = 20,
        .rail_leaves = 1, .oversub = 1, .spine_lat = 7e-6, .profile = "a100" },
      "DGX A100: 8 A100, NVSwitch, 8 x IB HDR 200 Gb/s, rails" },
    /* NVIDIA DGX H100 / H200: 8 GPUs on NVSwitch, NVLink 4 900 GB/s bidirectional (450 per direction: the
     *   line rate); 8 x ConnectX-7 NDR 400 Gb/s (50 GB/s line), one per GPU; SuperPOD scalable units of 32
     *   nodes, rail-aligned, non-blocking (the DGX SuperPOD H100 reference architecture); latencies
     *   assumptions. Achieved rates, inputs (docs/SOURCES.md §15): intra_bw 370 GB/s, NCCL's ring busbw on
     *   NVLink 4 by NVIDIA's statement (line rate less ~20% protocol overhead, nccl-tests #212); nic_bw 48
     *   GB/s per NDR NIC, the top of NVIDIA's "46-48 GB/s per NIC" (nccl-tests #290). */
    { { .name = "dgxh100", .gpus_per_node = 8, .intra_bw = 370e9, .intra_line_bw = 450e9, .intra_lat = 3e-6,
        .nics = 8, .nic_bw = 8 * 48e9, .nic_line_bw = 8 * 50e9, .inter_lat = 6e-6, .leaf_nodes = 32,
        .rail_leaves = 1, .oversub = 1, .spine_lat = 7e-6, .profile = "h100" },
      "DGX H100: 8 H100, NVSwitch, 8 x IB NDR 400 Gb/s, rails" },
    { { .name = "dgxh200", .gpus_per_node = 8, .intra_bw = 370e9, .intra_line_bw = 450e9, .intra_lat = 3e-6,
        .nics = 8, .nic_bw = 8 * 48e9, .nic_line_bw = 8 * 50e9, .inter_lat = 6e-6, .leaf_nodes = 32,
        .rail_leaves = 1, .oversub = 1, .spine_lat = 7e-6, .profile = "h200" },
      "DGX H200: 8 H200, NVSwitch, 8 x IB NDR 400 Gb/s, rails" },
    /* custom: every link value from options (--intra-bw --intra-lat --inter-bw --inter-lat). */
    { { .name = "custom", .gpus_per_node = 1 }, "links from --intra-bw --intra-lat --inter-bw --inter-lat" },
};

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

int platform_preset_count(void) { return NPRESETS; }
const platform *platform_preset(int i) { return i >= 0 && i < NPRESETS ? &presets[i].pf : NULL; }
const char *platform_preset_help(int i) { return i >= 0 && i < NPRESETS ? presets[i].help : NULL; }

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
    for (int i = 0; i < NPRESETS; i++)
        if (preset && !strcmp(preset, presets[i].pf.name)) return *pf = presets[i].pf, 0;
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
        snprintf(buf + n, len - n, "; leaves of %d nodes%s, %.3g:1, spine %.3g us", pf->leaf_nodes,
                 pf->rail_leaves ? " per rail" : "", platform_oversub(pf), platform_spine_lat(pf) * 1e6);
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
    for (int i = 0; i < NPRESETS && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 i ? (i == NPRESETS - 1 ? " or " : ", ") : "", presets[i].pf.name);
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
