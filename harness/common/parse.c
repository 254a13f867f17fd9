/* parse.c — pure parsers for option values (see parse.h). */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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

/* Length of the UTF-8 sequence at s (1..4, within the avail bytes there) when it is well formed (no
 * overlong form, no surrogate, at most U+10FFFF), else 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n > avail) return 0;
    unsigned long cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (!n || cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

/* 1 if the code point at s (of n bytes) is a control character: C0, DEL or C1. */
static int is_control(const unsigned char *s, size_t n)
{
    return (n == 1 && (s[0] < 0x20 || s[0] == 0x7F)) || (n == 2 && s[0] == 0xC2 && s[1] < 0xA0);
}

/* The first byte of s[0..n) that is not printable UTF-8 (tab and carriage return allowed when
 * blanks), or -1. */
static long first_bad(const unsigned char *p, size_t n, int blanks)
{
    for (size_t i = 0; i < n;) {
        size_t k = p[i] ? utf8_len(p + i, n - i) : 0;
        int blank = blanks && (p[i] == '\t' || (p[i] == '\r' && i + 1 == n)); /* CR: a CRLF line end only */
        if (!k || (is_control(p + i, k) && !blank)) return (long)i;
        i += k;
    }
    return -1;
}

long parse_text_bad(const char *s) { return first_bad((const unsigned char *)s, strlen(s), 0); }

long parse_line_bad(const char *s, size_t n) { return first_bad((const unsigned char *)s, n, 1); }

const char *parse_quote(const char *s, char *out, size_t len)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t o = 0;
    if (!len) return out;
    size_t all = strlen((const char *)p);
    for (size_t i = 0; p[i] && o + 1 < len;) {
        size_t n = utf8_len(p + i, all - i);
        if (n && !is_control(p + i, n)) {
            if (o + n >= len) break;
            memcpy(out + o, p + i, n), o += n, i += n;
        } else { /* one byte as \xNN */
            if (o + 4 >= len) break;
            snprintf(out + o, len - o, "\\x%02X", p[i]), o += 4, i++;
        }
    }
    out[o] = '\0';
    return out;
}
