/* test_nccl_cat.c — the nccl-tests catalogue parser (harness/sim/nccl_cat.c): a good entry read whole,
 * every bad input refused with the file, its line and the key, and the shipped catalogue itself. */
#include "nccl_cat.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define HEAD "name = t\nmachine = dgxh100\nnodes = 2\nnccl = 2.20.5\npublished_algo = Ring\nalgo = nccl-ring\n" \
             "kind = user\nrole = prediction\nsource = https://example.org/x#y\n"

static int parse(const char *text, nccl_entry *e, char *err, size_t errlen)
{
    return nccl_cat_parse(text, strlen(text), "t.nccl", e, err, errlen);
}

/* text refused, the message holding want (the file:line and the key). */
static void refused(const char *text, const char *want)
{
    nccl_entry e;
    char err[400] = "";
    int rc = parse(text, &e, err, sizeof err);
    CHECK(rc == 2 && strstr(err, want) && !strchr(err, '\n'), "refused with \"%s\": rc %d, \"%s\"", want, rc, err);
}

int main(void)
{
    nccl_entry e;
    char err[400] = "";
    CHECK(parse(HEAD "point = 1024 0.5\npoint = 2048 1.25 # a comment\n", &e, err, sizeof err) == 0, "good: %s", err);
    CHECK(e.nodes == 2 && e.npoints == 2 && e.pt[1].bytes == 2048 && e.pt[1].busbw == 1.25 &&
          !strcmp(e.algo, "nccl-ring") && !strcmp(e.kind, "user") && !strcmp(e.source, "https://example.org/x#y"),
          "fields read back");
    CHECK(nccl_cat_scored(&e), "a prediction with an algorithm counts");
    strcpy(e.role, "input");
    CHECK(!nccl_cat_scored(&e), "an input never counts as a prediction");

    refused(HEAD "point = 2048 1\npoint = 1024 2\n", "t.nccl:11: point: sizes out of order");
    refused(HEAD "point = 2048 1\npoint = 2048 2\n", "t.nccl:11: point: sizes out of order");
    refused(HEAD "point = 1024 0\n", "t.nccl:10: point: busbw: expected a positive number");
    refused(HEAD "point = 1024 -3\n", "t.nccl:10: point: busbw");
    refused(HEAD "point = 1024 nan\n", "t.nccl:10: point: busbw");
    refused(HEAD "point = 1024 0x10\n", "t.nccl:10: point: busbw");
    refused(HEAD "point = 1024\n", "t.nccl:10: point: expected SIZE_B BUSBW_GBps");
    refused(HEAD "point = 1024 1 3\n", "t.nccl:10: point: expected SIZE_B BUSBW_GBps");
    refused(HEAD "point = 1.5 1\n", "t.nccl:10: point: size");
    refused(HEAD "point = 0 1\n", "t.nccl:10: point: size");
    refused(HEAD, "t.nccl: missing key \"point\"");
    refused("name = t\npoint = 1 1\n", "missing key \"machine\"");
    refused(HEAD "nodes = 3\npoint = 1 1\n", "t.nccl:10: nodes: given twice");
    refused(HEAD "colour = red\n", "t.nccl:10: unknown key \"colour\"");
    refused("name = t\nkind = vendor\n", "t.nccl:2: kind: expected one of primary user");
    refused("name = t\nrole = both\n", "t.nccl:2: role: expected one of prediction input");
    refused("nodes = 0\n", "t.nccl:1: nodes: expected a whole number");
    refused("name = a b\n", "t.nccl:1: name");
    refused("this is not a pair\n", "t.nccl:1:");

    /* the shipped catalogue: every file parses, names unique, sizes increasing (the parser's rule) */
    nccl_entry *all = NULL;
    int n = 0;
    CHECK(nccl_cat_load_dir("harness/sim/nccl", &all, &n, err, sizeof err) == 0 && n >= 4, "catalogue: %s", err);
    int scored = 0;
    for (int i = 0; i < n; i++) scored += nccl_cat_scored(&all[i]);
    CHECK(scored >= 1 && scored < n, "some entries predicted, some input or unmatched (%d of %d)", scored, n);
    free(all);
    CHECK(nccl_cat_load_dir("no/such/dir", &all, &n, err, sizeof err) == 2 && strstr(err, "no/such/dir"), "%s", err);
    return TEST_REPORT();
}
