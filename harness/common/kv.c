/* kv.c — `key = value` lines (see kv.h). */
#include "kv.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

void kv_start(kv_reader *r, const char *text, size_t len)
{
    r->at = text, r->end = text + len, r->lineno = 0;
    r->line[0] = '\0';
}

static int blank(char c) { return c == ' ' || c == '\t'; }

int kv_next(kv_reader *r, char **key, char **value, char *err, size_t errlen)
{
    while (r->at < r->end) {
        const char *s = r->at, *nl = memchr(s, '\n', (size_t)(r->end - s)), *eol = nl ? nl : r->end;
        size_t n = (size_t)(eol - s);
        r->at = eol + 1;
        r->lineno++;
        if (n > KV_LINE_MAX) return snprintf(err, errlen, "line longer than %d bytes", KV_LINE_MAX), 2;
        if (n && s[n - 1] == '\r') n--;
        long bad = parse_line_bad(s, n);
        if (bad >= 0)
            return snprintf(err, errlen, "byte %ld is a NUL, a control character or not UTF-8; expected text", bad + 1),
                   2;
        memcpy(r->line, s, n);
        r->line[n] = '\0';
        char *p = r->line, *e = r->line + n, *eq;
        while (blank(*p)) p++;
        while (e > p && blank(e[-1])) e--;
        *e = '\0';
        if (!*p || *p == '#') continue;
        if (!(eq = strchr(p, '='))) return snprintf(err, errlen, "expected \"key = value\""), 2;
        char *ke = eq, *v = eq + 1;
        while (ke > p && blank(ke[-1])) ke--;
        *ke = '\0';
        if (!*p || strpbrk(p, " \t")) return snprintf(err, errlen, "expected \"key = value\" (a key is one word)"), 2;
        while (blank(*v)) v++;
        *key = p, *value = v;
        return 1;
    }
    return 0;
}

int kv_word(char *value, char *err, size_t errlen)
{
    size_t k = strcspn(value, " \t#");
    char *rest = value + k;
    while (blank(*rest)) rest++;
    if (*rest && *rest != '#') return snprintf(err, errlen, "expected one value, then at most a # comment"), 2;
    value[k] = '\0';
    return 0;
}
