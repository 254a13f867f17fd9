/* platform_file_write.c — platform files written as a person would (platform_file_put, read back by
 * platform_file_parse), whole or not at all (platform_file_write), and the SMPI and simulator settings of
 * a fit (smpi.cfg, sim.env). */
#include "platform_file.h"
#include "outfile.h"

#include <stdio.h>
#include <string.h>

/* A latency in us and a bandwidth in GB/s, as a person writes them (and the parser reads back). */
static void put_lat(FILE *f, const char *k, double s) { fprintf(f, "%s = %.6gus\n", k, s * 1e6); }
static void put_bw(FILE *f, const char *k, double b) { fprintf(f, "%s = %.6gGB/s\n", k, b / 1e9); }

void platform_file_put(FILE *f, const platform *pf)
{
    fprintf(f, "name = %s\n", pf->name);
    if (pf->profile[0]) fprintf(f, "profile = %s\n", pf->profile);
    fprintf(f, "gpus_per_node = %d\n", pf->gpus_per_node);
    put_lat(f, "intra_lat", pf->intra_lat), put_bw(f, "intra_bw", pf->intra_bw);
    if (pf->intra_line_bw > 0) put_bw(f, "intra_line_bw", pf->intra_line_bw);
    if (pf->nvls_bw > 0) put_bw(f, "nvls_bw", pf->nvls_bw);
    if (platform_sockets(pf) == 2) {
        fprintf(f, "sockets = 2\n");
        put_bw(f, "socket_bw", pf->socket_bw), put_lat(f, "socket_lat", platform_socket_lat(pf));
    }
    put_lat(f, "inter_lat", pf->inter_lat);
    if (platform_nics(pf) > 1) fprintf(f, "nics = %d\n", pf->nics), put_bw(f, "nic_bw", pf->nic_bw / pf->nics);
    else put_bw(f, "inter_bw", pf->nic_bw);
    if (pf->nic_line_bw > 0) put_bw(f, "nic_line_bw", pf->nic_line_bw / platform_nics(pf)); /* as nic_bw */
    if (platform_has_links(pf)) {
        const int g = pf->gpus_per_node;
        fprintf(f, "nvlinks = ");
        for (int a = 0, first = 1; a < g; a++)
            for (int b = a + 1; b < g; b++)
                if (pf->links[a * g + b])
                    fprintf(f, "%s%d-%d:%d", first ? "" : ",", a, b, pf->links[a * g + b]), first = 0;
        fprintf(f, "\n");
        put_bw(f, "nvlink_bw", pf->link_bw), put_bw(f, "host_bw", pf->host_bw), put_lat(f, "host_lat", pf->host_lat);
    }
    if (pf->leaf_nodes) {
        fprintf(f, "leaf_nodes = %d\nrail_leaves = %s\noversubscription = %.6g\n", pf->leaf_nodes,
                pf->rail_leaves ? "yes" : "no", platform_oversub(pf));
        put_lat(f, "spine_lat", platform_spine_lat(pf));
    }
    if (pf->sharp_bw > 0) put_bw(f, "sharp_bw", pf->sharp_bw);
}

void platform_file_put_fit(FILE *f, const platform_fit *fit)
{
    if (fit->points[0] || fit->points[1] || fit->rms_pct[0] || fit->rms_pct[1])
        fprintf(f, "intra_rms_pct = %.3g\ninter_rms_pct = %.3g\nintra_points = %d\ninter_points = %d\n",
                fit->rms_pct[0], fit->rms_pct[1], fit->points[0], fit->points[1]);
    if (fit->lat_factor[0]) fprintf(f, "lat_factor = %s\n", fit->lat_factor);
    if (fit->bw_factor[0]) fprintf(f, "bw_factor = %s\n", fit->bw_factor);
    if (fit->ws_copy[0]) fprintf(f, "ws_copy_ns = %s\n", fit->ws_copy);
    if (fit->copy[0]) fprintf(f, "copy_ns = %s\n", fit->copy);
    if (fit->call_overhead > 0) fprintf(f, "call_overhead = %.4gus\n", fit->call_overhead * 1e6);
    if (fit->poll_slack > 0) fprintf(f, "poll_slack = %.4gus\n", fit->poll_slack * 1e6);
    if (fit->fault_ns > 0) fprintf(f, "fault_ns = %.4g\n", fit->fault_ns);
    if (fit->whole[0]) fprintf(f, "whole_ns = %s\n", fit->whole);
}

int platform_file_write(const char *path, const platform *pf, const platform_fit *fit, const char *header,
                        char *err, size_t errlen)
{
    outfile o;
    if (outfile_open(&o, path, err, errlen)) return 1;
    FILE *f = o.f;
    for (const char *h = header; h && *h;) {
        size_t n = strcspn(h, "\n");
        fprintf(f, "# %.*s\n", (int)n, h);
        h += n + (h[n] == '\n');
    }
    platform_file_put(f, pf);
    if (fit) platform_file_put_fit(f, fit);
    return outfile_commit(&o, err, errlen);
}

int platform_write_smpi_cfg(const platform_fit *fit, FILE *f)
{
    if (fit->lat_factor[0]) fprintf(f, "--cfg=smpi/lat-factor:%s\n", fit->lat_factor);
    if (fit->bw_factor[0]) fprintf(f, "--cfg=smpi/bw-factor:%s\n", fit->bw_factor);
    return ferror(f) ? -1 : 0;
}

int platform_write_sim_env(const platform_fit *fit, FILE *f)
{
    if (fit->ws_copy[0]) fprintf(f, "DDL_SIM_WS_COPY=%s\n", fit->ws_copy);
    if (fit->copy[0]) fprintf(f, "DDL_SIM_COPY=%s\n", fit->copy);
    if (fit->call_overhead > 0) fprintf(f, "DDL_SIM_CALL_OVERHEAD=%.6g\n", fit->call_overhead);
    if (fit->poll_slack > 0) fprintf(f, "DDL_SIM_POLL_SLACK=%.6g\n", fit->poll_slack);
    if (fit->fault_ns > 0) fprintf(f, "DDL_SIM_FAULT=%.6g\n", fit->fault_ns);
    if (fit->whole[0]) fprintf(f, "DDL_SIM_WHOLE=%s\n", fit->whole);
    return ferror(f) ? -1 : 0;
}
