/* platform_presets.c — the preset table: today's and the studies' machines, each constant with its source
 * (docs/SOURCES.md); platform.c checks and places them. */
#include "platform.h"

#include <stddef.h>

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
     *   GB/s per NDR NIC, the top of NVIDIA's "46-48 GB/s per NIC" (nccl-tests #290).
     *   nvls_bw 382.5 GB/s: NVSwitch gen3 reduces and multicasts (NVLink SHARP); a GPU's link then moves at
     *   the line rate x NCCL's NVLS efficiency for Hopper, 0.85 (NVIDIA/nccl src/graph/tuning.cc,
     *   nvlsEfficiency): an input from NCCL's own model, not from a measured busbw (docs/SOURCES.md,
     *   "In-network reduction").
     *   No IB SHARP by default (sharp_bw: harness/sim/platforms/dgxh100-sharp.platform). */
    { { .name = "dgxh100", .gpus_per_node = 8, .intra_bw = 370e9, .intra_line_bw = 450e9, .intra_lat = 3e-6,
        .nics = 8, .nic_bw = 8 * 48e9, .nic_line_bw = 8 * 50e9, .inter_lat = 6e-6, .leaf_nodes = 32,
        .rail_leaves = 1, .oversub = 1, .spine_lat = 7e-6, .profile = "h100", .nvls_bw = 0.85 * 450e9 },
      "DGX H100: 8 H100, NVSwitch, 8 x IB NDR 400 Gb/s, rails" },
    { { .name = "dgxh200", .gpus_per_node = 8, .intra_bw = 370e9, .intra_line_bw = 450e9, .intra_lat = 3e-6,
        .nics = 8, .nic_bw = 8 * 48e9, .nic_line_bw = 8 * 50e9, .inter_lat = 6e-6, .leaf_nodes = 32,
        .rail_leaves = 1, .oversub = 1, .spine_lat = 7e-6, .profile = "h200", .nvls_bw = 0.85 * 450e9 },
      "DGX H200: 8 H200, NVSwitch, 8 x IB NDR 400 Gb/s, rails" },
    /* custom: every link value from options (--intra-bw --intra-lat --inter-bw --inter-lat). */
    { { .name = "custom", .gpus_per_node = 1 }, "links from --intra-bw --intra-lat --inter-bw --inter-lat" },
};

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

int platform_preset_count(void) { return NPRESETS; }
const platform *platform_preset(int i) { return i >= 0 && i < NPRESETS ? &presets[i].pf : NULL; }
const char *platform_preset_help(int i) { return i >= 0 && i < NPRESETS ? presets[i].help : NULL; }

