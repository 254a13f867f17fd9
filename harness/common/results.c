/* results.c — results files written whole, as CSV and as JSON through libcjson (see results.h). The
 * JSON is built from the CSV text itself, so its names and values cannot drift from the CSV's. */
#include "results.h"
#include "parse.h"
#include "outfile.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 65536
#define MAX_COLUMNS 256

int results_is_number(const char *s)
{
    const char *p = s;
    int digits = 0;
    if (*p == '-' || *p == '+') p++;
    while (isdigit((unsigned char)*p)) p++, digits++;
    if (*p == '.') for (p++; isdigit((unsigned char)*p); p++) digits++;
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+') p++;
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)*p)) p++;
    }
    return *p == '\0' && isfinite(strtod(s, NULL));
}

static cJSON *cell_value(const char *s)
{
    if (!*s || !strcmp(s, "NA")) return cJSON_CreateNull();
    if (results_is_number(s)) return cJSON_CreateNumber(strtod(s, NULL));
    return cJSON_CreateString(s);
}

/* Splits line (modified) at commas into at most max cells; returns the count, or -1 when over max. */
static int split(char *line, char **cells, int max)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n == max) return -1;
        cells[n++] = p;
        p = strchr(p, ',');
        if (!p) return n;
        *p = '\0';
    }
}

/* "# key: value" into the provenance object (a repeated key keeps the last value). */
static int add_provenance(cJSON *prov, char *line)
{
    char *key = line + 1, *colon;
    while (*key == ' ') key++;
    if (!(colon = strstr(key, ": ")) && !(colon = strchr(key, ':'))) return 0; /* a comment, not a key */
    *colon = '\0';
    const char *value = colon + 1 + (colon[1] == ' ');
    cJSON *v = cJSON_CreateString(value);
    if (!v) return -1;
    if (cJSON_GetObjectItemCaseSensitive(prov, key)) return cJSON_ReplaceItemInObjectCaseSensitive(prov, key, v) ? 0 : -1;
    return cJSON_AddItemToObject(prov, key, v) ? 0 : -1;
}

static int add_row(cJSON *rows, char **names, int ncols, char *line, long lineno, char *err, size_t errlen)
{
    char *cells[MAX_COLUMNS];
    int n = split(line, cells, MAX_COLUMNS);
    if (n != ncols) {
        snprintf(err, errlen, "line %ld: %d cells, expected %d as in the header", lineno, n, ncols);
        return 2;
    }
    cJSON *row = cJSON_CreateObject();
    if (!row || !cJSON_AddItemToArray(rows, row)) return cJSON_Delete(row), snprintf(err, errlen, "out of memory"), 1;
    for (int i = 0; i < n; i++) {
        cJSON *v = cell_value(cells[i]);
        if (!v || !cJSON_AddItemToObject(row, names[i], v)) return cJSON_Delete(v), snprintf(err, errlen, "out of memory"), 1;
    }
    return 0;
}

static int set_header(cJSON *doc, char *line, char *names_buf, char **names, int *ncols, char *err, size_t errlen)
{
    strcpy(names_buf, line);
    int n = split(names_buf, names, MAX_COLUMNS);
    cJSON *cols = cJSON_AddArrayToObject(doc, "columns");
    if (n < 0 || !cols) {
        snprintf(err, errlen, n < 0 ? "more than %d columns" : "out of memory", MAX_COLUMNS);
        return n < 0 ? 2 : 1;
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (!strcmp(names[i], names[j])) return snprintf(err, errlen, "column \"%.64s\" repeats", names[i]), 2;
        if (!*names[i]) return snprintf(err, errlen, "column %d has no name", i + 1), 2;
        if (!cJSON_AddItemToArray(cols, cJSON_CreateString(names[i]))) return snprintf(err, errlen, "out of memory"), 1;
    }
    *ncols = n;
    return 0;
}

int results_json_from_csv(const char *text, size_t len, const char *kind, cJSON **out, char *err, size_t errlen)
{
    char *line = malloc(LINE_MAX_BYTES), *names_buf = malloc(LINE_MAX_BYTES), *names[MAX_COLUMNS];
    cJSON *doc = cJSON_CreateObject(), *prov = NULL, *rows = NULL;
    int ncols = -1, rc = 1; /* 1 out of memory, 2 not a CSV; set at every goto out */
    long lineno = 0;
    *out = NULL;
    if (!line || !names_buf || !doc || !cJSON_AddStringToObject(doc, "schema", RESULTS_SCHEMA) ||
        !cJSON_AddStringToObject(doc, "kind", kind) || !(prov = cJSON_AddObjectToObject(doc, "provenance"))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t k = (nl ? (size_t)(nl - text) : len) - at;
        lineno++;
        if (k >= LINE_MAX_BYTES) {
            snprintf(err, errlen, "line %ld: longer than %d bytes", lineno, LINE_MAX_BYTES);
            rc = 2;
            goto out;
        }
        if (parse_line_bad(text + at, k) >= 0) { /* a NUL cut a cell; a control byte or bad UTF-8 made bad JSON */
            snprintf(err, errlen, "line %ld: byte %ld is a NUL, a control character or not UTF-8; expected text", lineno,
                     parse_line_bad(text + at, k) + 1);
            rc = 2;
            goto out;
        }
        memcpy(line, text + at, k);
        line[k] = '\0';
        if (k && line[k - 1] == '\r') line[k - 1] = '\0';
        at += k + 1;
        if (!*line) continue;
        if (*line == '#') {
            if (add_provenance(prov, line)) { snprintf(err, errlen, "out of memory"); rc = 1; goto out; }
        } else if (ncols < 0) {
            if ((rc = set_header(doc, line, names_buf, names, &ncols, err, errlen))) goto out;
            if (!(rows = cJSON_AddArrayToObject(doc, "rows"))) { snprintf(err, errlen, "out of memory"); rc = 1; goto out; }
        } else if ((rc = add_row(rows, names, ncols, line, lineno, err, errlen))) {
            goto out;
        }
    }
    if (ncols < 0) {
        snprintf(err, errlen, "no header row");
        rc = 2;
        goto out;
    }
    *out = doc;
    doc = NULL;
    rc = 0;
out:
    cJSON_Delete(doc);
    free(line);
    free(names_buf);
    return rc;
}

int results_write_file(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    outfile o; /* checked path, PATH.tmp renamed when whole; FIFOs and devices written through */
    if (outfile_open(&o, path, err, errlen)) return 1;
    if (len && fwrite(data, 1, len, o.f) != len) {
        snprintf(err, errlen, "cannot write \"%.200s\": %s", path, strerror(errno));
        outfile_discard(&o);
        return 1;
    }
    return outfile_commit(&o, err, errlen);
}

int results_write(const char *csv_path, const char *json_path, const char *kind, const char *text, size_t len,
                  char *err, size_t errlen)
{
    cJSON *doc = NULL;
    char *json = NULL;
    int rc = 0;
    if (json_path && (rc = results_json_from_csv(text, len, kind, &doc, err, errlen))) goto out;
    if (json_path && !(json = cJSON_Print(doc))) {
        snprintf(err, errlen, "out of memory printing the JSON");
        rc = 1;
        goto out;
    }
    if (csv_path && (rc = results_write_file(csv_path, text, len, err, errlen))) goto out;
    if (json) {
        size_t n = strlen(json);
        json[n] = '\n'; /* cJSON_Print's buffer ends in its NUL: write the text and a newline */
        rc = results_write_file(json_path, json, n + 1, err, errlen);
    }
out:
    cJSON_free(json);
    cJSON_Delete(doc);
    return rc;
}
