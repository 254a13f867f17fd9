/* csv.c — ddlbench's CSV read into memory, RFC 4180 cells (see csv.h). */
#include "csv.h"
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int csv_split(char *line, char **cells, int max)
{
    int n = 0;
    char *r = line;
    for (;;) {
        char *w = r, c;
        if (n == max) return CSV_SPLIT_OVER;
        cells[n++] = w;
        if (*r == '"') {
            for (r++;; r++) {
                if (!*r) return CSV_SPLIT_QUOTE;
                if (*r == '"' && r[1] != '"') break;
                *w++ = *r;
                r += *r == '"'; /* "" is one quote */
            }
            if (*++r && *r != ',') return CSV_SPLIT_QUOTE;
        } else {
            while (*r && *r != ',') r++;
            w = r;
        }
        c = *r;
        *w = '\0';
        if (!c) return n;
        r++;
    }
}

int csv_needs_quotes(const char *s) { return s[strcspn(s, ",\"\r\n")] != '\0'; }

void csv_format_cell(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    if (!cap) return;
    if (!csv_needs_quotes(s)) {
        snprintf(out, cap, "%s", s);
        return;
    }
    out[k++] = '"';
    for (; *s && k + 3 < cap; s++) {
        if (*s == '"') out[k++] = '"';
        out[k++] = *s;
    }
    if (k + 1 < cap) out[k++] = '"';
    out[k < cap ? k : cap - 1] = '\0';
}

static int push(void *arrp, int n, size_t each, int *cap)
{
    if (n < *cap) return 0;
    int c = *cap ? 2 * *cap : 16;
    void *p = realloc(*(void **)arrp, (size_t)c * each);
    if (!p) return 1;
    *(void **)arrp = p;
    *cap = c;
    return 0;
}

static int bad(char *err, size_t errlen, long line, const char *what, long a, long b)
{
    char w[200];
    snprintf(w, sizeof w, what, a, b);
    snprintf(err, errlen, "line %ld: %s", line, w);
    return 2;
}

static int add_line(csv_doc *d, char *line, long no, int caps[3], char *err, size_t errlen)
{
    char *cells[CSV_MAX_COLUMNS];
    if (*line == '#') {
        if (push(&d->comments, d->ncomments, sizeof *d->comments, &caps[0])) return 1;
        d->comments[d->ncomments++] = line;
        return 0;
    }
    int n = csv_split(line, cells, CSV_MAX_COLUMNS);
    if (n == CSV_SPLIT_QUOTE)
        return bad(err, errlen, no, "a quoted cell not closed on its line, or text after its quote", 0, 0);
    if (d->ncols < 0) {
        if (n < 0) return bad(err, errlen, no, "more than %ld columns", CSV_MAX_COLUMNS, 0);
        if (!(d->names = malloc((size_t)n * sizeof *d->names))) return 1;
        memcpy(d->names, cells, (size_t)n * sizeof *cells);
        d->ncols = n, d->header_line = no;
        return 0;
    }
    if (n != d->ncols)
        return bad(err, errlen, no, "%ld cells, expected %ld (the header's)", n < 0 ? CSV_MAX_COLUMNS : n, d->ncols);
    int cap = caps[1];
    if (push(&d->lines, d->nrows, sizeof *d->lines, &caps[1])) return 1;
    if (caps[1] != cap) {
        char **c = realloc(d->cells, (size_t)caps[1] * (size_t)n * sizeof *c);
        if (!c) return 1;
        d->cells = c;
    }
    memcpy(d->cells + (size_t)d->nrows * (size_t)n, cells, (size_t)n * sizeof *cells);
    d->lines[d->nrows++] = no;
    return 0;
}

int csv_read(const char *text, size_t len, int flags, csv_doc *d, char *err, size_t errlen)
{
    int caps[3] = { 0, 0, 0 }, rc;
    long no = 0;
    memset(d, 0, sizeof *d);
    d->ncols = -1;
    if (!(d->buf = malloc(len + 1))) return snprintf(err, errlen, "out of memory"), 1;
    memcpy(d->buf, text, len);
    d->buf[len] = '\0';
    for (size_t at = 0; at < len;) {
        char *line = d->buf + at, *nl = memchr(line, '\n', len - at);
        size_t k = (nl ? (size_t)(nl - line) : len - at);
        no++;
        at += k + 1;
        if (k >= CSV_LINE_MAX) return bad(err, errlen, no, "longer than %ld bytes", CSV_LINE_MAX, 0);
        if ((flags & CSV_TEXT) && parse_line_bad(line, k) >= 0)
            return bad(err, errlen, no, "byte %ld is a NUL, a control character or not UTF-8; expected text",
                       parse_line_bad(line, k) + 1, 0);
        line[k] = '\0';
        if (k && line[k - 1] == '\r') line[k - 1] = '\0';
        if (!*line) continue;
        if ((rc = add_line(d, line, no, caps, err, errlen)))
            return rc == 1 ? (snprintf(err, errlen, "out of memory"), 1) : 2;
    }
    if (d->ncols < 0) return snprintf(err, errlen, "no header row"), 2;
    return 0;
}

void csv_free(csv_doc *d)
{
    free(d->buf), free(d->comments), free(d->names), free(d->cells), free(d->lines);
    memset(d, 0, sizeof *d);
}

int csv_col(const csv_doc *d, const char *name)
{
    for (int i = d->ncols - 1; i >= 0; i--)
        if (!strcmp(d->names[i], name)) return i;
    return -1;
}

int csv_meta(char *line, char **key, char **value)
{
    char *k = line + (*line == '#'), *colon;
    while (*k == ' ') k++;
    if (!(colon = strstr(k, ": ")) && !(colon = strchr(k, ':'))) return 0;
    *colon = '\0';
    *key = k;
    *value = colon + 1 + (colon[1] == ' ');
    return 1;
}
