/* platform_xml.c — the SMPI platform (SimGrid 4.1 XML, checked against SimGrid 3.32) of a platform
 * (platform.h), and its hostfile.
 *
 * The two-level machine keeps the layout every earlier figure was simulated on:
 *   zone "world" (DijkstraCache)
 *     cluster "nodeK" per node: one host per GPU, each with a SPLITDUPLEX private link (intra_bw per
 *       direction, latency intra_lat/2 so GPU→GPU is intra_lat), a FATPIPE backbone (every flow gets
 *       the full intra_bw: a non-blocking NVSwitch-like node switch) and a router "nodeK_gw";
 *     zone "fabric" holding router "switch" (the non-blocking network switch: no link of its own);
 *     link "nicK" per node: SPLITDUPLEX, nic_bw per direction, latency (inter_lat - intra_lat)/2;
 *     zoneRoutes nodeK -> fabric over nicK UP, fabric -> nodeK over nicK DOWN.
 *
 * Today's clusters (sockets, rails, a fat tree) need a message to leave a node by its own GPU's NIC.
 * A SimGrid zone has one gateway per route, so the node is split into units: the GPUs that share
 * both a socket half and a NIC, each unit a cluster "nK_uU" as above (its GPUs talk inside it over
 * their private links). The world zone routes between units, switches and the spine by Dijkstra:
 *   unit -> unit of its node: the NVSwitch (a FATPIPE "nvsK_w" of no latency and 1 PB/s: the GPUs'
 *     private links are the limit), or across the halves the link "xbusK" (SPLITDUPLEX socket_bw,
 *     latency socket_lat - intra_lat, UP from half 0 to 1);
 *   unit -> its leaf switch over its rail's NIC "nicK_J" (nic_bw/nics, latency (inter_lat - intra_lat)/2);
 *     one zone "fabric" with router "switch" without leaves, else zones "leafL" with router "leafL_r";
 *   leaf -> spine (zone "spine", router "spine_r") over "upL": SPLITDUPLEX, the leaf's NICs'
 *     bandwidth / oversub, latency (spine_lat - inter_lat)/2.
 * With direct links (nvlinks: DGX-1's cube-mesh) every unit is one GPU, and a unit-to-unit route
 * crosses its pair's link "nvlK_A_B" (SPLITDUPLEX, links x link_bw, no latency of its own: UP from
 * the lower GPU) or, for a pair without one, its path through the host "hostK_A_B" (SPLITDUPLEX
 * host_bw, latency host_lat - intra_lat: one path per pair, as a GPU talks to one partner a step).
 * SimGrid's Dijkstra takes the route with the fewest links (DijkstraZone.cpp: each route weighs its
 * link count), so the unit-to-unit routes weigh W links so that no other path ties or wins: W = 1
 * (the fabric's shortest detour is 2 links), but W = 3 with rail-aligned leaves, where a message to
 * another rail crosses the spine (4 links) and must not detour over a peer's NIC (W + 2 > 4) while
 * one inside a node must not leave it (W < 4). Hence every route here is the model's (cost.c): no
 * PXN-style forwarding, a message between rails of different leaves crosses the spine.
 * Reducing switches (collectives/switch.h), hosts no rank runs on: with nvls_bw, per node a zone "nvzK"
 * holding host "nvsK" (the NVSwitch; speed g x nvls_bw flop/s: a flop a byte it reduces), reached from each
 * unit over its GPUs' private links and W/2 + 1 links "nvpK_I" (FATPIPE, 1 PB/s, the first of latency
 * intra_lat/2: GPU to switch takes intra_lat, as a round trip through it), so that no unit-to-unit route
 * detours through it (2 (W/2 + 1) > W). A GPU's private link runs at intra_bw: the switch's traffic is
 * charged at nvls_bw by sending bytes x intra_bw / nvls_bw (property nvs_scale), so that a link shared with
 * other traffic takes the sum of both times, as nvls_cost.c counts it. With sharp_bw, host "leafL_h" in
 * each leaf zone behind link "sh_leafL" (FATPIPE: each port at sharp_bw, latency inter_lat/2) and "spine_h"
 * in the spine zone behind "sh_spine" (latency spine_lat/2), both of speed ranks x sharp_bw (never the
 * limit). Each GPU's cluster names its switches in <prop>s, which SimGrid gives the cluster's zone: nvs,
 * nvs_scale, sharp, leaf (its index), spine. */
#include "platform.h"

#include <stdio.h>

/* The <prop>s of node k's cluster (unit u's leaf, or -1 without leaves) naming its reducing switches. */
static void switch_props(const platform *pf, FILE *f, int k, int leaf)
{
    if (pf->nvls_bw > 0)
        fprintf(f, "<prop id=\"nvs\" value=\"nvs%d\"/><prop id=\"nvs_scale\" value=\"%.9g\"/>", k,
                pf->intra_bw / pf->nvls_bw);
    if (pf->sharp_bw > 0 && leaf >= 0)
        fprintf(f, "<prop id=\"sharp\" value=\"leaf%d_h\"/><prop id=\"leaf\" value=\"%d\"/>"
                   "<prop id=\"spine\" value=\"spine_h\"/>", leaf, leaf);
}

/* Node k's NVSwitch: its zone and host, and the w links that weigh its routes. */
static void nvs_zone(const platform *pf, FILE *f, int k, int w)
{
    fprintf(f, "  <zone id=\"nvz%d\" routing=\"Full\"><host id=\"nvs%d\" speed=\"%.9gf\"/></zone>\n", k, k,
            pf->gpus_per_node * pf->nvls_bw);
    for (int i = 0; i < w; i++)
        fprintf(f, "  <link id=\"nvp%d_%d\" bandwidth=\"1e15Bps\" latency=\"%.9gs\" sharing_policy=\"FATPIPE\"/>\n", k,
                i, i ? 0 : pf->intra_lat / 2);
}

static int write_two_level(const platform *pf, FILE *f)
{
    const int g = pf->gpus_per_node;
    const double gpu_lat = pf->intra_lat / 2, nic_lat = (pf->inter_lat - pf->intra_lat) / 2;
    fprintf(f, "<zone id=\"world\" routing=\"DijkstraCache\">\n");
    for (int k = 0; k < pf->nodes; k++) {
        fprintf(f, "  <cluster id=\"node%d\" prefix=\"gpu\" suffix=\"\" radical=\"%ld-%ld\" speed=\"1Gf\" "
                   "bw=\"%.9gBps\" lat=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\" bb_bw=\"%.9gBps\" bb_lat=\"0s\" "
                   "bb_sharing_policy=\"FATPIPE\" router_id=\"node%d_gw\">",
                k, (long)k * g, (long)k * g + g - 1, pf->intra_bw, gpu_lat, pf->intra_bw, k);
        switch_props(pf, f, k, -1);
        fprintf(f, "</cluster>\n");
        if (pf->nvls_bw > 0) nvs_zone(pf, f, k, 1);
    }
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
    for (int k = 0; k < pf->nodes && pf->nvls_bw > 0; k++) /* after every zone and link, as the DTD wants */
        fprintf(f, "  <zoneRoute src=\"node%d\" dst=\"nvz%d\" gw_src=\"node%d_gw\" gw_dst=\"nvs%d\" "
                   "symmetrical=\"YES\"><link_ctn id=\"nvp%d_0\"/></zoneRoute>\n", k, k, k, k, k);
    fprintf(f, "</zone>\n");
    return 0;
}

/* The shape of the split: units per node, GPUs per unit, NICs, and the unit-to-unit weight. */
typedef struct split { int units, per_unit, nics, weight, leaves; } split;

static split split_of(const platform *pf)
{
    const int s = platform_sockets(pf), r = platform_nics(pf), k = pf->leaf_nodes;
    split sp = { platform_has_links(pf) ? pf->gpus_per_node
                 : s > r                ? s
                                        : r,
                 0, r, pf->rail_leaves && r > 1 ? 3 : 1, 0 };
    sp.per_unit = pf->gpus_per_node / sp.units;
    if (k > 0) sp.leaves = ((pf->nodes + k - 1) / k) * (pf->rail_leaves ? r : 1);
    return sp;
}

/* The switch a unit's NIC plugs into, as a zone id and its router. */
static int leaf_of(const platform *pf, const split *sp, int node, int unit)
{
    int nic = unit * sp->nics / sp->units;
    if (!pf->leaf_nodes) return -1;
    return pf->rail_leaves ? (node / pf->leaf_nodes) * sp->nics + nic : node / pf->leaf_nodes;
}

static void switch_of(const platform *pf, const split *sp, int node, int unit, char *zone, char *router)
{
    int leaf = leaf_of(pf, sp, node, unit);
    if (leaf < 0) {
        snprintf(zone, 32, "fabric"), snprintf(router, 32, "switch");
        return;
    }
    snprintf(zone, 32, "leaf%d", leaf), snprintf(router, 32, "leaf%d_r", leaf);
}

static void route(FILE *f, const char *src, const char *dst, const char *gs, const char *gd)
{
    fprintf(f, "  <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s\" gw_dst=\"%s\" symmetrical=\"NO\">", src, dst, gs, gd);
}

/* Unit u to unit v of node k: W links, the X-bus first when they sit in different halves. */
static void unit_route(const platform *pf, const split *sp, FILE *f, int k, int u, int v)
{
    char a[32], b[32], ga[40], gb[40];
    int half_u = u * platform_sockets(pf) / sp->units, half_v = v * platform_sockets(pf) / sp->units, w = 0;
    snprintf(a, sizeof a, "n%d_u%d", k, u), snprintf(b, sizeof b, "n%d_u%d", k, v);
    snprintf(ga, sizeof ga, "%s_gw", a), snprintf(gb, sizeof gb, "%s_gw", b);
    route(f, a, b, ga, gb);
    if (platform_has_links(pf)) { /* units are GPUs: their pair's links, or the host */
        int n = pf->links[u * pf->gpus_per_node + v], lo = u < v ? u : v, hi = u < v ? v : u;
        if (n) fprintf(f, "<link_ctn id=\"nvl%d_%d_%d\" direction=\"%s\"/>", k, lo, hi, u < v ? "UP" : "DOWN");
        else fprintf(f, "<link_ctn id=\"host%d_%d_%d\" direction=\"%s\"/>", k, lo, hi, u < v ? "UP" : "DOWN");
        w++;
    } else if (half_u != half_v) {
        fprintf(f, "<link_ctn id=\"xbus%d\" direction=\"%s\"/>", k, half_u < half_v ? "UP" : "DOWN"), w++;
    }
    for (; w < sp->weight; w++) fprintf(f, "<link_ctn id=\"nvs%d_%d\"/>", k, w);
    fprintf(f, "</zoneRoute>\n");
}

static void node_parts(const platform *pf, const split *sp, FILE *f, int k)
{
    const double gpu_lat = pf->intra_lat / 2, nic_lat = (pf->inter_lat - pf->intra_lat) / 2;
    const long first = (long)k * pf->gpus_per_node;
    for (int u = 0; u < sp->units; u++)
        fprintf(f, "  <cluster id=\"n%d_u%d\" prefix=\"gpu\" suffix=\"\" radical=\"%ld-%ld\" speed=\"1Gf\" "
                   "bw=\"%.9gBps\" lat=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\" bb_bw=\"%.9gBps\" bb_lat=\"0s\" "
                   "bb_sharing_policy=\"FATPIPE\" router_id=\"n%d_u%d_gw\">",
                k, u, first + (long)u * sp->per_unit, first + (long)(u + 1) * sp->per_unit - 1, pf->intra_bw,
                gpu_lat, pf->intra_bw, k, u),
            switch_props(pf, f, k, leaf_of(pf, sp, k, u)), fprintf(f, "</cluster>\n");
    if (pf->nvls_bw > 0) nvs_zone(pf, f, k, sp->weight / 2 + 1);
    for (int j = 0; j < sp->nics; j++)
        fprintf(f, "  <link id=\"nic%d_%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                k, j, pf->nic_bw / sp->nics, nic_lat);
    if (platform_sockets(pf) == 2)
        fprintf(f, "  <link id=\"xbus%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                k, pf->socket_bw, platform_socket_lat(pf) - pf->intra_lat);
    if (platform_has_links(pf)) {
        const int g = pf->gpus_per_node;
        for (int a = 0; a < g; a++)
            for (int b = a + 1; b < g; b++) {
                int n = pf->links[a * g + b];
                fprintf(f, "  <link id=\"%s%d_%d_%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" "
                           "sharing_policy=\"SPLITDUPLEX\"/>\n", n ? "nvl" : "host", k, a, b,
                        n ? n * pf->link_bw : pf->host_bw, n ? 0 : pf->host_lat - pf->intra_lat);
            }
    }
    for (int w = 0; w < sp->weight && sp->units > 1; w++)
        fprintf(f, "  <link id=\"nvs%d_%d\" bandwidth=\"1e15Bps\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>\n", k, w);
}

static void node_routes(const platform *pf, const split *sp, FILE *f, int k)
{
    char zone[32], router[32], unit[32], gw[40];
    for (int u = 0; u < sp->units; u++) {
        int nic = u * sp->nics / sp->units;
        for (int v = 0; v < sp->units; v++)
            if (v != u) unit_route(pf, sp, f, k, u, v);
        switch_of(pf, sp, k, u, zone, router);
        snprintf(unit, sizeof unit, "n%d_u%d", k, u), snprintf(gw, sizeof gw, "%s_gw", unit);
        route(f, unit, zone, gw, router);
        fprintf(f, "<link_ctn id=\"nic%d_%d\" direction=\"UP\"/></zoneRoute>\n", k, nic);
        route(f, zone, unit, router, gw);
        fprintf(f, "<link_ctn id=\"nic%d_%d\" direction=\"DOWN\"/></zoneRoute>\n", k, nic);
        if (pf->nvls_bw <= 0) continue;
        fprintf(f, "  <zoneRoute src=\"%s\" dst=\"nvz%d\" gw_src=\"%s\" gw_dst=\"nvs%d\" symmetrical=\"YES\">", unit,
                k, gw, k);
        for (int i = 0; i < sp->weight / 2 + 1; i++) fprintf(f, "<link_ctn id=\"nvp%d_%d\"/>", k, i);
        fprintf(f, "</zoneRoute>\n");
    }
}

/* IB SHARP's aggregation in a leaf (l >= 0) or the spine zone: a host behind a link of sharp_bw a flow. */
static void sharp_host(const platform *pf, FILE *f, const char *zone, int l, double lat)
{
    char id[32];
    if (pf->sharp_bw <= 0) return;
    if (l >= 0) snprintf(id, sizeof id, "%s%d", zone, l);
    else snprintf(id, sizeof id, "%s", zone);
    fprintf(f, "<host id=\"%s_h\" speed=\"%.9gf\"/><link id=\"sh_%s\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" "
               "sharing_policy=\"FATPIPE\"/><route src=\"%s_r\" dst=\"%s_h\" symmetrical=\"YES\">"
               "<link_ctn id=\"sh_%s\"/></route>",
            id, (double)pf->nodes * pf->gpus_per_node * pf->sharp_bw, id, pf->sharp_bw, lat, id, id, id);
}

static int write_split(const platform *pf, FILE *f)
{
    const split sp = split_of(pf);
    const double up_bw = pf->leaf_nodes * (pf->rail_leaves ? pf->nic_bw / sp.nics : pf->nic_bw) / platform_oversub(pf);
    fprintf(f, "<zone id=\"world\" routing=\"DijkstraCache\">\n");
    for (int k = 0; k < pf->nodes; k++) node_parts(pf, &sp, f, k);
    if (!pf->leaf_nodes) fprintf(f, "  <zone id=\"fabric\" routing=\"Full\"><router id=\"switch\"/></zone>\n");
    for (int l = 0; l < sp.leaves; l++) {
        fprintf(f, "  <zone id=\"leaf%d\" routing=\"Full\"><router id=\"leaf%d_r\"/>", l, l);
        sharp_host(pf, f, "leaf", l, pf->inter_lat / 2);
        fprintf(f, "</zone>\n"
                   "  <link id=\"up%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                l, up_bw, (platform_spine_lat(pf) - pf->inter_lat) / 2);
    }
    if (sp.leaves) {
        fprintf(f, "  <zone id=\"spine\" routing=\"Full\"><router id=\"spine_r\"/>");
        sharp_host(pf, f, "spine", -1, platform_spine_lat(pf) / 2);
        fprintf(f, "</zone>\n");
    }
    for (int k = 0; k < pf->nodes; k++) node_routes(pf, &sp, f, k);
    for (int l = 0; l < sp.leaves; l++) {
        char leaf[32], r[32];
        snprintf(leaf, sizeof leaf, "leaf%d", l), snprintf(r, sizeof r, "leaf%d_r", l);
        route(f, leaf, "spine", r, "spine_r");
        fprintf(f, "<link_ctn id=\"up%d\" direction=\"UP\"/></zoneRoute>\n", l);
        route(f, "spine", leaf, "spine_r", r);
        fprintf(f, "<link_ctn id=\"up%d\" direction=\"DOWN\"/></zoneRoute>\n", l);
    }
    fprintf(f, "</zone>\n");
    return 0;
}

/* The name inside an XML comment, where "--" may not appear: each '-' after a '-' as '_'. */
static void comment_name(const char *name, char *out, size_t len)
{
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++) out[i] = name[i] == '-' && i && name[i - 1] == '-' ? '_' : name[i];
    out[i] = '\0';
}

int platform_write_xml(const platform *pf, FILE *f)
{
    char name[sizeof pf->name];
    comment_name(pf->name, name, sizeof name);
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<platform version=\"4.1\">\n");
    fprintf(f, "<!-- ddlbench platform %s: %d nodes x %d GPUs; GPU link %.6g B/s, %.6g s GPU-GPU in a node; "
               "NIC %.6g B/s per node, %.6g s GPU-GPU between nodes",
            name, pf->nodes, pf->gpus_per_node, pf->intra_bw, pf->intra_lat, pf->nic_bw, pf->inter_lat);
    if (!platform_two_level(pf))
        fprintf(f,
                "; %d sockets (%.6g B/s, %.6g s); %d NICs; %d nodes per leaf%s, oversubscription %.6g, %.6g s "
                "across the spine",
                platform_sockets(pf), pf->socket_bw, platform_socket_lat(pf), platform_nics(pf), pf->leaf_nodes,
                pf->rail_leaves ? " (a leaf per rail)" : "", platform_oversub(pf), platform_spine_lat(pf));
    fprintf(f, " -->\n");
    (platform_two_level(pf) ? write_two_level : write_split)(pf, f);
    fprintf(f, "</platform>\n");
    return ferror(f) ? -1 : 0;
}

int platform_write_hostfile(const platform *pf, FILE *f)
{
    for (long i = 0; i < (long)platform_ranks(pf); i++) fprintf(f, "gpu%ld\n", i);
    return ferror(f) ? -1 : 0;
}
