/* parse.c — pure parsers for option values (see parse.h). */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits only (no sign, no spaces): the value, *end after the last digit. */
static int parse_digits(const char *s, uintmax_t *val, const char **end)
{
    uintmax_t v = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p)) return PARSE_SYNTAX;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINTMAX_MAX - d) / 10) return PARSE_RANGE;
        v = v * 10 + d;
    }
    *val = v;
    *end = p;
    return PARSE_OK;
}

static int suffix_shift(const char *p, unsigned *shift)
{
    static const char units[] = "KMGT";
    const char *u;
    if (*p == '\0') { *shift = 0; return PARSE_OK; }
    if (!(u = strchr(units, toupper((unsigned char)*p)))) {
        if (toupper((unsigned char)*p) == 'B' && p[1] == '\0') { *shift = 0; return PARSE_OK; }
        return PARSE_SYNTAX;
    }
    *shift = 10u * (unsigned)(u - units + 1);
    p++;
    if (*p == 'i') p++;
    if (toupper((unsigned char)*p) == 'B') p++;
    return *p == '\0' ? PARSE_OK : PARSE_SYNTAX;
}

int parse_size(const char *s, size_t min, size_t max, size_t *out)
{
    uintmax_t v;
    const char *end;
    unsigned shift;
    int rc;
    if (!s) return PARSE_SYNTAX;
    if ((rc = parse_digits(s, &v, &end))) return rc;
    if ((rc = suffix_shift(end, &shift))) return rc;
    if (shift && v > (UINTMAX_MAX >> shift)) return PARSE_RANGE;
    v <<= shift;
    if (v > SIZE_MAX || v < min || v > max) return PARSE_RANGE;
    *out = (size_t)v;
    return PARSE_OK;
}

int parse_int(const char *s, long min, long max, long *out)
{
    char *end;
    long v;
    if (!s || !*s || isspace((unsigned char)*s)) return PARSE_SYNTAX;
    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end != '\0') return PARSE_SYNTAX;
    if (errno == ERANGE || v < min || v > max) return PARSE_RANGE;
    *out = v;
    return PARSE_OK;
}

int parse_list(const char *s, char sep, char *buf, size_t buflen, const char **items, int max_items,
               int *n)
{
    size_t len;
    int k = 0;
    char *p;
    if (!s || !*s) return PARSE_SYNTAX;
    len = strlen(s);
    if (len + 1 > buflen) return PARSE_TOO_MANY;
    memcpy(buf, s, len + 1);
    for (p = buf;;) {
        char *q = strchr(p, sep);
        if (q) *q = '\0';
        if (!*p) return PARSE_SYNTAX;
        if (k == max_items) return PARSE_TOO_MANY;
        items[k++] = p;
        if (!q) break;
        p = q + 1;
    }
    *n = k;
    return PARSE_OK;
}

size_t parse_decimal_len(const char *s)
{
    const char *p = s;
    size_t digits = 0;
    if (!s) return 0;
    if (*p == '-') p++;
    for (; isdigit((unsigned char)*p); p++) digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++) digits++;
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') { /* an exponent only when digits follow */
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (isdigit((unsigned char)*q)) {
            while (isdigit((unsigned char)*q)) q++;
            p = q;
        }
    }
    return (size_t)(p - s);
}
