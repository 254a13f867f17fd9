/* fidelity_priv.h — pieces shared by fidelity.c and fidelity_calib.c (not an interface). */
#ifndef HARN_FIDELITY_PRIV_H
#define HARN_FIDELITY_PRIV_H

#include "csv.h"
#include "fidelity.h"

#include <stdio.h>

#define FID_KEY_MAX 512

typedef struct fid_dvec { double *v; int n, cap; } fid_dvec; /* a growing array of doubles */
/* Points keyed by text, in the order first seen, each with its samples (a, b) and a minimum. */
typedef struct fid_keyed { char key[FID_KEY_MAX]; fid_dvec a, b; double lo; } fid_keyed;
typedef struct fid_keyset { fid_keyed *k; int n, cap; } fid_keyset;

int fid_oom(char *err, size_t errlen);  /* "out of memory", 1 */
double fid_num(const char *s);          /* awk's value of a cell: 0 when none */
/* t read as a CSV with the columns names[0..n) (their indexes in col[]). 0, 1, or 2 with a message. */
int fid_read_csv(const fidelity_text *t, const char *const *names, int n, int *col, csv_doc *d, char *err,
                 size_t errlen);
int fid_dvec_add(fid_dvec *a, double x);                  /* 0, or 1 out of memory */
fid_keyed *fid_key_get(fid_keyset *s, const char *key);   /* found or added (NULL: out of memory) */
void fid_keys_free(fid_keyset *s);
/* cells[0..n) joined by commas, each a CSV cell (quoted where it must be) */
void fid_join_cells(char *out, size_t cap, const char *const *cells, int n);
/* The text of an open_memstream into *out: 0, or 1 (out of memory). */
int fid_mem_close(FILE *f, char **buf, char **out, char *err, size_t errlen);

#endif
