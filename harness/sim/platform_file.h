/* platform_file.h — a platform in a file: what `ddlbench calibrate --network` measures, in the same
 * terms as the presets (platform.h), so the simulator (`make run PLATFORM=FILE`), the α-β-γ model
 * (`ddlbench model --algo ... --preset FILE`) and `auto` (`train --platform FILE`) read it alike.
 *
 * Format: the one key = value grammar (common/kv.h): key = value lines, "# comment" lines, blank
 * lines; a trailing "# comment" is allowed; the last line's newline is optional; read by textfile.h. Latencies take
 * units (3us, 2ms, 1e-6: s); bandwidths too (400Gbit,
 * 50GB/s, 5e10: bytes/s):
 *   name = local                 [A-Za-z0-9._-], 1..63 characters            (required)
 *   gpus_per_node = 4            1..64: ranks per node the fit was made with  (required)
 *   intra_lat = 1.9e-06          s, α inside a node, >= 0                     (required)
 *   intra_bw = 5.2e+09           bytes/s, 1/β inside a node, > 0              (required)
 *   inter_lat, inter_bw          the same between nodes (inter_lat >= intra_lat) (required)
 *   intra_rms_pct, inter_rms_pct the fit's relative RMS residual, % >= 0      (optional, a record)
 *   intra_points, inter_points   the sizes the fit used, >= 0                 (optional, a record)
 *   inter_bw = 50GB/s            a node's one NIC (or pipe), or nic_bw = 400Gbit each (one of the two;
 *                                with nics > 1 inter_bw is refused as ambiguous: nic_bw is each NIC's)
 *   intra_line_bw = 450GB/s      the GPU link's line rate beside intra_bw, what is achieved on it:
 *   nic_line_bw = 50GB/s           a record (docs/SOURCES.md), >= the achieved rate; nic_line_bw in
 *                                  the form given for the NICs (nic_bw: each; inter_bw: together) (optional)
 *   profile = h200               the platform's GPU: the default device profile    (optional)
 *   nics = 8                     NICs per node, dividing gpus_per_node: rails      (optional, 1)
 *   sockets = 2, socket_bw, socket_lat   two halves over one link (platform.h)     (optional, 1)
 *   nvlinks = 0-1:2,0-2,...      GPUs joined pair by pair (GPU-GPU[:links]), no switch, with
 *   nvlink_bw, host_bw, host_lat   a link's bandwidth, and the host path of unlinked pairs (optional)
 *   leaf_nodes = 32              nodes per leaf switch of a two-level fat tree     (optional, 0: one switch)
 *   rail_leaves = yes            a leaf per rail (yes/no), oversubscription = 2 (or 2:1, >= 1),
 *   spine_lat = 7us              GPU to GPU across the spine, >= inter_lat         (optional)
 *   nvls_bw = 382.5GB/s          the NVSwitch reduces and multicasts (NVLink SHARP): a GPU link's rate
 *                                then; needs 2+ GPUs per node and no nvlinks       (optional, 0: none)
 *   sharp_bw = 48GB/s            the fabric's switches reduce (InfiniBand SHARP): a rail NIC's rate then;
 *                                needs leaf_nodes                                  (optional, 0: none)
 *   lat_factor = 0:1.4;65536:1   SMPI piecewise latency factor: SIZE:FACTOR pairs, sizes strictly
 *   bw_factor = 0:0.6;65536:1      increasing from 0, factors > 0            (optional; default 1)
 *   ws_copy_ns = 65536:0.08;...  the copy cost by working set: SIZE:NS pairs, ns per byte of a SIZE-byte
 *                                vector exchanged in pieces, which the simulator charges a call that
 *                                touches SIZE bytes (out of place: both vectors), sizes strictly
 *                                increasing (issue 26; optional: none = no copy cost, as before)
 *   copy_ns = 131072:0.02;...    a plain copy's (a memcpy on every rank of a node at once, keyed by the
 *                                bytes it touches: 2x what it copies), which the simulator charges for
 *                                whole-buffer copies (optional: none =
 *                                ws_copy_ns's figures, as before)
 *   call_overhead = 0.3us        software overhead per posted message, >= 0  (optional; default 0)
 *   poll_slack = 80us            what a nanosleep of a polling wait takes beyond what it asks, >= 0
 *                                (optional; default 0)
 *   fault_ns = 0.25              fresh pages beyond warm memory, ns per byte, >= 0: what a temporary
 *                                mapped anew on every call costs (optional; default 0)
 *   whole_ns = 64512:0;65536:21  a message sent whole between nodes (as MPI's own collectives send
 *                                it: above the eager limit, a rendezvous) beyond the same bytes in
 *                                libddl's eager pieces: SIZE:NS pairs, ns per byte of a SIZE-byte
 *                                message, sizes strictly increasing; the simulated `mpi` charges it
 *                                (optional: none = no charge, as before)
 * Every key at most once. A malformed line, an unknown or repeated key, a missing one, a negative
 * fit (a latency < 0, a bandwidth <= 0), an unknown unit, factor sizes that do not increase, rails
 * that do not divide the GPUs, an oversubscription below 1 or a NUL byte: an error naming the file,
 * the line where there is one, and the key (exit 2 in the CLI). */
#ifndef HARN_PLATFORM_FILE_H
#define HARN_PLATFORM_FILE_H

#include "platform.h"

#include <stdio.h>

#define PLATFORM_FACTOR_LEN 256

/* What a calibration adds to the links: its residuals and point counts per level (0 intra, 1 inter),
 * and SMPI's piecewise factors ("" = 1 at every size). Only the simulator applies the factors
 * (`ddlbench platform` writes them to DIR/smpi.cfg for simlaunch.sh); the α-β-γ model and `auto` use
 * the links alone. */
typedef struct platform_fit {
    double rms_pct[2];
    int points[2];
    char lat_factor[PLATFORM_FACTOR_LEN], bw_factor[PLATFORM_FACTOR_LEN];
    char ws_copy[PLATFORM_FACTOR_LEN]; /* ws_copy_ns: "SIZE:NS;..." ("" = none) */
    char copy[PLATFORM_FACTOR_LEN];    /* copy_ns: the same for a plain copy ("" = ws_copy's) */
    double call_overhead;              /* s per posted message (0 = none) */
    double poll_slack;                 /* s a polling wait's pause oversleeps (0 = none) */
    double fault_ns;                   /* ns per byte of fresh pages beyond warm memory (0 = none) */
    char whole[PLATFORM_FACTOR_LEN];   /* whole_ns: "SIZE:NS;..." ("" = none) */
} platform_fit;

/* Parse text[0..len) (name for messages). *pf gets nodes = 1; fit may be NULL. 0, or 2 with err. */
int platform_file_parse(const char *text, size_t len, const char *name, platform *pf, platform_fit *fit,
                        char *err, size_t errlen);
/* Read and parse a file; fit may be NULL. 0, or 2 with err. */
int platform_file_load(const char *path, platform *pf, platform_fit *fit, char *err, size_t errlen);
/* Write pf and fit as a platform file with the header's lines as comments, through path.tmp + rename.
 * 0, or 1 with err. */
int platform_file_write(const char *path, const platform *pf, const platform_fit *fit, const char *header,
                        char *err, size_t errlen);
/* pf's keys as a platform file's lines (latencies in us, bandwidths in GB/s; today's keys only where
 * used), what platform_file_write and `ddlbench platform --export` write. */
void platform_file_put(FILE *f, const platform *pf);
/* fit's keys as a platform file's lines (the calibration's rms and points where it has them, each
 * factor it holds): what platform_file_write adds after platform_file_put, and --export keeps. */
void platform_file_put_fit(FILE *f, const platform_fit *fit);
/* The SMPI options that apply fit's factors ("--cfg=smpi/lat-factor:..." lines), or nothing when
 * there are none. 0, or -1 on a write error. */
int platform_write_smpi_cfg(const platform_fit *fit, FILE *f);
/* The simulator's copy cost and per-call overhead (DDL_SIM_WS_COPY=..., DDL_SIM_CALL_OVERHEAD=...
 * lines, what simlaunch.sh exports from DIR/sim.env), or nothing when there are none. 0, or -1. */
int platform_write_sim_env(const platform_fit *fit, FILE *f);
/* Check a factor list "SIZE:F;SIZE:F...". 0, or 2 with a message (what is wrong). */
int platform_factor_check(const char *s, char *err, size_t errlen);

#endif
