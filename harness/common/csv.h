/* csv.h — the one reader of ddlbench's CSV (results/README.md): `#` lines (provenance `# key: value`
 * and plain comments) anywhere, one header row, then rows of the header's width, read by column name.
 * Cells follow RFC 4180: a cell in double quotes may hold commas, and "" inside it is one quote; a
 * quoted cell must close on its own line (ddlbench writes no line break inside a cell). Blank lines
 * are skipped, a CR before the LF is dropped, a line is at most CSV_LINE_MAX bytes and a header at
 * most CSV_MAX_COLUMNS cells. Read by results.c (JSON), scaling.c (merge) and fidelity.c. */
#ifndef HARN_CSV_H
#define HARN_CSV_H

#include <stddef.h>

#define CSV_LINE_MAX 65536
#define CSV_MAX_COLUMNS 256

enum { CSV_SPLIT_OVER = -1, CSV_SPLIT_QUOTE = -2 };
/* Splits line (NUL-terminated, modified in place: quotes removed) into at most max cells; the count,
 * CSV_SPLIT_OVER past max, or CSV_SPLIT_QUOTE for a quote left open or text after a closing quote. */
int csv_split(char *line, char **cells, int max);
/* 1 when s must be quoted to stay one cell (it holds a comma, a quote, a CR or an LF). */
int csv_needs_quotes(const char *s);
/* s as one CSV cell into out (cap bytes, NUL-terminated, cut if short): quoted when it must be. */
void csv_format_cell(const char *s, char *out, size_t cap);

enum { CSV_TEXT = 1 }; /* csv_read flag: refuse a NUL, a control byte or bad UTF-8 (results.c: JSON) */

typedef struct csv_doc {
    char *buf;            /* the text's copy, which every pointer below points into */
    char **comments;      /* the `#` lines, whole, in order */
    int ncomments;
    char **names;         /* the header's cells */
    int ncols;
    long header_line;
    char **cells;         /* row r, column c at cells[r * ncols + c] */
    long *lines;          /* row r's line number (1-based, counting every line) */
    int nrows;
} csv_doc;

/* Reads text[0..len) into d (csv_free it, also after an error). 0; 1 out of memory; 2 with
 * "line N: ..." in err: a line too long, a row of another width, a bad quote, no header row, or
 * (flag CSV_TEXT) a byte that is not text. */
int csv_read(const char *text, size_t len, int flags, csv_doc *d, char *err, size_t errlen);
void csv_free(csv_doc *d);
/* The last column named name, or -1. */
int csv_col(const csv_doc *d, const char *name);
/* Row r's cell in column c. */
static inline const char *csv_cell(const csv_doc *d, int r, int c)
{
    return d->cells[(size_t)r * (size_t)d->ncols + (size_t)c];
}
/* A `#` line as provenance: "# key: value" (or "# key:value") puts key and value (in line, which is
 * modified) and returns 1; a plain comment returns 0. */
int csv_meta(char *line, char **key, char **value);

#endif
