/* test_platform_file.c — platform files (harness/sim/platform_file.c): a calibrated file round-trips
 * through the writer, loads as a --preset, and every malformed, non-monotonic or negative input is
 * refused with a message naming the line. */
#include "platform.h"
#include "platform_file.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

static const char *good = "# calibrated\nname = lab-1\ngpus_per_node = 4\nintra_lat = 1.5e-06  # s\n"
                          "intra_bw = 1.2e10\ninter_lat = 3e-06\ninter_bw = 2.5e10\nintra_rms_pct = 4.2\n"
                          "bw_factor = 0:0.5;65536:1\nlat_factor = 0:1;65536:2\n";

static int refused(const char *text, const char *want)
{
    platform pf;
    char err[300] = "";
    int rc = platform_file_parse(text, strlen(text), "t.platform", &pf, NULL, err, sizeof err);
    if (rc != 2 || !strstr(err, want)) fprintf(stderr, "  rc %d, message \"%s\", want \"%s\"\n", rc, err, want);
    return rc == 2 && strstr(err, want) && !strchr(err, '\n');
}

/* good with one line replaced (key = value text of `line`) */
static char *with(const char *key, const char *line)
{
    static char buf[1024];
    const char *p = strstr(good, key), *e = strchr(p, '\n');
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - good), good, line, e);
    return buf;
}

/* Today's keys: units, rails, sockets and a fat tree; each bad one refused naming its key. */
static const char *dgx = "name = d\nprofile = h200\ngpus_per_node = 8\nintra_lat = 3us\nintra_bw = 450GB/s\n"
                         "inter_lat = 6us\nnics = 8\nnic_bw = 400Gbit\nleaf_nodes = 4\nrail_leaves = yes\n"
                         "oversubscription = 2:1\nspine_lat = 8us";

static char *dgx_with(const char *key, const char *line)
{
    static char buf[1024];
    const char *p = strstr(dgx, key), *e = strchr(p, '\n');
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - dgx), dgx, line, e ? e : "");
    return buf;
}

static void today(void)
{
    platform pf, back;
    char err[300], path[] = "/tmp/ddl_test_platformXXXXXX";
    CHECK(platform_file_parse(dgx, strlen(dgx), "d", &pf, NULL, err, sizeof err) == 0, "today's file: %s", err);
    CHECK(pf.intra_lat == 3e-6 && pf.intra_bw == 450e9 && pf.nics == 8 && pf.nic_bw == 400e9 && pf.leaf_nodes == 4 &&
          pf.rail_leaves == 1 && pf.oversub == 2 && pf.spine_lat == 8e-6 && !strcmp(pf.profile, "h200"),
          "units, rails and leaves read: nic_bw %g (8 x 50 GB/s), oversub %g", pf.nic_bw, pf.oversub);
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temp file");
    if (fd >= 0) close(fd);
    CHECK(platform_file_write(path, &pf, NULL, "export", err, sizeof err) == 0 &&
          platform_file_load(path, &back, NULL, err, sizeof err) == 0 && !memcmp(&back, &pf, sizeof pf),
          "today's file round-trips through the writer: %s", err);
    CHECK(platform_init(&back, path, 8, 0, err, sizeof err) == 0 && back.leaf_nodes == 4, "8 nodes on leaves of 4");
    CHECK(platform_init(&back, path, 2, 0, err, sizeof err) == 2 && strstr(err, "leaf_nodes") && strstr(err, path),
          "a leaf larger than the node count: names the key and the file: %s", err);
    unlink(path);
    CHECK(refused(dgx_with("nic_bw", "inter_bw = 50GB/s"), "inter_bw with nics = 8: ambiguous"),
          "inter_bw beside nics = 8 (per NIC or the node's?): refused, nic_bw asked for");
    CHECK(refused(dgx_with("nics", "nics = 3"), "t.platform: nics: expected a divisor"),
          "rails that don't divide the GPUs");
    CHECK(refused(dgx_with("oversub", "oversubscription = 0.5"), "oversubscription: expected a ratio >= 1"),
          "oversub < 1");
    CHECK(refused(dgx_with("oversub", "oversubscription = 1:2"), "oversubscription"), "oversub 1:2");
    CHECK(refused(dgx_with("intra_lat", "intra_lat = 3parsecs"), ":4: intra_lat"), "unknown latency unit");
    CHECK(refused(dgx_with("nic_bw", "nic_bw = 400Qbit"), ":8: nic_bw"), "unknown bandwidth unit");
    CHECK(refused(dgx_with("spine_lat", "spine_lat = 1us"), "spine_lat: expected inter_lat"), "spine faster than leaf");
    CHECK(refused(dgx_with("rail_leaves", "rail_leaves = maybe"), "rail_leaves: expected yes or no"), "bad yes/no");
    CHECK(refused(dgx_with("leaf_nodes", "leaf_nodes = 0"), "leaf_nodes"), "rail leaves without leaves");
    CHECK(refused(dgx_with("nic_bw", "nic_bw = 50GB/s\ninter_bw = 400GB/s"), "expected one of them"), "both bws");
    CHECK(refused(dgx_with("nics", "sockets = 2"), "socket_bw"), "two sockets without their link");
    CHECK(refused(dgx_with("nics", "wires = 8"), ":7: unknown key \"wires\""), "unknown key");
    CHECK(refused(dgx_with("profile", "profile = a/b"), "profile: expected"), "bad profile name");
    /* direct links (nvlinks): pairs with counts, read both ways; bad ones named */
    const char *mesh = "name = m\ngpus_per_node = 4\nintra_lat = 5us\nintra_bw = 75GB/s\ninter_lat = 10us\n"
                       "inter_bw = 12.5GB/s\nnvlinks = 0-1:2,1-2,2-3:3\nnvlink_bw = 25GB/s\nhost_bw = 16GB/s\n"
                       "host_lat = 9us\n";
    char buf[1024];
    CHECK(platform_file_parse(mesh, strlen(mesh), "m", &pf, NULL, err, sizeof err) == 0 && pf.links[0 * 4 + 1] == 2 &&
              pf.links[1 * 4 + 0] == 2 && pf.links[1 * 4 + 2] == 1 && pf.links[3 * 4 + 2] == 3 &&
              pf.links[0 * 4 + 3] == 0 && pf.link_bw == 25e9 && pf.host_bw == 16e9 && pf.host_lat == 9e-6,
          "nvlinks read: %s", err);
    snprintf(buf, sizeof buf, "%.*s%s", (int)(strstr(mesh, "nvlinks") - mesh), mesh, "nvlinks = 0-4\nnvlink_bw = 1G\n"
             "host_bw = 1G\nhost_lat = 9us\n");
    CHECK(refused(buf, "nvlinks: pair 0-4 outside gpus_per_node 4"), "a pair outside the node");
    snprintf(buf, sizeof buf, "%.*s%s", (int)(strstr(mesh, "nvlinks") - mesh), mesh, "nvlinks = 0-1,1-0\n");
    CHECK(refused(buf, "given twice"), "a pair twice");
    snprintf(buf, sizeof buf, "%.*s%s", (int)(strstr(mesh, "nvlinks") - mesh), mesh, "nvlinks = 0-1:x\n");
    CHECK(refused(buf, "nvlinks: expected GPU pairs"), "malformed");
    snprintf(buf, sizeof buf, "%.*s%s", (int)(strstr(mesh, "nvlinks") - mesh), mesh, "nvlinks = 0-1\n");
    CHECK(refused(buf, "nvlinks: expected nvlink_bw and host_bw"), "links without their bandwidths");
}

int main(void)
{
    platform pf, back;
    platform_fit fit, fit2;
    char err[300], path[] = "/tmp/ddl_test_platformXXXXXX";
    CHECK(platform_file_parse(good, strlen(good), "g", &pf, &fit, err, sizeof err) == 0, "good file: %s", err);
    CHECK(!strcmp(pf.name, "lab-1") && pf.gpus_per_node == 4 && pf.intra_lat == 1.5e-6 && pf.nic_bw == 2.5e10 &&
              fit.rms_pct[0] == 4.2 && !strcmp(fit.bw_factor, "0:0.5;65536:1"), "values read");
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temp file");
    if (fd >= 0) close(fd);
    CHECK(platform_file_write(path, &pf, &fit, "a header\nof two lines", err, sizeof err) == 0, "write: %s", err);
    CHECK(platform_file_load(path, &back, &fit2, err, sizeof err) == 0 && !memcmp(&back, &pf, sizeof pf) &&
              !strcmp(fit2.lat_factor, fit.lat_factor), "round trip: %s", err);
    CHECK(!fit2.ws_copy[0] && !fit2.copy[0] && fit2.call_overhead == 0,
          "no copy cost: none written, none read (as before)");
    const char *ws = with("bw_factor", "ws_copy_ns = 65536:0.07;16777216:0.8\ncopy_ns = 131072:0.02;33554432:0.07\n"
                                       "call_overhead = 0.25us\npoll_slack = 80us\nfault_ns = 0.35\n"
                                       "whole_ns = 64512:0;65536:21.3;16777216:30.8");
    CHECK(platform_file_parse(ws, strlen(ws), "w", &pf, &fit, err, sizeof err) == 0 &&
              !strcmp(fit.ws_copy, "65536:0.07;16777216:0.8") && !strcmp(fit.copy, "131072:0.02;33554432:0.07") &&
              fabs(fit.call_overhead - 0.25e-6) < 1e-15 && fabs(fit.poll_slack - 80e-6) < 1e-15 &&
              fit.fault_ns == 0.35 && !strcmp(fit.whole, "64512:0;65536:21.3;16777216:30.8"),
          "ws_copy_ns, copy_ns, call_overhead, poll_slack, fault_ns and whole_ns read: %s", err);
    CHECK(platform_file_write(path, &pf, &fit, NULL, err, sizeof err) == 0 &&
              platform_file_load(path, &back, &fit2, err, sizeof err) == 0 && !strcmp(fit2.ws_copy, fit.ws_copy) &&
              !strcmp(fit2.copy, fit.copy) && fabs(fit2.call_overhead - 0.25e-6) < 1e-15 &&
              fabs(fit2.poll_slack - 80e-6) < 1e-15 && fit2.fault_ns == 0.35 && !strcmp(fit2.whole, fit.whole),
          "and written back: %s", err);
    char env[256] = "";
    FILE *mf = fmemopen(env, sizeof env, "w");
    CHECK(mf && platform_write_sim_env(&fit, mf) == 0, "sim.env written");
    if (mf) fclose(mf);
    CHECK(strstr(env, "DDL_SIM_WS_COPY=65536:0.07;16777216:0.8\n") &&
              strstr(env, "DDL_SIM_COPY=131072:0.02;33554432:0.07\n") &&
              strstr(env, "DDL_SIM_CALL_OVERHEAD=2.5e-07\n") && strstr(env, "DDL_SIM_POLL_SLACK=8e-05\n") &&
              strstr(env, "DDL_SIM_FAULT=0.35\n") && strstr(env, "DDL_SIM_WHOLE=64512:0;65536:21.3;16777216:30.8\n"),
          "sim.env: %s", env);
    CHECK(platform_init(&back, path, 8, 0, err, sizeof err) == 0 && back.nodes == 8 && back.gpus_per_node == 4 &&
              back.intra_bw == 1.2e10, "loads as a --preset: %s", err);
    CHECK(platform_init(&back, path, 8, 2, err, sizeof err) == 0 && back.gpus_per_node == 2, "gpus override");
    remove(path);
    CHECK(platform_init(&back, "/nonexistent/x.platform", 1, 0, err, sizeof err) == 2 && strstr(err, "cannot open"),
          "missing file");
    CHECK(platform_is_file("a.platform") && platform_is_file("dir/x") && !platform_is_file("minsky"), "file names");

    CHECK(refused(with("intra_bw", "intra_bw = -1e9"), ":5: intra_bw: negative fit"), "negative bandwidth");
    CHECK(refused(with("intra_bw", "intra_bw = 0"), "negative fit"), "zero bandwidth");
    CHECK(refused(with("intra_lat", "intra_lat = -2e-6"), ":4: intra_lat: negative fit"), "negative latency");
    CHECK(refused(with("bw_factor", "bw_factor = 0:1;65536:0.5;4096:1"), "not increasing"), "non-monotonic sizes");
    CHECK(refused(with("bw_factor", "bw_factor = 0:1;0:2"), "not increasing"), "repeated size");
    CHECK(refused(with("bw_factor", "bw_factor = 16:1;64:2"), "first SIZE must be 0"), "factors not from 0");
    /* the copy cost by working set (issue 26): optional; sizes strictly increasing */
    CHECK(refused(with("bw_factor", "ws_copy_ns = 65536:0.1;16777216:0.8;1048576:0.2"), "monotonic"),
          "a non-monotonic working-set table");
    CHECK(refused(with("bw_factor", "ws_copy_ns = 65536:-1"), "NS"), "a negative copy cost");
    CHECK(refused(with("bw_factor", "ws_copy_ns = 65536:0.1;"), "trailing"), "a trailing ';'");
    CHECK(refused(with("bw_factor", "copy_ns = 131072:0.1;65536:0.2"), "monotonic"), "a non-monotonic copy table");
    CHECK(refused(with("bw_factor", "copy_ns = 131072:x"), "NS"), "a copy cost that is not a number");
    CHECK(refused(with("bw_factor", "whole_ns = 65536:21;64512:0"), "monotonic"),
          "a non-monotonic whole-message table");
    CHECK(refused(with("bw_factor", "whole_ns = 65536:-2"), "NS"), "a negative whole-message cost");
    CHECK(refused(with("bw_factor", "call_overhead = -1us"), "call_overhead"), "a negative call overhead");
    CHECK(refused(with("bw_factor", "poll_slack = -5us"), "poll_slack"), "a negative poll slack");
    CHECK(refused(with("bw_factor", "fault_ns = -0.1"), "fault_ns"), "a negative fresh-page cost");
    CHECK(refused(with("bw_factor", "fault_ns = fast"), "fault_ns"), "a fresh-page cost that is no number");
    CHECK(refused(with("bw_factor", "bw_factor = 0:-1"), "factor at size 0"), "negative factor");
    CHECK(refused(with("bw_factor", "bw_factor = 0:1;"), "trailing"), "trailing ;");
    CHECK(refused(with("bw_factor", "bw_factor = 0:1;64"), "SIZE:FACTOR"), "size without factor");
    CHECK(refused(with("inter_lat", "inter_lat = 1e-6"), "inter_lat"), "inter faster than intra");
    CHECK(refused(with("inter_bw", "# no inter_bw"), "missing key \"inter_bw\""), "missing key");
    CHECK(refused(with("name", "name = a b"), "one value"), "two values");
    CHECK(refused(with("name", "name = a/b"), "name: expected"), "bad name");
    CHECK(refused(with("gpus_per_node", "gpus_per_node = 2.5"), "whole number"), "fractional GPUs");
    CHECK(refused(with("gpus_per_node", "gpus_per_node = 100"), "gpus-per-node"), "too many GPUs");
    CHECK(refused(with("intra_lat", "intra_lat = 1e-6\nintra_lat = 2e-6"), "given twice"), "duplicate");
    CHECK(refused(with("intra_lat", "intra_lat = fast"), "intra_lat: expected a decimal latency"), "not a number");
    CHECK(refused(with("intra_bw", "intra_bw = 0x10"), "expected a decimal bandwidth"), "hexadecimal (issue 18)");
    CHECK(refused(with("intra_bw", "intra_bw = inf"), "expected a decimal bandwidth"), "inf");
    CHECK(refused(with("bw_factor", "bw_factor = 0x0:1"), "SIZE:FACTOR"), "hexadecimal factor size");
    CHECK(refused(with("bw_factor", "bw_factor = 0:0x1"), "factor at size 0"), "hexadecimal factor");
    CHECK(refused(with("intra_lat", "speed = 1"), "unknown key"), "unknown key");
    CHECK(refused(with("intra_lat", "intra_lat 1e-6"), "key = value"), "no =");
    CHECK(refused("name = x\ngpus_per_node = 1", "missing key \"intra_lat\""), "truncated: its keys missing");
    CHECK(platform_file_parse(good, strlen(good) - 1, "g", &pf, NULL, err, sizeof err) == 0, "last newline optional");
    today();
    CHECK(refused("", "missing key \"name\""), "empty");
    CHECK(platform_file_parse("name = x\0\n", 10, "t", &pf, NULL, err, sizeof err) == 2 && strstr(err, "NUL"), "NUL");
    return TEST_REPORT();
}
