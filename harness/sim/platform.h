/* platform.h — the machines ddlbench simulates and models: one table of presets (platform.c, every
 * number with its source) feeds both the SMPI platform XML generator and the analytic α-β-γ model
 * (model_cost.c), so simulation and model cannot disagree about the machine.
 *
 * The machine has two link levels:
 *   node level:    every GPU has a full-duplex link of intra_bw per direction to its node's switch;
 *                  two GPUs of one node talk over their two links: latency intra_lat end to end.
 *   network level: every node has one full-duplex NIC of nic_bw per direction (all its ports
 *                  together), shared by its GPUs, into a non-blocking switch; a GPU on another node
 *                  is reached over GPU link, NIC, switch, NIC, GPU link: latency inter_lat.
 * Hosts are GPUs, numbered node-major: gpu0..gpu(g-1) on node 0, and so on. */
#ifndef HARN_PLATFORM_H
#define HARN_PLATFORM_H

#include "opts.h"

#include <stdio.h>

#define PLATFORM_MAX_NODES 16384
#define PLATFORM_MAX_GPUS_PER_NODE 64
#define PLATFORM_MAX_HOSTS 65536

typedef struct platform {
    char name[64];        /* preset name ("custom" for one built from options; a file's `name`) */
    int nodes;            /* nodes (servers) */
    int gpus_per_node;    /* GPUs (simulated hosts, MPI ranks) per node */
    double intra_bw;      /* bytes/s per direction of one GPU's link inside its node */
    double intra_lat;     /* s, GPU to GPU inside one node, end to end */
    double nic_bw;        /* bytes/s per direction of one node's network interface(s) */
    double inter_lat;     /* s, GPU to GPU on different nodes, end to end (>= intra_lat) */
} platform;

/* The presets: minsky, bigbasin, h200, custom. i in [0, platform_preset_count()). */
int platform_preset_count(void);
const platform *platform_preset(int i);
const char *platform_preset_help(int i);

/* Fill *pf from a preset name, with nodes and (0 = the preset's) GPUs per node. "custom" starts from
 * no link values: the caller sets intra_bw, intra_lat, nic_bw, inter_lat, then calls
 * platform_check. A name with a '/' or ending in ".platform" is a platform file (platform_file.h:
 * `ddlbench calibrate --network` writes one). Returns 0, or 2 with a one-line message in err. */
int platform_init(platform *pf, const char *preset, int nodes, int gpus_per_node, char *err, size_t errlen);
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
    long nodes, gpus_per_node;    /* nodes: required (-1 = not given); gpus_per_node 0 = preset's */
    double intra_bw, intra_lat, inter_bw, inter_lat; /* custom links (-1 = not given) */
} platform_opts;

#define PLATFORM_OPTS_INIT { NULL, -1, 0, -1, -1, -1, -1 }

/* The option rows of a platform_opts (opts.h; off = its fields), bound as { platform_rows + k, n, &po }:
 * PLATFORM_ROW_PLATFORM, _NODES, _GPN, then the four custom links. */
enum { PLATFORM_ROW_PLATFORM, PLATFORM_ROW_NODES, PLATFORM_ROW_GPN, PLATFORM_ROW_LINKS, PLATFORM_ROWS = PLATFORM_ROW_LINKS + 4 };
extern const opt_row platform_rows[PLATFORM_ROWS];
/* If argv[*i] is a platform option, consume it and its value (advancing *i) and return 0; return 1
 * if it is not one; 2 (message in err) if its value is missing or bad. (One row of platform_rows.) */
int platform_opt(int argc, char **argv, int *i, platform_opts *o, char *err, size_t errlen);
/* Build the platform the options describe. 0, or 2 with a message. */
int platform_from_opts(const platform_opts *o, platform *pf, char *err, size_t errlen);

#endif
