/* links.c — the pipeline's segment size and depth from the links (ddl_config.machine).
 *
 * A segment pays its link's latency once: with d segments in flight each way, a link of latency α and
 * bandwidth B stays busy when d·S/B >= α + S/B, i.e. when the segments in flight cover its
 * bandwidth-delay product α·B. A constant tuned for host memory (256 KiB) covers a PCIe-era or TCP link
 * (α·B of a few KB .. 100 KB) but not NVLink 4 (3 µs x 450 GB/s = 1.35 MB) or NDR InfiniBand through a
 * switch (6 µs x 50 GB/s = 300 KB; 2.4 MB when a node's eight NICs are one 400 GB/s pipe): there a
 * 64 MB ring reaches 0.56 of its link bound (docs/BENCHMARKS.md, "Segments sized from the link").
 *
 *   segment = the power of two >= 2·max(α·B) over the machine's levels, at least the location's
 *             default (kept where it was measured: host 256 KiB, device 4 MiB), at most 16 MiB;
 *   depth   = ceil(max(α·B) / segment) + 1, at least the location's default, at most COLL_MAX_DEPTH.
 * With segment >= 2·α·B one segment's transfer lasts at least twice the latency it pays, so two in
 * flight keep the link busy; the depth rule only grows past the default when the 16 MiB cap binds.
 * Levels: inside a node (intra_lat, intra_bw) when ranks_per_node > 1; between nodes (inter_lat,
 * min(intra_bw, nic_bw)) when there are several nodes. */
#include "coll.h"

#include <math.h>

#define LINK_SEGMENT_MAX (16u << 20)

double coll_link_bdp(const ddl_machine *m)
{
    double bdp = 0;
    if (m->ranks_per_node > 1) bdp = m->intra_lat * m->intra_bw;
    if (m->ranks > m->ranks_per_node) {
        double bw = m->nic_bw < m->intra_bw ? m->nic_bw : m->intra_bw, x = m->inter_lat * bw;
        if (x > bdp) bdp = x;
    }
    return bdp;
}

size_t coll_link_segment(const ddl_machine *m, size_t def)
{
    double want = 2 * coll_link_bdp(m);
    size_t s = def;
    while ((double)s < want && s < LINK_SEGMENT_MAX) s *= 2;
    return s;
}

int coll_link_depth(const ddl_machine *m, size_t segment, int def)
{
    double d = ceil(coll_link_bdp(m) / (double)segment) + 1;
    return d > COLL_MAX_DEPTH ? COLL_MAX_DEPTH : d > def ? (int)d : def;
}
