/* nccl_cat.h — the catalogue of published nccl-tests allreduce runs (harness/sim/nccl/NAME.nccl): each
 * file one run, with its machine (a ddlbench platform), node count, NCCL version, the algorithm NCCL
 * ran where stated, ddlbench's matching algorithm, its source, and its points (size, busbw).
 * `ddlbench nccl-compare` predicts each point (cli_nccl_compare.c; make nccl-compare simulates them).
 *
 * Format: the one key = value grammar (common/kv.h), every key once but `point`, all required:
 *   name = azure-nd-a100-v4       [A-Za-z0-9._-], 1..63: the run's name
 *   machine = dgxa100             the platform it ran on: a preset or a platform file
 *   nodes = 1                     1..16384
 *   nccl = 2.18.5                 NCCL's version as published (text)
 *   published_algo = NVLS         what NCCL ran, as published (text; "default" when not stated)
 *   algo = nccl-ring              ddlbench's matching algorithm, or none (no match: compared for
 *                                 reference only, outside the goals)
 *   kind = primary                primary (the vendor's or NVIDIA's own) or user (a user's measurement)
 *   role = prediction             prediction, or input: a figure a preset's constant was taken from
 *                                 (docs/SOURCES.md), shown and never counted as a prediction
 *   source = https://...          where it is published (text)
 *   point = 1048576 36.22         a size in bytes (a whole number > 0) and its busbw in GB/s (> 0);
 *                                 sizes strictly increasing, 1..NCCL_CAT_MAX_POINTS points
 * A malformed line, an unknown, repeated or missing key, sizes out of order or a busbw that is not a
 * positive number: one message naming the file, its line and the key (exit 2 in the CLI). */
#ifndef HARN_NCCL_CAT_H
#define HARN_NCCL_CAT_H

#include <stddef.h>

#define NCCL_CAT_MAX_POINTS 64
#define NCCL_CAT_MAX_ENTRIES 64

typedef struct nccl_point {
    double bytes;          /* message size, bytes */
    double busbw;          /* published busbw, GB/s (nccl-tests: algbw x 2(p-1)/p) */
} nccl_point;

typedef struct nccl_entry {
    char name[64];         /* the run's name */
    char machine[256];     /* platform preset or file */
    char nccl[64];         /* NCCL version, as published */
    char published_algo[128]; /* NCCL's algorithm, as published */
    char algo[32];         /* ddlbench's matching algorithm, "none" for none */
    char kind[16];         /* primary | user */
    char role[16];         /* prediction | input */
    char source[256];      /* URL */
    int nodes;             /* nodes of the run */
    char path[256];        /* the file it was read from, for messages */
    int machine_line, algo_line; /* the lines of machine and algo, for messages (file:line) */
    int npoints;           /* points in pt */
    nccl_point pt[NCCL_CAT_MAX_POINTS];
} nccl_entry;

/* One catalogue file's text (len bytes, named path in messages) into *e. 0, or 2 with
 * "PATH:LINE: KEY: ..." (or "PATH: missing key ...") in err. */
int nccl_cat_parse(const char *text, size_t len, const char *path, nccl_entry *e, char *err, size_t errlen);
/* The file at path, read (textfile.h) and parsed. 0, 1 out of memory, or 2 with a message. */
int nccl_cat_load(const char *path, nccl_entry *e, char *err, size_t errlen);
/* Every *.nccl file of dir, by name, into *out (malloc'd, *n entries; names unique). 0, 1 out of
 * memory, or 2 with a message (no such folder, no file, a bad file, two entries of one name). */
int nccl_cat_load_dir(const char *dir, nccl_entry **out, int *n, char *err, size_t errlen);
/* 1 when the entry is compared against a ddlbench algorithm and counts towards the goals. */
int nccl_cat_scored(const nccl_entry *e);

#endif
