/* platform.h — the machines ddlbench simulates and models: one table of presets (platform.c, every
 * number with its source) and platform files (platform_file.h) feed the SMPI platform XML generator
 * (platform_xml.c), the analytic α-β-γ model and `auto` (perf_cost.c: the same fields as a
 * ddl_machine), so simulation and model cannot disagree about the machine.
 *
 * The two-level machine (every field below "optional" at its default):
 *   node level:    every GPU has a full-duplex link of intra_bw per direction to its node's switch;
 *                  two GPUs of one node talk over their two links: latency intra_lat end to end.
 *   network level: every node has one full-duplex NIC of nic_bw per direction (all its ports
 *                  together), shared by its GPUs, into a non-blocking switch; a GPU on another node
 *                  is reached over GPU link, NIC, switch, NIC, GPU link: latency inter_lat.
 * Today's clusters add, each optional:
 *   sockets = 2:   the node's GPUs in two halves (the Minsky's sockets, DGX-1's quads) joined by one
 *                  link of socket_bw per direction; latency socket_lat across it;
 *   nics > 1:      nic_bw is split over nics NICs, NIC j the rail of GPUs j*g/nics .. (j+1)*g/nics-1;
 *                  a message between nodes leaves by its sender's rail and arrives by its receiver's;
 *   nvlinks:       the node's GPUs joined pair by pair, no switch (DGX-1's hybrid cube-mesh): a linked
 *                  pair moves at its links x link_bw per direction, an unlinked one through the host
 *                  (host_bw, host_lat); each GPU's own link (intra_bw: all its links) still bounds it;
 *   leaf_nodes:    a two-level fat tree: leaf switches of leaf_nodes nodes (rail_leaves: one leaf per
 *                  rail for each group of leaf_nodes nodes), a spine, each leaf's uplink carrying its
 *                  NICs' bandwidth / oversub; spine_lat GPU to GPU across the spine.
 * Line rates (optional, intra_line_bw, nic_line_bw) are the links' data sheet figures, beside the
 * achieved rates intra_bw and nic_bw that everything simulates and models; both sourced in
 * docs/SOURCES.md, and an achieved rate taken from a published figure is an input, never a prediction.
 * Hosts are GPUs, numbered node-major: gpu0..gpu(g-1) on node 0, and so on. */
#ifndef HARN_PLATFORM_H
#define HARN_PLATFORM_H

#include "opts.h"

#include <stdio.h>

#define PLATFORM_MAX_NODES 16384
#define PLATFORM_MAX_GPUS_PER_NODE 64
#define PLATFORM_MAX_HOSTS 65536
#define PLATFORM_LINK_GPUS 16 /* nvlinks: at most this many GPUs per node */

typedef struct platform {
    char name[64];        /* preset name ("custom" for one built from options; a file's `name`) */
    int nodes;            /* nodes (servers) */
    int gpus_per_node;    /* GPUs (simulated hosts, MPI ranks) per node */
    double intra_bw;      /* bytes/s per direction of one GPU's link inside its node */
    double intra_lat;     /* s, GPU to GPU inside one node, end to end */
    double nic_bw;        /* bytes/s per direction of one node's network interface(s) */
    double inter_lat;     /* s, GPU to GPU on different nodes, end to end (>= intra_lat) */
    char profile[32];     /* the platform's GPU: a device profile name ("" = none given) */
    int sockets;          /* 0 or 1: one crossbar; 2: two halves joined by socket_bw */
    double socket_bw;     /* bytes/s per direction between the halves */
    double socket_lat;    /* s, GPU to GPU across the halves (0 = intra_lat) */
    int nics;             /* NICs per node, one rail each (0 = 1); nic_bw is all of them */
    int leaf_nodes;       /* nodes per leaf switch; 0 = one non-blocking switch */
    int rail_leaves;      /* 1: a leaf per rail for each group of leaf_nodes nodes */
    double oversub;       /* leaf uplink oversubscription (0 = 1, non-blocking) */
    double spine_lat;     /* s, GPU to GPU across the spine (0 = inter_lat) */
    unsigned char links[PLATFORM_LINK_GPUS * PLATFORM_LINK_GPUS]; /* nvlinks: gpus_per_node^2 counts,
                             row-major, symmetric (all 0: none; DGX-1's cube-mesh) */
    double link_bw;       /* bytes/s per direction of one such link */
    double host_bw;       /* bytes/s per direction between GPUs without a link (PCIe, the CPUs) */
    double host_lat;      /* s, GPU to GPU through the host */
    double intra_line_bw; /* bytes/s per direction: the GPU link's line rate (0 = not given); intra_bw is
                             the rate NCCL's ring achieves on it, the rate simulated and modelled */
    double nic_line_bw;   /* bytes/s per direction: all the node's NICs' line rate (0 = not given); nic_bw
                             is what NCCL achieves on them */
    double nvls_bw;       /* bytes/s per direction of one GPU's link when the NVSwitch reduces and multicasts
                             (NVLink SHARP, NVLS); 0 = the node's switch does not reduce */
    double sharp_bw;      /* bytes/s per direction of one rail NIC when the fabric's switches reduce
                             (InfiniBand SHARP at the leaves and spine); 0 = they do not */
} platform;

/* The fields' values with their defaults applied. */
static inline int platform_sockets(const platform *pf) { return pf->sockets == 2 ? 2 : 1; }
static inline int platform_nics(const platform *pf) { return pf->nics > 1 ? pf->nics : 1; }
static inline double platform_oversub(const platform *pf) { return pf->oversub > 1 ? pf->oversub : 1; }
static inline double platform_socket_lat(const platform *pf)
{
    return pf->socket_lat > 0 ? pf->socket_lat : pf->intra_lat;
}
static inline double platform_spine_lat(const platform *pf)
{
    return pf->spine_lat > 0 ? pf->spine_lat : pf->inter_lat;
}
/* 1 when the node's GPUs are joined pair by pair (nvlinks), not through a switch. */
static inline int platform_has_links(const platform *pf)
{
    for (size_t i = 0; i < sizeof pf->links; i++) if (pf->links[i]) return 1;
    return 0;
}
/* 1 when none of today's fields is in use: the two-level machine. */
static inline int platform_two_level(const platform *pf)
{
    return platform_sockets(pf) == 1 && platform_nics(pf) == 1 && pf->leaf_nodes == 0 && !platform_has_links(pf);
}

/* The presets: minsky, bigbasin, h200, custom. i in [0, platform_preset_count()). */
int platform_preset_count(void);
const platform *platform_preset(int i);
const char *platform_preset_help(int i);

/* Fill *pf from a preset name, with nodes and (0 = the preset's) GPUs per node. "custom" starts from
 * no link values: the caller sets intra_bw, intra_lat, nic_bw, inter_lat, then calls
 * platform_check. A name with a '/' or ending in ".platform" is a platform file (platform_file.h:
 * `ddlbench calibrate --network` writes one). Returns 0, or 2 with a one-line message in err. */
int platform_init(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen);
/* The platform a name describes, nodes 0 (a preset's row, or a file parsed and checked): no node count
 * is checked. 0, or 2 with a message. */
int platform_lookup(platform *pf, const char *preset, char *err, size_t errlen);
/* platform_init, but a file's leaf larger than nodes is partly filled instead of an error (the sweep's
 * points below one leaf, and callers that only probe the platform). */
int platform_init_partial(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen);
/* The platform is the truth. The device profile to use: given (--profile) or pf's own (p100 when it
 * names none); a given name of another GPU than pf's ("h100" on an h200 platform) is refused unless
 * override (--override-platform); a path (with a '/': a measured or edited profile) is taken as given;
 * NAME-x is a way of running pf's own GPU ("h100-amp" on an h100 platform: mixed precision, fused).
 * 0, or 2 with a message. */
/* "h200" of "h200", "dir/h200.profile" or "h200.profile": a profile's GPU name. */
void profile_stem(const char *s, char *out, size_t len);
int platform_profile(const platform *pf, const char *given, int override, const char **out, char *err, size_t errlen);
/* --gpus-per-node G (0 = not given) against the platform preset's own: 0 when they agree, G is not
 * given, the platform is custom or override; else 2 with a message. */
int platform_gpn_check(const char *preset, long gpus_per_node, int override, char *err, size_t errlen);
/* One line of pf's numbers ("8 GPUs/node of h200: GPU link 450 GB/s, 3 us; 8 NICs x 50 GB/s, ..."). */
void platform_describe(const platform *pf, char *buf, size_t len);
/* "minsky, bigbasin, ... or custom": the preset names, for messages. */
const char *platform_preset_names(void);
/* The machine of the platform folder a simulated program runs on, when no --platform is given: its
 * DIR/sim.env names it (DDL_SIM_PLATFORM: the preset, or the platform file's absolute path) with the
 * folder's GPUs per node (DDL_SIM_GPUS_PER_NODE), and simlaunch.sh exports both, so a program gets the
 * same links whether or not --platform is repeated. *name NULL when unset; 0, or 2 with a message
 * naming the variable (an unknown platform, a GPUs per node out of 1..64). */
int platform_env(const char **name, long *gpus_per_node, char *err, size_t errlen);
/* 1 if a --preset value names a platform file (has a '/' or ends in ".platform"), else 0. */
int platform_is_file(const char *preset);
/* 0 if every field is in range; else 2 and a message naming the field. */
int platform_check(const platform *pf, char *err, size_t errlen);

static inline int platform_ranks(const platform *pf) { return pf->nodes * pf->gpus_per_node; }

/* The SMPI platform (SimGrid 4.1 XML) and the hostfile (one GPU host per line, node-major).
 * Return 0, or -1 on a write error (errno set). */
int platform_write_xml(const platform *pf, FILE *f);
int platform_write_hostfile(const platform *pf, FILE *f);

/* Values with units for options: bandwidth "12.5G" = 12.5e9 bytes/s (k, M, G, T decimal; an optional
 * "B/s" or "Bps"; "100Gbit" = bits/s), latency "5us" (s, ms, us, ns; a bare number is seconds).
 * Return 0 or 2 (and write nothing). */
int platform_parse_bw(const char *s, double *out);
int platform_parse_lat(const char *s, double *out);

/* Command-line options that describe a platform, shared by every subcommand that takes a machine:
 * --platform NAME (old spelling --preset) --nodes N --gpus-per-node N --intra-bw BW --intra-lat T
 * --inter-bw BW --inter-lat T: the rows platform_rows of the option table (opts.h). */
typedef struct platform_opts {
    const char *preset;           /* NULL = minsky */
    int partial_leaf;             /* --partial-leaf: fewer nodes than a file's leaf holds is allowed */
    int override;                 /* --override-platform: --gpus-per-node/--profile may differ from it */
    long nodes, gpus_per_node;    /* nodes: required (-1 = not given); gpus_per_node 0 = preset's */
    double intra_bw, intra_lat, inter_bw, inter_lat; /* custom links (-1 = not given) */
} platform_opts;

#define PLATFORM_OPTS_INIT { NULL, 0, 0, -1, 0, -1, -1, -1, -1 }

/* The option rows of a platform_opts (opts.h; off = its fields), bound as { platform_rows + k, n, &po }:
 * PLATFORM_ROW_PLATFORM, _NODES, _GPN, then the four custom links. */
enum { PLATFORM_ROW_PLATFORM, PLATFORM_ROW_NODES, PLATFORM_ROW_GPN, PLATFORM_ROW_LINKS,
       PLATFORM_ROW_PARTIAL = PLATFORM_ROW_LINKS + 4, PLATFORM_ROW_OVERRIDE, PLATFORM_ROWS };
extern const opt_row platform_rows[PLATFORM_ROWS];
/* If argv[*i] is a platform option, consume it and its value (advancing *i) and return 0; return 1
 * if it is not one; 2 (message in err) if its value is missing or bad. (One row of platform_rows.) */
int platform_opt(int argc, char **argv, int *i, platform_opts *o, char *err, size_t errlen);
/* Build the platform the options describe. 0, or 2 with a message. */
int platform_from_opts(const platform_opts *o, platform *pf, char *err, size_t errlen);

#endif
