/* results.h — one way to write a results file: the text of a CSV (the `# key: value` provenance lines,
 * one header row, the rows; meta.h) kept in memory on rank 0 and written whole at the end, as CSV and,
 * with --json, as one JSON document (libcjson; results/README.md "JSON"):
 *   { "schema": "ddlbench-results/1", "kind": KIND,
 *     "provenance": { key: value, ... },            every `# key: value` line, in order
 *     "columns": [ name, ... ],                     the CSV header
 *     "rows": [ { name: value, ... }, ... ] }       one object per CSV row, the same names
 * A cell becomes a JSON number when it is a plain decimal number (-12, 3.5, 1e-05), null when it reads
 * NA or is empty, and a string otherwise, so the JSON holds exactly the CSV's values. Both files go to
 * PATH.tmp and are renamed when complete. */
#ifndef HARN_RESULTS_H
#define HARN_RESULTS_H

#include <stddef.h>

#define RESULTS_SCHEMA "ddlbench-results/1"

typedef struct cJSON cJSON;

/* 1 if s is a plain decimal number ([-+]digits[.digits][e[-+]digits], finite); 0 otherwise. */
int results_is_number(const char *s);
/* The document of a CSV text[0..len) (provenance, header, rows). 0 with *out (free with cJSON_Delete),
 * or 2 with a one-line message: no header row, a row whose cell count differs from the header's, a
 * column name that repeats, a line over 64 KB; or 1 out of memory. */
int results_json_from_csv(const char *text, size_t len, const char *kind, cJSON **out, char *err, size_t errlen);
/* Writes data[0..len) to path.tmp, then renames it to path. 0, or 1 with a message. */
int results_write_file(const char *path, const char *data, size_t len, char *err, size_t errlen);
/* The CSV text to csv_path and its JSON document to json_path (either may be NULL): both written to
 * temporary files and renamed into place only when both are whole, so a failure leaves neither.
 * 0, or 1 (a write failed, out of memory) / 2 (the text is not a CSV) with a message. */
int results_write(const char *csv_path, const char *json_path, const char *kind, const char *text, size_t len,
                  char *err, size_t errlen);

#endif
