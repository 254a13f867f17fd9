/* test_platform.c — presets are sane, options are validated, the XML is well-formed with one host
 * per GPU, and the unit parsers accept and reject what they should. */
#include "platform.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static char *xml_of(const platform *pf, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    int rc = platform_write_xml(pf, f);
    fclose(f);
    if (rc) { free(buf); return NULL; }
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* Every '<' opens a tag closed by '>', every <zone>/<platform> opened is closed. */
static int well_formed(const char *s)
{
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '<') continue;
        const char *e = strchr(p, '>');
        if (!e) return 0;
        if (p[1] == '/') depth--;
        else if (p[1] != '?' && p[1] != '!' && e[-1] != '/') depth++;
        if (depth < 0) return 0;
        p = e;
    }
    return depth == 0;
}

/* Today's layout: units per socket and rail, leaves, the spine; the two-level one kept as it was. */
static void today(void)
{
    platform pf;
    char err[256], *x;
    size_t len;
    CHECK(platform_init(&pf, "dgxh200", 64, 0, err, sizeof err) == 0 && pf.nics == 8 && pf.leaf_nodes == 32,
          "dgxh200: 8 rails, leaves of 32: %s", err);
    x = xml_of(&pf, &len);
    CHECK(x && well_formed(x) && count(x, "<cluster ") == 64 * 8 && count(x, "<zone id=\"leaf") == 2 * 8 &&
              count(x, "<zone id=\"spine\"") == 1 && count(x, "<link id=\"nic") == 64 * 8,
          "dgxh200 x 64: 512 units, 16 leaves");
    CHECK(x && count(x, "<link_ctn id=\"nvs0_2\"/>") == 8 * 7, "rail leaves: in-node routes weigh 3 links");
    free(x);
    CHECK(platform_init(&pf, "dgxh200", 4, 0, err, sizeof err) == 0 && pf.leaf_nodes == 4,
          "a preset's leaf part filled");
    CHECK(platform_init(&pf, "dgxh200", 4, 2, err, sizeof err) == 0 && pf.nics == 2 && pf.nic_bw == 96e9 &&
          pf.nic_line_bw == 100e9, "2 GPUs of a DGX: their 2 rails of 48 GB/s achieved, 50 line (%g)", pf.nic_bw);
    pf.intra_line_bw = pf.intra_bw / 2;
    CHECK(platform_check(&pf, err, sizeof err) == 2 && strstr(err, "intra_line_bw"), "a line rate under the achieved "
          "one refused: %s", err);
    pf.intra_line_bw = 0, pf.nic_line_bw = 1;
    CHECK(platform_check(&pf, err, sizeof err) == 2 && strstr(err, "nic_line_bw"), "nic_line_bw below nic_bw: %s", err);
    CHECK(platform_init(&pf, "dgx1", 2, 4, err, sizeof err) == 0 && pf.nics == 2 && pf.links[0 * 4 + 3] == 2 &&
          pf.links[1 * 4 + 2] == 2, "4 GPUs of a DGX-1: one quad's links, its 2 NICs");
    CHECK(platform_init(&pf, "dgx1", 2, 0, err, sizeof err) == 0 && (x = xml_of(&pf, &len)) && well_formed(x) &&
          count(x, "<link id=\"nvl") == 2 * 16 && count(x, "<link id=\"host") == 2 * 12 &&
          count(x, "<cluster ") == 2 * 8 && count(x, "<link_ctn id=\"host0_3_4\" direction=\"UP\"/>") == 1,
          "dgx1: the cube-mesh's 16 linked pairs, 12 through the host, a unit per GPU");
    free(x);
    CHECK(platform_init(&pf, "dgx1", 2, 9, err, sizeof err) == 2, "9 GPUs on an 8-GPU mesh: refused");
    CHECK(platform_init(&pf, "h200", 2, 0, err, sizeof err) == 0 && (x = xml_of(&pf, &len)) &&
          count(x, "<cluster id=\"node") == 2 && !strstr(x, "leaf"), "h200: the two-level layout of before");
    free(x);
    snprintf(pf.name, sizeof pf.name, "a--b---c");
    x = xml_of(&pf, &len);
    CHECK(x && count(x, "--") == 2, "a name with -- stays out of the comment's delimiters");
    free(x);
}

/* The reducing switches as hosts no rank runs on (collectives/switch.h): an NVSwitch per node with nvls_bw,
 * reached from each GPU's unit over links that outweigh a unit-to-unit route; with sharp_bw an aggregation
 * per leaf and one at the spine; each GPU's cluster names its switches; none without the rates. */
static void switches(void)
{
    platform pf;
    char err[256], *x;
    size_t len;
    CHECK(platform_init(&pf, "dgxh100", 2, 0, err, sizeof err) == 0 && pf.nvls_bw > 0, "dgxh100 x 2: %s", err);
    x = xml_of(&pf, &len);
    CHECK(x && well_formed(x) && count(x, "<host id=\"nvs") == 2 && count(x, "dst=\"nvz1\"") == 8 &&
              count(x, "<link_ctn id=\"nvp0_1\"/>") == 8 && count(x, "<link_ctn id=\"nvp0_2\"/>") == 0,
          "dgxh100 x 2: an NVSwitch host a node, its routes weigh 2 links (rail leaves: unit to unit 3)");
    CHECK(x && count(x, "<prop id=\"nvs\" value=\"nvs1\"/>") == 8 && count(x, "<prop id=\"nvs_scale\"") == 16 &&
              !strstr(x, "_h\""), "dgxh100: each cluster names its NVSwitch; no SHARP host");
    free(x);
    pf.sharp_bw = 48e9;
    x = xml_of(&pf, &len);
    CHECK(x && well_formed(x) && count(x, "<host id=\"leaf") == 8 && count(x, "<host id=\"spine_h\"") == 1 &&
              count(x, "<prop id=\"sharp\" value=\"leaf3_h\"/>") == 2 &&
              count(x, "<prop id=\"leaf\" value=\"3\"/>") == 2,
          "sharp_bw: an aggregation host per rail leaf and the spine, named by the GPUs of its rail");
    free(x);
    CHECK(platform_init(&pf, "h200", 2, 0, err, sizeof err) == 0, "h200: %s", err);
    pf.nvls_bw = 400e9; /* the two-level layout: SimGrid's DTD wants every zoneRoute after the zones and links */
    x = xml_of(&pf, &len);
    CHECK(x && well_formed(x) && count(x, "<host id=\"nvs") == 2 && count(x, "dst=\"nvz1\"") == 1 &&
              strstr(x, "<zoneRoute") > strstr(x, "<link id=\"nvp1_0\""), "two-level: the NVSwitch hosts, routes last");
    free(x);
    CHECK(platform_init(&pf, "dgxa100", 2, 0, err, sizeof err) == 0 && (x = xml_of(&pf, &len)) && well_formed(x) &&
              !strstr(x, "<prop") && !strstr(x, "nvs0\""), "dgxa100 (no reducing switch): no switch host");
    free(x);
}

int main(void)
{
    platform pf;
    char err[256];
    double v;

    CHECK(platform_preset_count() == 8, "8 presets");
    today();
    switches();
    for (int i = 0; i < platform_preset_count(); i++) {
        const platform *p = platform_preset(i);
        if (!strcmp(p->name, "custom")) continue;
        CHECK(p->gpus_per_node >= 1 && p->intra_bw >= p->nic_bw / p->gpus_per_node, "%s: links", p->name);
        CHECK(p->inter_lat >= p->intra_lat && p->intra_lat > 0, "%s: latencies", p->name);
        CHECK(platform_init(&pf, p->name, 64, 0, err, sizeof err) == 0, "%s: %s", p->name, err);
    }
    CHECK(platform_init(&pf, "minsky", 64, 0, err, sizeof err) == 0 && pf.gpus_per_node == 4 &&
              pf.nic_bw == 12.5e9 && pf.intra_bw == 80e9 && platform_ranks(&pf) == 256, "minsky 64 nodes");
    CHECK(platform_init(&pf, "bigbasin", 32, 0, err, sizeof err) == 0 && pf.gpus_per_node == 8 &&
              pf.nic_bw == 6.25e9, "bigbasin");
    CHECK(platform_init(&pf, "h200", 2, 0, err, sizeof err) == 0 && pf.nic_bw == 400e9, "h200");
    CHECK(platform_init(&pf, "minsky", 4, 2, err, sizeof err) == 0 && platform_ranks(&pf) == 8, "gpus override");

    CHECK(platform_init(&pf, "nosuch", 4, 0, err, sizeof err) == 2 && strstr(err, "--platform"), "unknown preset");
    CHECK(platform_init(&pf, "minsky", 0, 0, err, sizeof err) == 2 && strstr(err, "--nodes"), "0 nodes");
    CHECK(platform_init(&pf, "minsky", -1, 0, err, sizeof err) == 2, "negative nodes");
    CHECK(platform_init(&pf, "minsky", 1 << 20, 0, err, sizeof err) == 2, "huge nodes");
    CHECK(platform_init(&pf, "minsky", 4, -2, err, sizeof err) == 2, "negative gpus");
    CHECK(platform_init(&pf, "minsky", 16384, 64, err, sizeof err) == 2 && strstr(err, "65536"), "too many GPUs");

    {   /* option parsing */
        char *argv[] = { "x", "--nodes", "0", "--gpus-per-node", "0", "--nodes", "abc", "--inter-bw", "fast",
                         "--preset", "custom", "--nodes", "3", "--intra-bw", "80G", "--intra-lat", "5us",
                         "--inter-bw", "100Gbit", "--inter-lat", "9us", "--other", "--nodes" };
        int argc = (int)(sizeof argv / sizeof argv[0]), i;
        platform_opts o = PLATFORM_OPTS_INIT;
        i = 1; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 2, "--nodes 0");
        i = 3; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 2, "--gpus-per-node 0");
        i = 5; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 2, "--nodes abc");
        i = 7; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 2, "--inter-bw fast");
        for (i = 9; i < 21; i++) CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 0, "opt %d", i);
        i = 21; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 1, "not a platform option");
        i = 22; CHECK(platform_opt(argc, argv, &i, &o, err, sizeof err) == 2, "missing value");
        CHECK(platform_from_opts(&o, &pf, err, sizeof err) == 0 && pf.nic_bw == 12.5e9 && pf.intra_lat == 5e-6 &&
                  pf.nodes == 3 && pf.gpus_per_node == 1, "custom: %s", err);
        o.inter_lat = 1e-6; /* below intra_lat */
        CHECK(platform_from_opts(&o, &pf, err, sizeof err) == 2 && strstr(err, "--inter-lat"), "inter < intra");
        platform_opts m = PLATFORM_OPTS_INIT;
        m.nodes = 2;
        m.intra_bw = 1e9;
        CHECK(platform_from_opts(&m, &pf, err, sizeof err) == 2, "link options need custom");
        m.intra_bw = -1;
        m.nodes = -1;
        CHECK(platform_from_opts(&m, &pf, err, sizeof err) == 2 && strstr(err, "required"), "nodes required");
    }

    CHECK(platform_parse_bw("12.5G", &v) == 0 && v == 12.5e9, "12.5G");
    CHECK(platform_parse_bw("100Gbit", &v) == 0 && v == 12.5e9, "100Gbit");
    CHECK(platform_parse_bw("80GB/s", &v) == 0 && v == 80e9, "80GB/s");
    CHECK(platform_parse_bw("1e9", &v) == 0 && v == 1e9, "1e9");
    CHECK(platform_parse_bw("12Q", &v) == 2 && platform_parse_bw("", &v) == 2 && platform_parse_bw("-1G", &v) == 2,
          "bad bandwidths");
    CHECK(platform_parse_lat("5us", &v) == 0 && v == 5e-6, "5us");
    CHECK(platform_parse_lat("2ms", &v) == 0 && v == 2e-3, "2ms");
    CHECK(platform_parse_lat("5 us", &v) == 2 && platform_parse_lat("us", &v) == 2, "bad latencies");
    CHECK(platform_parse_bw("0x10G", &v) == 2 && platform_parse_bw("infGbit", &v) == 2 &&
              platform_parse_bw("nan", &v) == 2 && platform_parse_lat("0x5us", &v) == 2 &&
              platform_parse_lat("inf", &v) == 2 && platform_parse_lat("+5us", &v) == 2,
          "decimal numbers only: no hexadecimal, inf, nan or +");

    for (int nodes = 1; nodes <= 64; nodes *= 4) {
        size_t len = 0;
        CHECK(platform_init(&pf, "minsky", nodes, 0, err, sizeof err) == 0, "init");
        char *x = xml_of(&pf, &len);
        CHECK(x != NULL, "xml written");
        if (!x) continue;
        CHECK(well_formed(x), "%d nodes: well-formed", nodes);
        CHECK(count(x, "<cluster ") == nodes, "%d nodes: clusters", nodes);
        CHECK(count(x, "<zoneRoute ") == 2 * nodes, "%d nodes: routes up and down", nodes);
        CHECK(count(x, "sharing_policy=\"SPLITDUPLEX\"") == 2 * nodes, "%d nodes: full-duplex links", nodes);
        int hosts = 0;
        for (const char *p = x; (p = strstr(p, "radical=\"")); p++) {
            long a, b;
            if (sscanf(p, "radical=\"%ld-%ld\"", &a, &b) == 2) hosts += (int)(b - a + 1);
        }
        CHECK(hosts == 4 * nodes, "%d nodes: %d hosts, expected %d", nodes, hosts, 4 * nodes);
        free(x);
        char *h = NULL;
        FILE *f = open_memstream(&h, &len);
        CHECK(f && platform_write_hostfile(&pf, f) == 0, "hostfile");
        if (f) fclose(f);
        CHECK(h && count(h, "\n") == 4 * nodes && !strncmp(h, "gpu0\ngpu1\n", 10), "hostfile lines");
        free(h);
    }
    { /* the platform's GPU, its own profile, NAME-x variants of it; another GPU's refused */
        const char *use = NULL;
        CHECK(platform_init(&pf, "dgxh100", 1, 0, err, sizeof err) == 0, "dgxh100: %s", err);
        CHECK(platform_profile(&pf, NULL, 0, &use, err, sizeof err) == 0 && !strcmp(use, "h100"), "own: h100");
        CHECK(platform_profile(&pf, "h100-amp", 0, &use, err, sizeof err) == 0 && !strcmp(use, "h100-amp"),
              "h100-amp on dgxh100: %s", err);
        CHECK(platform_profile(&pf, "a100-amp", 0, &use, err, sizeof err) == 2 && strstr(err, "a100-amp"),
              "a100-amp on dgxh100 refused: %s", err);
        CHECK(platform_profile(&pf, "h200", 0, &use, err, sizeof err) == 2, "h200 on dgxh100 refused");
        CHECK(platform_profile(&pf, "a100-amp", 1, &use, err, sizeof err) == 0, "--override-platform: accepted");
    }
    return TEST_REPORT();
}
