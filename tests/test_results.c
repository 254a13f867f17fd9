/* test_results.c — results files (harness/common/results.c): what counts as a number, the JSON document
 * of a CSV text parsed back with cJSON (provenance, columns, rows; numbers, null, strings), malformed
 * CSVs refused, and files written whole (no .tmp left; an unwritable path fails). No MPI needed. */
#include "results.h"
#include "test.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char csv[] = "# commit: abc123\n# command: ddlbench train --csv 'a b.csv'\n# note: x: y\n"
                          "model,ranks,time_ms,label,papi,neg\n"
                          "resnet50,4,12.5,all,NA,-1e-05\n"
                          "resnet101-22k,256,0.0001,3,,+7\n";

static void check_doc(void)
{
    cJSON *doc = NULL;
    char err[200] = "";
    int rc = results_json_from_csv(csv, strlen(csv), "train", &doc, err, sizeof err);
    CHECK(rc == 0 && doc, "parse: rc %d (%s)", rc, err);
    if (!doc) return;
    char *text = cJSON_PrintUnformatted(doc);
    cJSON *back = text ? cJSON_Parse(text) : NULL; /* round trip through the printed text */
    CHECK(back != NULL, "printed JSON does not parse back");
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(back, "provenance");
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(back, "schema")), RESULTS_SCHEMA), "schema");
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(back, "kind")), "train"), "kind");
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(prov, "command")),
                  "ddlbench train --csv 'a b.csv'"),
          "provenance command");
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(prov, "note")), "x: y"), "value with a colon");
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(back, "columns"),
                *rows = cJSON_GetObjectItemCaseSensitive(back, "rows");
    CHECK(cJSON_GetArraySize(cols) == 6 && !strcmp(cJSON_GetArrayItem(cols, 2)->valuestring, "time_ms"), "columns");
    CHECK(cJSON_GetArraySize(rows) == 2, "rows: %d", cJSON_GetArraySize(rows));
    const cJSON *r0 = cJSON_GetArrayItem(rows, 0), *r1 = cJSON_GetArrayItem(rows, 1);
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r0, "model")), "model is a string");
    CHECK(cJSON_GetObjectItemCaseSensitive(r0, "ranks")->valuedouble == 4, "ranks 4");
    CHECK(cJSON_GetObjectItemCaseSensitive(r0, "time_ms")->valuedouble == 12.5, "time 12.5");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r0, "papi")), "NA -> null");
    CHECK(cJSON_GetObjectItemCaseSensitive(r0, "neg")->valuedouble == -1e-05, "-1e-05");
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r0, "label")), "all stays a string");
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r1, "label")) &&
              !strcmp(cJSON_GetObjectItemCaseSensitive(r1, "label")->valuestring, "3"),
          "3 is text where its column holds \"all\": one type a column");
    CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r1, "ranks")), "a column of numbers stays numbers");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r1, "papi")), "empty -> null");
    CHECK(cJSON_GetObjectItemCaseSensitive(r1, "neg")->valuedouble == 7, "+7");
    cJSON_Delete(back);
    cJSON_free(text);
    cJSON_Delete(doc);
}

static void check_quoted(void) /* RFC 4180: a quoted cell keeps its comma and its quotes, in one JSON value */
{
    static const char q[] = "name,n\n\"a,\"\"b\"\"\",2\n";
    cJSON *doc = NULL;
    char err[200] = "";
    CHECK(results_json_from_csv(q, sizeof q - 1, "k", &doc, err, sizeof err) == 0, "quoted: %s", err);
    const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "rows"), 0);
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r0, "name"));
    CHECK(v && !strcmp(v, "a,\"b\"") && cJSON_GetObjectItemCaseSensitive(r0, "n")->valuedouble == 2, "quoted cell: %s",
          v ? v : "none");
    cJSON_Delete(doc);
}

static void check_refusals(void)
{
    static const char *bad[] = {
        "# only: provenance\n", "a,b\n1,2,3\n", "a,b\n1\n", "a,a\n1,2\n", "a,,b\n1,2,3\n", ""
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *doc = NULL;
        char err[200] = "";
        int rc = results_json_from_csv(bad[i], strlen(bad[i]), "k", &doc, err, sizeof err);
        CHECK(rc == 2 && !doc && *err && !strchr(err, '\n'), "bad CSV %zu accepted (rc %d)", i, rc);
        cJSON_Delete(doc);
    }
}

static void check_numbers(void)
{
    static const char *yes[] = { "0", "-1", "+2", "3.5", ".5", "5.", "1e9", "1E-05", "12.345" };
    static const char *no[] = {
        "", "NA", "-", ".", "e5", "1e", "0x10", "inf", "nan", "1,2", " 1", "1 ", "1e999", "all"
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        CHECK(results_is_number(yes[i]), "\"%s\" is a number", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECK(!results_is_number(no[i]), "\"%s\" is not a number", no[i]);
}

static void check_files(void)
{
    char dir[] = "/tmp/ddl_results_XXXXXX", csvp[128], jsonp[128], tmp[140], err[300];
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
    snprintf(csvp, sizeof csvp, "%s/r.csv", dir);
    snprintf(jsonp, sizeof jsonp, "%s/r.json", dir);
    int rc = results_write(csvp, jsonp, "train", csv, strlen(csv), err, sizeof err);
    CHECK(rc == 0, "write: %s", err);
    FILE *f = fopen(jsonp, "r");
    char buf[4096] = "";
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    cJSON *doc = cJSON_Parse(buf);
    CHECK(n > 0 && doc && buf[n - 1] == '\n', "r.json parses and ends in a newline");
    cJSON_Delete(doc);
    snprintf(tmp, sizeof tmp, "%s.tmp", jsonp);
    CHECK(access(tmp, F_OK) != 0, "r.json.tmp left behind");
    snprintf(tmp, sizeof tmp, "%s/no/such.json", dir);
    CHECK(results_write(NULL, tmp, "train", csv, strlen(csv), err, sizeof err) == 1 && strstr(err, "cannot write"),
          "unwritable path: %s", err);
    CHECK(results_write(NULL, jsonp, "train", "a,b\n1\n", 6, err, sizeof err) == 2, "bad CSV written");
    remove(csvp);
    remove(jsonp);
    rmdir(dir);
}

int main(void)
{
    check_numbers();
    check_doc();
    check_quoted();
    check_refusals();
    check_files();
    return TEST_REPORT();
}
