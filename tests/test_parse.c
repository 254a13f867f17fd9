/* test_parse.c — the option parsers of harness/common/parse.c: sizes with suffixes, bounded integers,
 * comma lists; every malformed or overflowing input must be refused and leave the output alone. */
#include "parse.h"
#include "test.h"

#include <stdint.h>
#include <string.h>

static void sizes(void)
{
    static const struct { const char *s; size_t want; } ok[] = {
        { "0", 0 }, { "1", 1 }, { "1024", 1024 }, { "1K", 1024 }, { "1k", 1024 }, { "4KB", 4096 },
        { "4KiB", 4096 }, { "16M", 16u << 20 }, { "256MB", 256u << 20 }, { "1G", 1u << 30 },
        { "2T", (size_t)2 << 40 }, { "7B", 7 }, { "007", 7 },
    };
    static const struct { const char *s; int rc; } bad[] = {
        { "", PARSE_SYNTAX }, { "K", PARSE_SYNTAX }, { "-1", PARSE_SYNTAX }, { "+1", PARSE_SYNTAX },
        { " 1", PARSE_SYNTAX }, { "1 ", PARSE_SYNTAX }, { "5x", PARSE_SYNTAX }, { "1KK", PARSE_SYNTAX },
        { "1.5M", PARSE_SYNTAX }, { "1Q", PARSE_SYNTAX }, { "1Kx", PARSE_SYNTAX },
        { "99999999999G", PARSE_RANGE }, { "18446744073709551616", PARSE_RANGE },
        { "99999999999999999999999", PARSE_RANGE }, { "16777216T", PARSE_RANGE },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t v = 12345;
        int rc = parse_size(ok[i].s, 0, SIZE_MAX, &v);
        CHECK(rc == PARSE_OK && v == ok[i].want, "parse_size(\"%s\") = %d, %zu; want %zu", ok[i].s, rc, v,
              ok[i].want);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 12345;
        int rc = parse_size(bad[i].s, 0, SIZE_MAX, &v);
        CHECK(rc == bad[i].rc && v == 12345, "parse_size(\"%s\") = %d, want %d", bad[i].s, rc, bad[i].rc);
    }
    size_t v = 0;
    CHECK(parse_size("0", 1, 100, &v) == PARSE_RANGE, "min bound");
    CHECK(parse_size("101", 1, 100, &v) == PARSE_RANGE, "max bound");
    CHECK(parse_size("100", 1, 100, &v) == PARSE_OK && v == 100, "max inclusive");
    CHECK(parse_size(NULL, 0, 1, &v) == PARSE_SYNTAX, "NULL");
}

static void ints(void)
{
    long v = 7;
    CHECK(parse_int("5", 0, 10, &v) == PARSE_OK && v == 5, "5");
    CHECK(parse_int("-3", -5, 5, &v) == PARSE_OK && v == -3, "-3");
    CHECK(parse_int("+4", 0, 5, &v) == PARSE_OK && v == 4, "+4");
    v = 7;
    CHECK(parse_int("5x", 0, 10, &v) == PARSE_SYNTAX && v == 7, "5x");
    CHECK(parse_int("", 0, 10, &v) == PARSE_SYNTAX, "empty");
    CHECK(parse_int(" 5", 0, 10, &v) == PARSE_SYNTAX, "leading space");
    CHECK(parse_int("0x10", 0, 100, &v) == PARSE_SYNTAX, "hex");
    CHECK(parse_int("11", 0, 10, &v) == PARSE_RANGE, "above max");
    CHECK(parse_int("-1", 0, 10, &v) == PARSE_RANGE, "below min");
    CHECK(parse_int("99999999999999999999", 0, 10, &v) == PARSE_RANGE && v == 7, "overflow");
    CHECK(parse_int(NULL, 0, 10, &v) == PARSE_SYNTAX, "NULL");
}

static void lists(void)
{
    char buf[64];
    const char *it[4];
    int n = -1;
    CHECK(parse_list("ring,rhd,ddl", ',', buf, sizeof buf, it, 4, &n) == PARSE_OK && n == 3 &&
              !strcmp(it[0], "ring") && !strcmp(it[1], "rhd") && !strcmp(it[2], "ddl"), "three items");
    CHECK(parse_list("mpi", ',', buf, sizeof buf, it, 4, &n) == PARSE_OK && n == 1 && !strcmp(it[0], "mpi"),
          "one item");
    CHECK(parse_list("a:b", ':', buf, sizeof buf, it, 4, &n) == PARSE_OK && n == 2, "other separator");
    n = -1;
    CHECK(parse_list("", ',', buf, sizeof buf, it, 4, &n) == PARSE_SYNTAX && n == -1, "empty");
    CHECK(parse_list("a,,b", ',', buf, sizeof buf, it, 4, &n) == PARSE_SYNTAX, "empty item");
    CHECK(parse_list("a,", ',', buf, sizeof buf, it, 4, &n) == PARSE_SYNTAX, "trailing separator");
    CHECK(parse_list(",a", ',', buf, sizeof buf, it, 4, &n) == PARSE_SYNTAX, "leading separator");
    CHECK(parse_list("a,b,c,d,e", ',', buf, sizeof buf, it, 4, &n) == PARSE_TOO_MANY, "too many items");
    CHECK(parse_list("abcdefgh", ',', buf, 4, it, 4, &n) == PARSE_TOO_MANY, "buffer too small");
}

static void decimals(void)
{
    static const struct { const char *s; size_t len; } cases[] = {
        { "12", 2 }, { "1.5", 3 }, { ".5", 2 }, { "5.", 2 }, { "-3", 2 }, { "1e3", 3 }, { "2.5E-4", 6 },
        { "12.5G", 4 }, { "5us", 1 }, { "1e", 1 }, { "1e+", 1 }, { "3e5x", 3 },
        { "0x10", 1 }, { "inf", 0 }, { "nan", 0 }, { "+5", 0 }, { " 5", 0 }, { "", 0 }, { ".", 0 }, { "-", 0 },
        { "-.e3", 0 }, { "\xc2\xb5s", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(parse_decimal_len(cases[i].s) == cases[i].len, "decimal \"%s\": length %zu, want %zu", cases[i].s,
              parse_decimal_len(cases[i].s), cases[i].len);
    CHECK(parse_decimal_len(NULL) == 0, "NULL");
}

/* Free text: printable UTF-8 passes; C0, DEL, C1, malformed, overlong, surrogate and cut sequences are
 * found at their first byte; a file line allows tab and CR; quoting shows them as \xNN. */
static void texts(void)
{
    static const char *ok[] = { "", "ring", "h\xc3\xa9llo", "\xe2\x82\xac 5", "\xf0\x9f\x98\x80", "a b" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) CHECK(parse_text_bad(ok[i]) == -1, "text ok: %s", ok[i]);
    static const struct { const char *s; long at; } bad[] = {
        { "a\nb", 1 }, { "\t", 0 }, { "ab\x1b[2J", 2 }, { "x\x7f", 1 }, { "\xc2\x9b", 0 }, { "a\xff", 1 },
        { "\xc0\xaf", 0 }, { "\xed\xa0\x80", 0 }, { "ok\xe2\x82", 2 }, { "\xf4\x90\x80\x80", 0 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(parse_text_bad(bad[i].s) == bad[i].at, "text bad #%zu at %ld, got %ld", i, bad[i].at,
              parse_text_bad(bad[i].s));
    CHECK(parse_line_bad("k =\tv\r", 6) == -1, "a line may hold tab and end in CR");
    CHECK(parse_line_bad("k = t\rX", 7) == 5, "a CR inside a line is found");
    CHECK(parse_line_bad("k = v\0x", 7) == 5, "a NUL in a line is found");
    CHECK(parse_line_bad("ab\xe2\x82\xac", 4) == 2, "a sequence cut by the line's end is found");
    char q[32];
    CHECK(!strcmp(parse_quote("a\x1b[b\xc3\xa9", q, sizeof q), "a\\x1B[b\xc3\xa9"), "quoted: %s", q);
    CHECK(!strcmp(parse_quote("\n\n\n\n\n\n\n\n\n", q, 10), "\\x0A\\x0A"), "cut whole: %s", q);
}

int main(void)
{
    sizes();
    ints();
    lists();
    decimals();
    texts();
    return TEST_REPORT();
}
