/* test_csv.c — the one CSV reader (harness/common/csv.c): RFC 4180 cells (quoted commas, doubled
 * quotes, empty cells, a quote left open), `#` lines kept and read as provenance, rows by column
 * name with their line numbers, CRLF, blank lines, and the refusals (no header, a row of another
 * width, a line too long, bytes that are not text); a cell written back quoted reads the same. */
#include "csv.h"
#include "test.h"

static void check_split(void)
{
    char line[] = "a,\"b,c\",\"say \"\"hi\"\"\",,\"\"", *c[8];
    int n = csv_split(line, c, 8);
    CHECK(n == 5 && !strcmp(c[0], "a") && !strcmp(c[1], "b,c") && !strcmp(c[2], "say \"hi\"") && !*c[3] && !*c[4],
          "split: %d [%s] [%s] [%s]", n, n > 0 ? c[0] : "", n > 1 ? c[1] : "", n > 2 ? c[2] : "");
    char open_q[] = "a,\"b", after[] = "\"b\"x,c", over[] = "1,2,3", plain[] = "x";
    CHECK(csv_split(open_q, c, 8) == CSV_SPLIT_QUOTE && csv_split(after, c, 8) == CSV_SPLIT_QUOTE, "bad quotes");
    CHECK(csv_split(over, c, 2) == CSV_SPLIT_OVER && csv_split(plain, c, 1) == 1, "the cell limit");
    char out[64], back[64], *b[4];
    csv_format_cell("x,\"y\"", out, sizeof out);
    strcpy(back, out);
    CHECK(!strcmp(out, "\"x,\"\"y\"\"\"") && csv_split(back, b, 4) == 1 && !strcmp(b[0], "x,\"y\""),
          "round trip: %s", out);
    csv_format_cell("plain", out, sizeof out);
    CHECK(!strcmp(out, "plain") && csv_needs_quotes("a\rb") && !csv_needs_quotes("a b"), "no quotes when none needed");
}

static void check_read(void)
{
    const char *t = "# command: ddlbench train\r\n# a comment\n\nsize_B,algo,note\r\n"
                    "8,ring,\"a, b\"\n# late: 1\n16,rdb,\n";
    csv_doc d;
    char err[200] = "", *k, *v;
    int rc = csv_read(t, strlen(t), CSV_TEXT, &d, err, sizeof err);
    CHECK(rc == 0 && d.ncols == 3 && d.nrows == 2 && d.ncomments == 3 && d.header_line == 4, "read: %d %s", rc, err);
    if (!rc) {
        int a = csv_col(&d, "algo"), n = csv_col(&d, "note");
        CHECK(a == 1 && n == 2 && csv_col(&d, "nope") < 0, "columns by name");
        CHECK(!strcmp(csv_cell(&d, 0, a), "ring") && !strcmp(csv_cell(&d, 0, n), "a, b") && !*csv_cell(&d, 1, n) &&
              d.lines[0] == 5 && d.lines[1] == 7, "cells and lines");
        CHECK(csv_meta(d.comments[0], &k, &v) == 1 && !strcmp(k, "command") && !strcmp(v, "ddlbench train"),
              "provenance");
        CHECK(csv_meta(d.comments[1], &k, &v) == 0, "a plain comment");
    }
    csv_free(&d);
    static const char *const bad[] = { "", "# only\n", "a,b\n1\n", "a,b\n1,2,3\n", "a\n\"x\n", "a\nx\001\n" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc = csv_read(bad[i], strlen(bad[i]), CSV_TEXT, &d, err, sizeof err);
        CHECK(rc == 2 && *err && !strchr(err, '\n'), "bad %zu: rc %d %s", i, rc, err);
        csv_free(&d);
    }
    rc = csv_read("a,b\n1,2,3\n", 10, 0, &d, err, sizeof err);
    CHECK(rc == 2 && !strcmp(err, "line 2: 3 cells, expected 2 (the header's)"), "width message: %s", err);
    csv_free(&d);
    CHECK(csv_read("a\nx\001\n", 6, 0, &d, err, sizeof err) == 0, "control bytes allowed without CSV_TEXT");
    csv_free(&d);
    size_t big = CSV_LINE_MAX + 10;
    char *long_line = malloc(big);
    if (long_line) {
        memset(long_line, 'x', big);
        CHECK(csv_read(long_line, big, 0, &d, err, sizeof err) == 2 && strstr(err, "longer than"),
              "long line: %s", err);
        csv_free(&d);
        free(long_line);
    }
}

int main(void)
{
    check_split();
    check_read();
    return TEST_REPORT();
}
