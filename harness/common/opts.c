/* opts.c — the option table (opts.h): argv against rows, each value converted and range-checked into
 * its destination, one-line messages into the caller's buffer; the usage generated from the rows. */
#include "opts.h"
#include "parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LIST_MAX 64

/* The rows of all sets in order; k counts them. */
typedef struct found {
    const opt_row *row;
    void *dst;
    int k;
} found;

static int matches(const opt_row *r, const char *s, size_t n)
{
    return (strlen(r->name) == n && !strncmp(r->name, s, n)) ||
           (r->alias && strlen(r->alias) == n && !strncmp(r->alias, s, n));
}

/* The row named s[0..n) (by_var: by its make spelling), its destination and number. */
static int find(const opts_parser *p, const char *s, size_t n, int by_var, found *f)
{
    int k = 0;
    for (int i = 0; i < p->nsets; i++)
        for (int j = 0; j < p->sets[i].n; j++, k++) {
            const opt_row *r = &p->sets[i].rows[j];
            if (by_var ? r->var && strlen(r->var) == n && !strncmp(r->var, s, n) : matches(r, s, n)) {
                f->row = &p->sets[i].rows[j];
                f->dst = (char *)p->sets[i].base + f->row->off;
                f->k = k;
                return 1;
            }
        }
    return 0;
}

static int lookup(const opts_parser *p, const char *s, size_t n, found *f) { return find(p, s, n, 0, f); }

/* Edit distance of two short strings (names); 99 when too long to matter. */
int opts_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int d[33][33];
    if (la > 32 || lb > 32) return 99;
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

static void unknown(const opts_parser *p, const char *opt, char *err, size_t errlen)
{
    const char *best = NULL;
    int bd = 3; /* suggest within two edits */
    for (int i = 0; i < p->nsets; i++)
        for (int j = 0; j < p->sets[i].n; j++) {
            const opt_row *r = &p->sets[i].rows[j];
            int d = opts_distance(opt, r->name);
            if (d < bd) bd = d, best = r->name;
        }
    if (best) snprintf(err, errlen, "unknown option \"%.64s\" (did you mean %s? see --help)", opt, best);
    else snprintf(err, errlen, "unknown option \"%.64s\" (see --help)", opt);
}

/* A size as typed: the largest binary suffix that divides it. */
static void fmt_size(double v, char *buf, size_t len)
{
    static const char suf[] = "KMGT";
    int s = -1;
    while (s < 3 && v >= 1024 && v / 1024 == (double)(uint64_t)(v / 1024)) v /= 1024, s++;
    if (s < 0) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.0f%c", v, suf[s]);
}

/* The "expected ..." phrase of a row (or of one item of a list row). */
static void expected(const opt_row *r, int item, char *buf, size_t len)
{
    char a[32], b[32];
    if (r->expect && !item) {
        snprintf(buf, len, "%s", r->expect);
        return;
    }
    switch (r->type) {
    case OPT_INT: case OPT_LONG: snprintf(buf, len, "an integer in %.0f..%.0f", r->min, r->max); break;
    case OPT_LIST:
        if (item) snprintf(buf, len, "an integer in %.0f..%.0f", r->min, r->max);
        else snprintf(buf, len, "a comma list of at most %d integers", r->max_items);
        break;
    case OPT_STRLIST: snprintf(buf, len, "a comma list of at most %d names", r->max_items); break;
    case OPT_DOUBLE: snprintf(buf, len, "a number in %g..%g", r->min, r->max); break;
    case OPT_DURATION: snprintf(buf, len, "a duration in %g..%g s (e.g. 5us, 2ms)", r->min, r->max); break;
    case OPT_SIZE:
        fmt_size(r->min, a, sizeof a), fmt_size(r->max, b, sizeof b);
        snprintf(buf, len, "a size in %s..%s (e.g. 100M)", a, b);
        break;
    case OPT_CHOICE: {
        size_t used = 0;
        buf[0] = '\0';
        for (int i = 0; r->choices[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : r->choices[i + 1] ? ", " : " or ",
                                     r->choices[i]);
        break;
    }
    default: snprintf(buf, len, "a non-empty value"); break;
    }
}

static int bad(const opt_row *r, const char *v, int item, const char *want, char *err, size_t errlen)
{
    char w[200];
    if (!want) expected(r, item, w, sizeof w);
    snprintf(err, errlen, "%s: expected %s, got \"%.64s\"", r->name, want ? want : w, v);
    return OPTS_BAD;
}

static int duration(const char *v, double *out)
{
    /* divided by an exact power of ten: 5us is the double nearest 5e-6 */
    static const struct { const char *s; double div; } u[] = { { "", 1 }, { "s", 1 }, { "ms", 1e3 }, { "us", 1e6 },
                                                               { "ns", 1e9 } };
    size_t n = parse_decimal_len(v);
    if (!n) return 1;
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (!strcmp(v + n, u[i].s)) {
            *out = strtod(v, NULL) / u[i].div;
            return 0;
        }
    return 1;
}

static int number(const opt_row *r, const char *v, void *dst)
{
    double x;
    if (r->type == OPT_DOUBLE) {
        if (!*v || parse_decimal_len(v) != strlen(v)) return 1;
        x = strtod(v, NULL);
    } else if (duration(v, &x)) return 1;
    if (!(x >= r->min && x <= r->max)) return 1;
    *(double *)dst = x;
    return 0;
}

static int list(const opt_row *r, const char *v, void *base, void *dst, char *err, size_t errlen)
{
    char buf[1024], want[200] = "";
    const char *items[LIST_MAX];
    int n, max = r->max_items < LIST_MAX ? r->max_items : LIST_MAX;
    if (parse_list(v, ',', buf, sizeof buf, items, max, &n)) return bad(r, v, 0, NULL, err, errlen);
    if (r->type == OPT_LIST) {
        long vals[LIST_MAX];
        for (int i = 0; i < n; i++)
            if (parse_int(items[i], (long)r->min, (long)r->max, &vals[i]))
                return bad(r, items[i], 1, NULL, err, errlen);
        memcpy(dst, vals, (size_t)n * sizeof vals[0]);
    } else {
        for (int i = 0; i < n; i++)
            if (r->check && r->check(items[i], want, sizeof want)) return bad(r, items[i], 1, want, err, errlen);
        char *store = (char *)base + r->buf_off;
        if (strlen(v) + 1 > r->buf_len) return bad(r, v, 0, NULL, err, errlen);
        parse_list(v, ',', store, r->buf_len, (const char **)dst, max, &n);
    }
    *(int *)((char *)base + r->count_off) = n;
    return OPTS_OK;
}

/* One value into its destination: OPTS_OK or OPTS_BAD (message in err). */
static int set_value(const opt_row *r, const char *v, void *base, void *dst, char *err, size_t errlen)
{
    long l;
    size_t z;
    int i;
    char want[200] = "";
    switch (r->type) {
    case OPT_INT: case OPT_LONG:
        if (parse_int(v, (long)r->min, (long)r->max, &l)) return bad(r, v, 0, NULL, err, errlen);
        if (r->type == OPT_INT) *(int *)dst = (int)l;
        else *(long *)dst = l;
        return OPTS_OK;
    case OPT_SIZE:
        if (parse_size(v, (size_t)r->min, (size_t)r->max, &z)) return bad(r, v, 0, NULL, err, errlen);
        *(size_t *)dst = z;
        return OPTS_OK;
    case OPT_DOUBLE: case OPT_DURATION:
        return number(r, v, dst) ? bad(r, v, 0, NULL, err, errlen) : OPTS_OK;
    case OPT_STRING:
        if (r->min > 0 && !*v) return bad(r, v, 0, NULL, err, errlen);
        if (r->check && r->check(v, want, sizeof want)) return bad(r, v, 0, r->expect ? r->expect : want, err, errlen);
        *(const char **)dst = v;
        return OPTS_OK;
    case OPT_LIST: case OPT_STRLIST:
        return list(r, v, base, dst, err, errlen);
    case OPT_CHOICE:
        for (i = 0; r->choices[i] && strcmp(r->choices[i], v); i++) {}
        if (!r->choices[i]) return bad(r, v, 0, NULL, err, errlen);
        *(int *)dst = i;
        return OPTS_OK;
    case OPT_CUSTOM:
        return r->parse(v, dst) ? bad(r, v, 0, r->expect ? r->expect : "a valid value", err, errlen) : OPTS_OK;
    default: /* OPT_FLAG */
        *(int *)dst = 1;
        return OPTS_OK;
    }
}

/* The base of the set that holds row f (list rows address their count and buffer from it). */
static void *base_of(const opts_parser *p, const found *f)
{
    for (int i = 0; i < p->nsets; i++)
        if (f->row >= p->sets[i].rows && f->row < p->sets[i].rows + p->sets[i].n) return p->sets[i].base;
    return NULL;
}

static int operand(opts_parser *p, const char *a, char *err, size_t errlen)
{
    if (p->noperands >= p->max_operands) {
        snprintf(err, errlen, "unexpected argument \"%.64s\" (see --help)", a);
        return OPTS_BAD;
    }
    p->operands[p->noperands++] = a;
    return OPTS_OK;
}

/* The option at argv[*i] (an option, not an operand, --, or --help): OPTS_OK with *i on its last
 * word, OPTS_BAD, or NOT_MINE when no row has its name. */
#define NOT_MINE 3
static int one(opts_parser *p, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i], *eq = a[1] == '-' ? strchr(a, '=') : NULL, *v;
    char typed[64];
    found f;
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    if (!lookup(p, a, n, &f)) return NOT_MINE;
    if (f.k < OPTS_MAX_ROWS) p->given[f.k]++;
    opt_row as = *f.row; /* messages name the option as typed: -a, an old spelling */
    snprintf(typed, sizeof typed, "%.*s", (int)(n < 63 ? n : 63), a);
    as.name = typed;
    if (f.row->type == OPT_FLAG) {
        if (!eq) return *(int *)f.dst = 1, OPTS_OK;
        snprintf(err, errlen, "%s: takes no value, got \"%.64s\"", as.name, eq + 1);
        return OPTS_BAD;
    }
    if (eq) v = eq + 1;
    else if (*i + 1 < argc) v = argv[++*i];
    else {
        snprintf(err, errlen, "%s: expected a value after it", as.name);
        return OPTS_BAD;
    }
    return set_value(&as, v, base_of(p, &f), f.dst, err, errlen);
}

/* VAR=value: the row's option with value, its messages naming VAR. */
static int var_word(opts_parser *p, const found *f, const char *eq, char *err, size_t errlen)
{
    opt_row as = *f->row;
    if (f->k < OPTS_MAX_ROWS) p->given[f->k]++;
    as.name = f->row->var;
    if (f->row->type == OPT_FLAG) {
        if (!strcmp(eq + 1, "1")) return *(int *)f->dst = 1, OPTS_OK;
        if (!eq[1]) return OPTS_OK;
        snprintf(err, errlen, "%s: expected 1 or nothing, got \"%.64s\"", as.name, eq + 1);
        return OPTS_BAD;
    }
    return set_value(&as, eq + 1, base_of(p, f), f->dst, err, errlen);
}

int opts_parse(opts_parser *p, int argc, char **argv, char *err, size_t errlen)
{
    int ended = 0;
    memset(p->given, 0, sizeof p->given);
    p->noperands = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        found f;
        if (!ended && a[0] != '-' && eq && find(p, a, (size_t)(eq - a), 1, &f)) { /* NODES=4: --nodes 4 */
            int rc = var_word(p, &f, eq, err, errlen);
            if (rc) return rc;
            continue;
        }
        if (ended || a[0] != '-' || !a[1]) {
            if (operand(p, a, err, errlen)) return OPTS_BAD;
            continue;
        }
        if (!strcmp(a, "--")) { ended = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return OPTS_HELP;
        int rc = one(p, argc, argv, &i, err, errlen);
        if (rc == NOT_MINE) {
            char name[80];
            const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
            snprintf(name, sizeof name, "%.*s", (int)(eq && eq - a < 64 ? eq - a : 64), a);
            unknown(p, name, err, errlen);
            return OPTS_BAD;
        }
        if (rc) return rc;
    }
    return OPTS_OK;
}

int opts_parse_one(opts_parser *p, int argc, char **argv, int *i, char *err, size_t errlen)
{
    if (*i >= argc || argv[*i][0] != '-' || !argv[*i][1] || !strcmp(argv[*i], "--")) return OPTS_NOT_MINE;
    int rc = one(p, argc, argv, i, err, errlen);
    return rc == NOT_MINE ? OPTS_NOT_MINE : rc;
}

int opts_defaults(const opts_set *sets, int nsets, char *err, size_t errlen)
{
    for (int i = 0; i < nsets; i++)
        for (int j = 0; j < sets[i].n; j++) {
            const opt_row *r = &sets[i].rows[j];
            if (r->dflt && set_value(r, r->dflt, sets[i].base, (char *)sets[i].base + r->off, err, errlen))
                return OPTS_BAD;
        }
    return OPTS_OK;
}

int opts_given(const opts_parser *p, const char *name)
{
    found f;
    return lookup(p, name, strlen(name), &f) && f.k < OPTS_MAX_ROWS ? p->given[f.k] : 0;
}

static const char *unit_of(const opt_row *r, char *buf, size_t len)
{
    static const char *const units[] = { "", "N", "N", "X", "SIZE", "T", "S", "LIST", "LIST", "", "V" };
    if (r->unit) return r->unit;
    if (r->type != OPT_CHOICE) return units[r->type];
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; r->choices[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "", r->choices[i]);
    return buf;
}

void opts_usage(FILE *f, const opts_set *sets, int nsets)
{
    for (int i = 0; i < nsets; i++)
        for (int j = 0; j < sets[i].n; j++) {
            const opt_row *r = &sets[i].rows[j];
            char left[96], ub[96];
            const char *u = unit_of(r, ub, sizeof ub);
            int shortalias = r->alias && r->alias[1] != '-';
            if (!r->alias) snprintf(left, sizeof left, "%s%s%s", r->name, *u ? " " : "", u);
            else snprintf(left, sizeof left, "%s, %s%s%s", shortalias ? r->alias : r->name,
                          shortalias ? r->name : r->alias, *u ? " " : "", u);
            fprintf(f, "  %-19s ", left);
            for (const char *h = r->help ? r->help : ""; *h; h++) {
                fputc(*h, f);
                if (*h == '\n') fprintf(f, "%*s", 22, "");
            }
            if (r->dflt) fprintf(f, " (default %s)", *r->dflt ? r->dflt : "none");
            fputc('\n', f);
        }
}
