/* test_platform_file.c — platform files (harness/sim/platform_file.c): a calibrated file round-trips
 * through the writer, loads as a --preset, and every malformed, non-monotonic or negative input is
 * refused with a message naming the line. */
#include "platform.h"
#include "platform_file.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
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
    CHECK(refused(with("intra_lat", "intra_lat = fast"), "decimal number"), "not a number");
    CHECK(refused(with("intra_bw", "intra_bw = 0x10"), "decimal number"), "hexadecimal (issue 18: decimal only)");
    CHECK(refused(with("intra_bw", "intra_bw = inf"), "decimal number"), "inf");
    CHECK(refused(with("bw_factor", "bw_factor = 0x0:1"), "SIZE:FACTOR"), "hexadecimal factor size");
    CHECK(refused(with("bw_factor", "bw_factor = 0:0x1"), "factor at size 0"), "hexadecimal factor");
    CHECK(refused(with("intra_lat", "speed = 1"), "unknown key"), "unknown key");
    CHECK(refused(with("intra_lat", "intra_lat 1e-6"), "key = value"), "no =");
    CHECK(refused("name = x\ngpus_per_node = 1", "no newline"), "truncated");
    CHECK(refused("", "missing key \"name\""), "empty");
    CHECK(platform_file_parse("name = x\0\n", 10, "t", &pf, NULL, err, sizeof err) == 2 && strstr(err, "NUL"), "NUL");
    return TEST_REPORT();
}
