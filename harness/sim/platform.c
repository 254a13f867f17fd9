/* platform.c — the preset table and the SMPI platform writer (see platform.h for the model).
 *
 * XML layout (SimGrid 4.1 platform, checked against SimGrid 3.32):
 *   zone "world" (DijkstraCache)
 *     cluster "nodeK" per node: one host per GPU, each with a SPLITDUPLEX private link (intra_bw per
 *       direction, latency intra_lat/2 so GPU→GPU is intra_lat), a FATPIPE backbone (every flow gets
 *       the full intra_bw: a non-blocking NVSwitch-like node switch) and a router "nodeK_gw";
 *     zone "fabric" holding router "switch" (the non-blocking network switch: no link of its own);
 *     link "nicK" per node: SPLITDUPLEX, nic_bw per direction, latency (inter_lat - intra_lat)/2;
 *     zoneRoutes nodeK -> fabric over nicK UP, fabric -> nodeK over nicK DOWN.
 * A message between nodes crosses GPU link, NIC, switch, NIC, GPU link: latency inter_lat,
 * bandwidth min(intra_bw, nic_bw), and a node's GPUs share its NIC. */
#include "platform.h"
#include "opts.h"
#include "parse.h"
#include "platform_file.h"

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
    { { "minsky", 0, 4, 80e9, 5e-6, 12.5e9, 10e-6 }, "IBM Minsky: 4 P100/node, NVLink 1.0, IB EDR 100 Gb/s" },
    /* Facebook Big Basin (Goyal et al., arXiv 1706.02677; docs/SOURCES.md §2):
     *   8 P100 per node (docs/SOURCES.md §2); intra_bw 80 GB/s: P100 SXM2 NVLink 1.0, 4 x 20 GB/s (docs/SOURCES.md §1);
     *   intra_lat 5 us: assumption; nic_bw 6.25 GB/s: 50 Gbit Ethernet per server (docs/SOURCES.md §2);
     *   inter_lat 30 us: assumption (TCP over Ethernet through Gloo; not checked). */
    { { "bigbasin", 0, 8, 80e9, 5e-6, 6.25e9, 30e-6 }, "Facebook Big Basin: 8 P100/node, NVLink, 50 Gbit Ethernet" },
    /* A current 8 x H200 server (DGX/HGX H200 class):
     *   8 GPUs per node on NVSwitch; intra_bw 450 GB/s: NVLink 4, 900 GB/s bidirectional per GPU
     *     (NVIDIA H200 product brief; docs/SOURCES.md §3);
     *   intra_lat 3 us: assumption; nic_bw 400 GB/s: 8 x 400 Gb/s InfiniBand NDR per node
     *     (8 x 50 GB/s, one ConnectX-7 per GPU as in DGX H200);
     *   inter_lat 6 us: assumption (not checked). */
    { { "h200", 0, 8, 450e9, 3e-6, 400e9, 6e-6 }, "8 H200/node, NVLink 4 / NVSwitch, 8 x 400 Gb/s IB NDR" },
    /* custom: every link value from options (--intra-bw --intra-lat --inter-bw --inter-lat). */
    { { "custom", 0, 1, 0, 0, 0, 0 }, "links from --intra-bw --intra-lat --inter-bw --inter-lat" },
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

int platform_init(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen)
{
    platform file;
    int from_file = platform_is_file(preset);
    if (from_file && platform_file_load(preset, &file, NULL, err, errlen)) return 2;
    for (int i = 0; i < NPRESETS || from_file; i++) {
        if (!from_file && (!preset || strcmp(preset, presets[i].pf.name))) continue;
        *pf = from_file ? file : presets[i].pf;
        pf->nodes = nodes;
        if (gpus_per_node) pf->gpus_per_node = gpus_per_node;
        if (nodes < 1 || nodes > PLATFORM_MAX_NODES) {
            snprintf(err, errlen, "--nodes: expected 1..%d, got %d", PLATFORM_MAX_NODES, nodes);
            return 2;
        }
        if (pf->gpus_per_node < 1 || pf->gpus_per_node > PLATFORM_MAX_GPUS_PER_NODE) {
            snprintf(err, errlen, "--gpus-per-node: expected 1..%d, got %d", PLATFORM_MAX_GPUS_PER_NODE,
                     pf->gpus_per_node);
            return 2;
        }
        return from_file || strcmp(preset, "custom") ? platform_check(pf, err, errlen) : 0;
    }
    snprintf(err, errlen, "--preset: expected minsky, bigbasin, h200, custom or a platform file, got \"%.32s\"",
             preset ? preset : "");
    return 2;
}

static int bad_positive(double v, double max) { return !(v > 0 && v <= max) || !isfinite(v); }

int platform_check(const platform *pf, char *err, size_t errlen)
{
    const char *what = NULL;
    if (pf->nodes < 1 || pf->nodes > PLATFORM_MAX_NODES) what = "--nodes: expected 1..16384";
    else if (pf->gpus_per_node < 1 || pf->gpus_per_node > PLATFORM_MAX_GPUS_PER_NODE)
        what = "--gpus-per-node: expected 1..64";
    else if ((long)pf->nodes * pf->gpus_per_node > PLATFORM_MAX_HOSTS)
        what = "--nodes x --gpus-per-node: expected at most 65536 GPUs";
    else if (bad_positive(pf->intra_bw, 1e15)) what = "--intra-bw: expected a bandwidth in (0, 1P] bytes/s";
    else if (bad_positive(pf->nic_bw, 1e15)) what = "--inter-bw: expected a bandwidth in (0, 1P] bytes/s";
    else if (!(pf->intra_lat >= 0 && pf->intra_lat <= 1)) what = "--intra-lat: expected 0..1 s";
    else if (!(pf->inter_lat >= pf->intra_lat && pf->inter_lat <= 1))
        what = "--inter-lat: expected intra-lat..1 s (a message between nodes also crosses GPU links)";
    if (!what) return 0;
    snprintf(err, errlen, "%s", what);
    return 2;
}

int platform_write_xml(const platform *pf, FILE *f)
{
    const int g = pf->gpus_per_node;
    const double gpu_lat = pf->intra_lat / 2, nic_lat = (pf->inter_lat - pf->intra_lat) / 2;
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<platform version=\"4.1\">\n");
    fprintf(f, "<!-- ddlbench platform %s: %d nodes x %d GPUs; GPU link %.6g B/s, %.6g s GPU-GPU in a node; "
               "NIC %.6g B/s per node, %.6g s GPU-GPU between nodes -->\n",
            pf->name, pf->nodes, g, pf->intra_bw, pf->intra_lat, pf->nic_bw, pf->inter_lat);
    fprintf(f, "<zone id=\"world\" routing=\"DijkstraCache\">\n");
    for (int k = 0; k < pf->nodes; k++)
        fprintf(f, "  <cluster id=\"node%d\" prefix=\"gpu\" suffix=\"\" radical=\"%ld-%ld\" speed=\"1Gf\" "
                   "bw=\"%.9gBps\" lat=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\" bb_bw=\"%.9gBps\" bb_lat=\"0s\" "
                   "bb_sharing_policy=\"FATPIPE\" router_id=\"node%d_gw\"/>\n",
                k, (long)k * g, (long)k * g + g - 1, pf->intra_bw, gpu_lat, pf->intra_bw, k);
    fprintf(f, "  <zone id=\"fabric\" routing=\"Full\"><router id=\"switch\"/></zone>\n");
    for (int k = 0; k < pf->nodes; k++)
        fprintf(f, "  <link id=\"nic%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                k, pf->nic_bw, nic_lat);
    for (int k = 0; k < pf->nodes; k++)
        fprintf(f, "  <zoneRoute src=\"node%d\" dst=\"fabric\" gw_src=\"node%d_gw\" gw_dst=\"switch\" "
                   "symmetrical=\"NO\"><link_ctn id=\"nic%d\" direction=\"UP\"/></zoneRoute>\n"
                   "  <zoneRoute src=\"fabric\" dst=\"node%d\" gw_src=\"switch\" gw_dst=\"node%d_gw\" "
                   "symmetrical=\"NO\"><link_ctn id=\"nic%d\" direction=\"DOWN\"/></zoneRoute>\n",
                k, k, k, k, k, k);
    fprintf(f, "</zone>\n</platform>\n");
    return ferror(f) ? -1 : 0;
}

int platform_write_hostfile(const platform *pf, FILE *f)
{
    for (long i = 0; i < (long)platform_ranks(pf); i++) fprintf(f, "gpu%ld\n", i);
    return ferror(f) ? -1 : 0;
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

static int bw(const char *v, void *dst) { return platform_parse_bw(v, dst); }

const opt_row platform_rows[PLATFORM_ROWS] = {
    { .name = "--platform", .alias = "--preset", .type = OPT_STRING, .min = 1, .unit = "P",
      .off = offsetof(platform_opts, preset),
      .help = "machine: a preset (minsky, bigbasin, h200, custom) or a platform\nfile (old spelling: --preset)" },
    { .name = "--nodes", .type = OPT_LONG, .min = 1, .max = PLATFORM_MAX_NODES, .off = offsetof(platform_opts, nodes),
      .help = "nodes of the machine" },
    { .name = "--gpus-per-node", .type = OPT_LONG, .min = 1, .max = PLATFORM_MAX_GPUS_PER_NODE, .unit = "G",
      .off = offsetof(platform_opts, gpus_per_node), .help = "GPUs (ranks) per node (default: the platform's)" },
    { .name = "--intra-bw", .type = OPT_CUSTOM, .unit = "BW", .off = offsetof(platform_opts, intra_bw), .parse = bw,
      .expect = "a bandwidth like 12.5G (bytes/s) or 100Gbit", .help = "--platform custom: GPU link bandwidth per direction" },
    { .name = "--intra-lat", .type = OPT_DURATION, .min = 0, .max = 1, .off = offsetof(platform_opts, intra_lat),
      .expect = "a latency like 5us", .help = "--platform custom: GPU to GPU latency inside a node" },
    { .name = "--inter-bw", .type = OPT_CUSTOM, .unit = "BW", .off = offsetof(platform_opts, inter_bw), .parse = bw,
      .expect = "a bandwidth like 12.5G (bytes/s) or 100Gbit", .help = "--platform custom: a node's NIC bandwidth per direction" },
    { .name = "--inter-lat", .type = OPT_DURATION, .min = 0, .max = 1, .off = offsetof(platform_opts, inter_lat),
      .expect = "a latency like 5us", .help = "--platform custom: GPU to GPU latency across nodes" },
};

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
    if (platform_init(pf, preset, (int)o->nodes, (int)o->gpus_per_node, err, errlen)) return 2;
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
