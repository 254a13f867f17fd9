/* test_opts.c — the option table (harness/common/opts.c): every type with good and bad values and
 * its range bounds, --opt=value, short and old-spelling aliases, unknown options with the nearest
 * name, missing values, repeated options (the last wins), operands, --help, shared rows bound to
 * one field, the generated usage, make spellings (NODES=4) and defaults. */
#include "opts.h"
#include "test.h"

#include <stddef.h>
#include <stdint.h>

typedef struct t {
    int flag, i, choice, nlist, nnames, custom;
    long l, list[4];
    double d, dur;
    size_t sz;
    const char *s, *names[4];
    char buf[32];
} t;

static const char *const colours[] = { "red", "green", "blue", NULL };

static int no_x(const char *v, char *want, size_t len)
{
    if (!strchr(v, 'x')) return 0;
    snprintf(want, len, "a name without x");
    return 1;
}

static int even(const char *v, void *dst)
{
    if (strcmp(v, "2") && strcmp(v, "4")) return 1;
    *(int *)dst = v[0] - '0';
    return 0;
}

static const opt_row rows[] = {
    { .name = "--flag", .type = OPT_FLAG, .off = offsetof(t, flag), .help = "a flag" },
    { .name = "--int", .alias = "-i", .type = OPT_INT, .min = 1, .max = 10, .off = offsetof(t, i), .help = "an int" },
    { .name = "--long", .alias = "--old-long", .type = OPT_LONG, .min = -5, .max = 5000000000.0, .off = offsetof(t, l),
      .help = "a long\nsecond line" },
    { .name = "--double", .type = OPT_DOUBLE, .min = 0, .max = 100, .off = offsetof(t, d), .help = "a double" },
    { .name = "--dur", .type = OPT_DURATION, .min = 0, .max = 10, .off = offsetof(t, dur), .help = "a duration" },
    { .name = "--size", .type = OPT_SIZE, .min = 1, .max = 1099511627776.0, .off = offsetof(t, sz), .help = "a size" },
    { .name = "--str", .type = OPT_STRING, .min = 1, .off = offsetof(t, s), .check = no_x, .help = "a string" },
    { .name = "--list", .type = OPT_LIST, .min = 0, .max = 99, .off = offsetof(t, list),
      .count_off = offsetof(t, nlist),
      .max_items = 4, .unit = "MB", .help = "a list" },
    { .name = "--names", .type = OPT_STRLIST, .off = offsetof(t, names), .count_off = offsetof(t, nnames),
      .buf_off = offsetof(t, buf), .buf_len = sizeof ((t *)0)->buf, .max_items = 4, .check = no_x, .help = "names" },
    { .name = "--colour", .type = OPT_CHOICE, .choices = colours, .off = offsetof(t, choice), .help = "a colour" },
    { .name = "--even", .type = OPT_CUSTOM, .off = offsetof(t, custom), .parse = even, .expect = "2 or 4",
      .help = "even" },
};
static const opt_row shared = { .name = "--shared", .type = OPT_INT, .min = 0, .max = 3, .help = "a shared row" };
/* rows with make spellings (VAR=value words) and defaults */
static const opt_row vrows[] = {
    { .name = "--nodes", .var = "NODES", .type = OPT_INT, .min = 1, .max = 8, .off = offsetof(t, i), .dflt = "2",
      .help = "nodes" },
    { .name = "--force", .var = "FORCE", .type = OPT_FLAG, .off = offsetof(t, flag), .help = "force" },
    { .name = "--str", .type = OPT_STRING, .off = offsetof(t, s), .dflt = "", .help = "a string" },
};

static t v;
static int shared_v;
static const char *ops[2];
static opts_parser p;
static char err[256];

/* Parse the words of s (at most 15, split at spaces); returns the status. */
static int run(const char *s, int operands)
{
    static char copy[512];
    static const opts_set sets[] = { OPTS_SET(rows, &v), OPTS_ONE(&shared, &shared_v) };
    char *argv[16] = { "cmd" };
    int argc = 1;
    snprintf(copy, sizeof copy, "%s", s);
    for (char *w = strtok(copy, " "); w && argc < 16; w = strtok(NULL, " ")) argv[argc++] = strcmp(w, "''") ? w : "";
    memset(&v, 0, sizeof v), shared_v = -1, err[0] = '\0';
    p = (opts_parser){ sets, 2, operands ? ops : NULL, operands, 0, { 0 } };
    return opts_parse(&p, argc, argv, err, sizeof err);
}

#define OK(s) CHECK(run(s, 0) == OPTS_OK, "%s: %s", s, err)
#define BAD(s, msg) CHECK(run(s, 0) == OPTS_BAD && strstr(err, msg), "%s: want \"%s\", got \"%s\"", s, msg, err)

static void numbers(void)
{
    OK("--int 1"); CHECK(v.i == 1, "int min");
    OK("--int=10"); CHECK(v.i == 10, "int max, =value");
    OK("-i 7"); CHECK(v.i == 7, "short alias");
    BAD("--int 0", "--int: expected an integer in 1..10, got \"0\"");
    BAD("--int 11", "1..10"); BAD("--int x", "got \"x\""); BAD("--int ''", "got \"\""); BAD("--int 1.5", "--int");
    BAD("-i 99999999999999999999", "-i: expected an integer in 1..10"); BAD("--int= 3", "--int");
    OK("--long -5"); CHECK(v.l == -5, "long min");
    OK("--old-long 5000000000"); CHECK(v.l == 5000000000L, "long max via the old spelling");
    BAD("--long 5000000001", "--long: expected an integer in -5..5000000000");
    BAD("--old-long x", "--old-long: expected an integer"); BAD("-i", "-i: expected a value after it");
    OK("--double 12.5"); CHECK(v.d == 12.5, "double");
    OK("--double=1e2"); CHECK(v.d == 100, "double max");
    BAD("--double 100.5", "a number in 0..100"); BAD("--double inf", "--double"); BAD("--double 0x10", "--double");
    BAD("--double nan", "--double"); BAD("--double -1", "--double"); BAD("--double ''", "--double");
    OK("--dur 5us"); CHECK(v.dur > 4.99e-6 && v.dur < 5.01e-6, "5us = %g", v.dur);
    OK("--dur 2ms"); CHECK(v.dur == 2e-3, "2ms"); OK("--dur 3"); CHECK(v.dur == 3, "bare seconds");
    OK("--dur 1.5s"); CHECK(v.dur == 1.5, "1.5s");
    BAD("--dur 5parsecs", "--dur: expected a duration"); BAD("--dur 11s", "--dur"); BAD("--dur -1us", "--dur");
    BAD("--dur us", "--dur");
    OK("--size 25M"); CHECK(v.sz == (size_t)25 << 20, "25M"); OK("--size=1T"); CHECK(v.sz == (size_t)1 << 40, "1T");
    BAD("--size 0", "--size: expected a size in 1..1T"); BAD("--size 1T1", "--size"); BAD("--size 2T", "--size");
    BAD("--size -1", "--size");
}

static void others(void)
{
    OK("--flag"); CHECK(v.flag == 1, "flag");
    BAD("--flag=1", "--flag: takes no value");
    OK("--str abc"); CHECK(v.s && !strcmp(v.s, "abc"), "string");
    BAD("--str ''", "--str: expected"); BAD("--str axe", "--str: expected a name without x, got \"axe\"");
    OK("--list 1,2,99"); CHECK(v.nlist == 3 && v.list[0] == 1 && v.list[2] == 99, "list");
    OK("--list=0"); CHECK(v.nlist == 1 && v.list[0] == 0, "list of one");
    BAD("--list 1,,2", "--list: expected a comma list of at most 4 integers");
    BAD("--list 1,100", "--list: expected an integer in 0..99, got \"100\"");
    BAD("--list 1,2,3,4,5", "--list"); BAD("--list -1", "got \"-1\"");
    OK("--names ab,cd"); CHECK(v.nnames == 2 && !strcmp(v.names[1], "cd") && v.names[0] == v.buf, "names");
    BAD("--names ab,x", "--names: expected a name without x, got \"x\""); BAD("--names a,", "--names");
    BAD("--names aaaaaaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbbbbbbbbbb", "--names");
    OK("--colour blue"); CHECK(v.choice == 2, "choice");
    BAD("--colour pink", "--colour: expected red, green or blue, got \"pink\"");
    OK("--even 4"); CHECK(v.custom == 4, "custom"); BAD("--even 3", "--even: expected 2 or 4, got \"3\"");
    OK("--shared 3"); CHECK(shared_v == 3, "shared row bound to one field");
    BAD("--shared 4", "--shared: expected an integer in 0..3");
}

static void argv_shapes(void)
{
    BAD("--bogus", "unknown option \"--bogus\""); BAD("--colr red", "did you mean --colour?");
    BAD("--zzzzzzzzzz=3", "unknown option \"--zzzzzzzzzz\" (see --help)");
    BAD("--int", "--int: expected a value after it"); BAD("--flag --list", "--list: expected a value after it");
    OK("--int 2 --int 3");
    CHECK(v.i == 3 && opts_given(&p, "--int") == 2 && opts_given(&p, "-i") == 2, "repeat: last wins");
    CHECK(opts_given(&p, "--flag") == 0, "not given");
    CHECK(run("-- --flag", 1) == OPTS_OK && p.noperands == 1, "-- ends the options");
    BAD("--int 2 -- --flag", "unexpected argument \"--flag\"");
    BAD("word", "unexpected argument \"word\"");
    CHECK(run("a --flag b", 2) == OPTS_OK && p.noperands == 2 && !strcmp(ops[1], "b"), "operands: %s", err);
    CHECK(run("a b c", 2) == OPTS_BAD, "too many operands");
    CHECK(run("-", 2) == OPTS_OK && p.noperands == 1, "a lone - is an operand");
    CHECK(run("--int 3 --help --bogus", 0) == OPTS_HELP && v.i == 3, "--help stops the parse");
    CHECK(run("--int 0 --help", 0) == OPTS_BAD, "options before --help are checked");
    CHECK(run("-h", 0) == OPTS_HELP, "-h");
    CHECK(run("--int 3 --int 0", 0) == OPTS_BAD, "a bad repeat is refused");
}

/* opts_parse_one: one option at a time, the others handed on (platform_opt's loop). */
static void one_at_a_time(void)
{
    static const opts_set sets[] = { OPTS_SET(rows, &v) };
    char *argv[] = { "x", "--int", "4", "--other", "--flag", "--size=2K", "--int", "0", "-", "--long" };
    int argc = (int)(sizeof argv / sizeof argv[0]), i = 1;
    opts_parser q = { sets, 1, NULL, 0, 0, { 0 } };
    memset(&v, 0, sizeof v);
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_OK && i == 2 && v.i == 4, "valued: i = %d", i);
    i = 3;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_NOT_MINE && i == 3, "not mine");
    i = 4;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_OK && i == 4 && v.flag, "flag");
    i = 5;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_OK && i == 5 && v.sz == 2048, "=value");
    i = 6;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_BAD && strstr(err, "--int: expected"), "bad");
    i = 8;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_NOT_MINE, "an operand is not an option");
    i = 9;
    CHECK(opts_parse_one(&q, argc, argv, &i, err, sizeof err) == OPTS_BAD && strstr(err, "after it"), "missing value");
    CHECK(q.given[0] == 1 && q.given[1] == 2, "given counts");
}

static void usage(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    static const opts_set sets[] = { OPTS_SET(rows, &v) };
    if (!f) {
        CHECK(0, "open_memstream");
        return;
    }
    opts_usage(f, sets, 1);
    fclose(f);
    CHECK(strstr(buf, "\n  -i, --int N         an int\n"), "short alias line:\n%s", buf);
    CHECK(strstr(buf, "  --long, --old-long N a long\n                      second line\n"), "continuation:\n%s", buf);
    CHECK(strstr(buf, "  --list MB           a list\n"), "unit");
    CHECK(strstr(buf, "  --colour red|green|blue a colour\n"), "choices");
    CHECK(!strncmp(buf, "  --flag              a flag\n", 28), "flag first");
    free(buf);
}

/* VAR=value words set the row whose make spelling VAR is, messages name VAR; the defaults; the usage. */
static void make_spellings(void)
{
    static const opts_set sets[] = { OPTS_SET(vrows, &v) };
    char *argv[] = { "cmd", "NODES=5", "FORCE=1", "OTHER=1", "NODES=9", "FORCE=yes", "--nodes=0", NULL };
    const char *o[2];
    opts_parser q = { sets, 1, o, 2, 0, { 0 } };
    memset(&v, 0, sizeof v);
    CHECK(opts_defaults(sets, 1, err, sizeof err) == OPTS_OK && v.i == 2 && v.s && !*v.s && !v.flag, "defaults");
    CHECK(opts_parse(&q, 4, argv, err, sizeof err) == OPTS_OK && v.i == 5 && v.flag == 1, "NODES=5 FORCE=1: %s", err);
    CHECK(q.noperands == 1 && !strcmp(o[0], "OTHER=1") && opts_given(&q, "--nodes") == 1,
          "no row spelt OTHER: an operand");
    char *bad1[] = { "cmd", "NODES=9" }, *bad2[] = { "cmd", "FORCE=yes" }, *bad3[] = { "cmd", "--nodes=0" };
    CHECK(opts_parse(&q, 2, bad1, err, sizeof err) == OPTS_BAD &&
              !strcmp(err, "NODES: expected an integer in 1..8, got \"9\""),
          "NODES=9 names NODES: %s", err);
    CHECK(opts_parse(&q, 2, bad2, err, sizeof err) == OPTS_BAD &&
              !strcmp(err, "FORCE: expected 1 or nothing, got \"yes\""),
          "FORCE=yes: %s", err);
    CHECK(opts_parse(&q, 2, bad3, err, sizeof err) == OPTS_BAD && !strncmp(err, "--nodes: ", 9),
          "--nodes=0 names --nodes");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    opts_usage(f, sets, 1);
    fclose(f);
    CHECK(strstr(buf, "  --nodes N           nodes (default 2)\n") && strstr(buf, "a string (default none)\n") &&
              strstr(buf, "  --force             force\n"), "defaults in the usage:\n%s", buf);
    free(buf);
}

int main(void)
{
    make_spellings();
    numbers();
    others();
    argv_shapes();
    one_at_a_time();
    usage();
    return TEST_REPORT();
}
