/* results.c — results files written whole, as CSV and as JSON through libcjson (see results.h). The
 * JSON is built from the CSV text itself, so its names and values cannot drift from the CSV's. */
#include "results.h"
#include "csv.h"
#include "parse.h"
#include "outfile.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One type a column: a number only where every cell of the column is one (or NA); a column that
 * mixes them ("rank": all, 0, 1, ...) is text throughout. */
static cJSON *cell_value(const char *s, int numeric)
{
    if (!*s || !strcmp(s, "NA")) return cJSON_CreateNull();
    if (numeric) return cJSON_CreateNumber(strtod(s, NULL));
    return cJSON_CreateString(s);
}

static int column_numeric(const csv_doc *d, int i)
{
    for (int r = 0; r < d->nrows; r++) {
        const char *s = csv_cell(d, r, i);
        if (*s && strcmp(s, "NA") && !results_is_number(s)) return 0;
    }
    return 1;
}

/* "# key: value" into the provenance object (a repeated key keeps the last value). */
static int add_provenance(cJSON *prov, char *line)
{
    char *key, *value;
    if (!csv_meta(line, &key, &value)) return 0; /* a comment, not a key */
    cJSON *v = cJSON_CreateString(value);
    if (!v) return -1;
    if (cJSON_GetObjectItemCaseSensitive(prov, key))
        return cJSON_ReplaceItemInObjectCaseSensitive(prov, key, v) ? 0 : -1;
    return cJSON_AddItemToObject(prov, key, v) ? 0 : -1;
}

static int add_rows(cJSON *doc, const csv_doc *d)
{
    cJSON *rows = cJSON_AddArrayToObject(doc, "rows");
    for (int r = 0; rows && r < d->nrows; r++) {
        cJSON *row = cJSON_CreateObject();
        if (!row || !cJSON_AddItemToArray(rows, row)) return cJSON_Delete(row), 1;
        for (int i = 0; i < d->ncols; i++) {
            cJSON *v = cell_value(csv_cell(d, r, i), column_numeric(d, i));
            if (!v || !cJSON_AddItemToObject(row, d->names[i], v)) return cJSON_Delete(v), 1;
        }
    }
    return !rows;
}

static int set_header(cJSON *doc, const csv_doc *d, char *err, size_t errlen)
{
    cJSON *cols = cJSON_AddArrayToObject(doc, "columns");
    if (!cols) return snprintf(err, errlen, "out of memory"), 1;
    for (int i = 0; i < d->ncols; i++) {
        for (int j = 0; j < i; j++)
            if (!strcmp(d->names[i], d->names[j]))
                return snprintf(err, errlen, "column \"%.64s\" repeats", d->names[i]), 2;
        if (!*d->names[i]) return snprintf(err, errlen, "column %d has no name", i + 1), 2;
        if (!cJSON_AddItemToArray(cols, cJSON_CreateString(d->names[i])))
            return snprintf(err, errlen, "out of memory"), 1;
    }
    return 0;
}

int results_json_from_csv(const char *text, size_t len, const char *kind, cJSON **out, char *err, size_t errlen)
{
    csv_doc d;
    cJSON *doc = NULL, *prov = NULL;
    int rc = csv_read(text, len, CSV_TEXT, &d, err, errlen); /* 1 out of memory, 2 not a CSV */
    *out = NULL;
    if (rc) goto out;
    rc = 1;
    if (!(doc = cJSON_CreateObject()) || !cJSON_AddStringToObject(doc, "schema", RESULTS_SCHEMA) ||
        !cJSON_AddStringToObject(doc, "kind", kind) || !(prov = cJSON_AddObjectToObject(doc, "provenance"))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < d.ncomments; i++)
        if (add_provenance(prov, d.comments[i])) { snprintf(err, errlen, "out of memory"); goto out; }
    if ((rc = set_header(doc, &d, err, errlen))) goto out;
    if ((rc = add_rows(doc, &d))) { snprintf(err, errlen, "out of memory"); goto out; }
    *out = doc;
    doc = NULL;
out:
    cJSON_Delete(doc);
    csv_free(&d);
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

/* data into an opened outfile; 0, or 1 with a message (the file discarded). */
static int put(outfile *o, const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    if (!len || fwrite(data, 1, len, o->f) == len) return 0;
    snprintf(err, errlen, "cannot write \"%.200s\": %s", path, strerror(errno));
    return 1;
}

int results_write(const char *csv_path, const char *json_path, const char *kind, const char *text, size_t len,
                  char *err, size_t errlen)
{
    cJSON *doc = NULL;
    char *json = NULL;
    outfile o[2];
    int rc = 0, opened = 0;
    if (json_path && (rc = results_json_from_csv(text, len, kind, &doc, err, errlen))) goto out;
    if (json_path && !(json = cJSON_Print(doc))) {
        snprintf(err, errlen, "out of memory printing the JSON");
        rc = 1;
        goto out;
    }
    /* both opened, written and closed before either is renamed into place: the pair, or neither */
    rc = 1;
    if (csv_path && (outfile_open(&o[opened], csv_path, err, errlen) || (opened++, 0))) goto out;
    if (json && (outfile_open(&o[opened], json_path, err, errlen) || (opened++, 0))) goto out;
    if (csv_path && put(&o[0], csv_path, text, len, err, errlen)) goto out;
    if (json) {
        size_t n = strlen(json);
        json[n] = '\n'; /* cJSON_Print's buffer ends in its NUL: write the text and a newline */
        if (put(&o[opened - 1], json_path, json, n + 1, err, errlen)) goto out;
    }
    for (int k = 0; k < opened; k++)
        if (outfile_close(&o[k], err, errlen)) goto out;
    for (int k = 0; k < opened; k++)
        if (outfile_commit(&o[k], err, errlen)) goto out;
    rc = 0;
out:
    for (int k = 0; rc && k < opened; k++) outfile_discard(&o[k]);
    cJSON_free(json);
    cJSON_Delete(doc);
    return rc;
}
