/* meta.h — provenance of a results file: the `# key: value` lines every CSV begins with (commit,
 * MPI library, BLAS backend, device, hosts, date, command line), so a CSV found later says where it
 * came from. gnuplot and the awk scripts skip `#` lines; results/README.md lists the keys. */
#ifndef HARN_META_H
#define HARN_META_H

#include <mpi.h>
#include <stdio.h>
#include <stddef.h>

typedef struct run_meta {
    char commit[64];    /* git rev-parse --short HEAD at build time (DDL_COMMIT), or "unknown" */
    char mpi[256];      /* first line of MPI_Get_library_version */
    char blas[256];     /* kern_gemm_backend() */
    char device[256];   /* simulated profile or the CPU model */
    char hosts[512];    /* distinct processor names of the ranks, "N hosts: a,b,..." */
    char date[32];      /* UTC, ISO 8601 */
    char command[1024]; /* the command line, shell-quoted */
    char extra[512];    /* optional further "# key: value" lines (each ending in \n), or "" */
} run_meta;

/* Fills m; collective over comm (gathers the processor names). device NULL = the CPU model from
 * /proc/cpuinfo. When DDL_CLUSTER is set (an emulated cluster, harness/scripts/emucluster.sh), it
 * becomes a "# cluster: ..." line of m->extra. argv[0..argc) is the full command line (main's argv). Returns 0, or 1 if
 * the host
 * gather failed (the other fields are filled anyway). */
int meta_collect(MPI_Comm comm, int argc, char **argv, const char *device, run_meta *m);
/* The fields that need no MPI (commit, BLAS, device, date, command); mpi and hosts left empty. */
void meta_local(int argc, char **argv, const char *device, run_meta *m);
/* Appends one "# key: value\n" line to m->extra (dropped when it does not fit). */
void meta_add(run_meta *m, const char *key, const char *value);
/* Writes the `# key: value` lines. */
void meta_write(FILE *f, const run_meta *m);

/* Pure helpers (unit-tested): argv joined with spaces, arguments with shell-special characters in
 * single quotes; always NUL-terminated, "..." at the end when truncated. */
void meta_join_command(int argc, char **argv, char *out, size_t len);
/* Copies src into out, replacing control characters (newlines) by spaces and trimming blanks. */
void meta_clean(const char *src, char *out, size_t len);
/* The commit this binary was built from (DDL_COMMIT), or "unknown": `ddlbench --version`. */
const char *meta_commit(void);
/* "N hosts: a,b,c" of the distinct names among n names of stride `stride` bytes; "..." when long. */
void meta_hosts_list(const char *names, int n, size_t stride, char *out, size_t len);
/* Where the ranks landed: "H hosts x K ranks" when every host has K of the n ranks, else
 * "H hosts x K1-K2 ranks" (the fewest and the most on one host); the train CSV's "# placement:" line,
 * which `ddlbench merge` compares with the launch's intended nodes x GPUs per node. */
void meta_placement(const char *names, int n, size_t stride, char *out, size_t len);

#endif
