/* platform_rows.c — the platform's rows of the option table (platform.h: platform_rows): --platform,
 * --nodes, --gpus-per-node, the custom links and the overrides, shared by every subcommand that takes a
 * machine. */
#include "platform.h"
#include "opts.h"

#include <stddef.h>

static int bw(const char *v, void *dst) { return platform_parse_bw(v, dst); }

const opt_row platform_rows[PLATFORM_ROWS] = {
    { .name = "--platform", .alias = "--preset", .type = OPT_STRING, .min = 1, .unit = "P",
      .off = offsetof(platform_opts, preset),
      .help = "machine: a preset (ddlbench platform --help lists them) or a\nplatform file (old spelling: --preset)" },
    { .name = "--nodes", .type = OPT_LONG, .min = 1, .max = PLATFORM_MAX_NODES, .off = offsetof(platform_opts, nodes),
      .help = "nodes of the machine" },
    { .name = "--gpus-per-node", .type = OPT_LONG, .min = 1, .max = PLATFORM_MAX_GPUS_PER_NODE, .unit = "G",
      .off = offsetof(platform_opts, gpus_per_node), .help = "GPUs (ranks) per node (default: the platform's)" },
    { .name = "--intra-bw", .type = OPT_CUSTOM, .unit = "BW", .off = offsetof(platform_opts, intra_bw), .parse = bw,
      .expect = "a bandwidth like 12.5G (bytes/s) or 100Gbit",
      .help = "--platform custom: GPU link bandwidth per direction" },
    { .name = "--intra-lat", .type = OPT_DURATION, .min = 0, .max = 1, .off = offsetof(platform_opts, intra_lat),
      .expect = "a latency like 5us", .help = "--platform custom: GPU to GPU latency inside a node" },
    { .name = "--inter-bw", .type = OPT_CUSTOM, .unit = "BW", .off = offsetof(platform_opts, inter_bw), .parse = bw,
      .expect = "a bandwidth like 12.5G (bytes/s) or 100Gbit",
      .help = "--platform custom: a node's NIC bandwidth per direction" },
    { .name = "--inter-lat", .type = OPT_DURATION, .min = 0, .max = 1, .off = offsetof(platform_opts, inter_lat),
      .expect = "a latency like 5us", .help = "--platform custom: GPU to GPU latency across nodes" },
    { .name = "--partial-leaf", .type = OPT_FLAG, .off = offsetof(platform_opts, partial_leaf),
      .help = "allow fewer nodes than a platform file's leaf switch holds" },
    { .name = "--override-platform", .type = OPT_FLAG, .off = offsetof(platform_opts, override),
      .help = "take --gpus-per-node and --profile over the platform's own" },
};
