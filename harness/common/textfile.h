/* textfile.h — the one bounded reader of ddlbench's input files (platform, profile, study and model
 * files, results CSVs): a regular file read whole, at most TEXTFILE_MAX_BYTES. A FIFO, a device or a
 * folder is refused before any read (a FIFO would block, a device never end), and so is a file
 * larger than the cap. Messages name the path with control bytes escaped (a CR in a file name cannot
 * split the one-line error). Used by platform_file.c, profile.c, study_file.c, model.c and the CLI's
 * cli_read_all (json, merge, fidelity). */
#ifndef HARN_TEXTFILE_H
#define HARN_TEXTFILE_H

#include <stddef.h>

#define TEXTFILE_MAX_BYTES ((size_t)256 << 20) /* 256 MiB: far above any input ddlbench reads */

/* The file at path into *out (malloc'd, NUL-terminated after its *len bytes). 0; 1 out of memory; or
 * 2 with "PATH: cannot open: REASON" (errno left as open() set it), "PATH: not a regular file ...",
 * "PATH: larger than N bytes ..." or "PATH: read error: REASON" in err. */
int textfile_read(const char *path, char **out, size_t *len, char *err, size_t errlen);
/* s into out (cap bytes, NUL-terminated, cut if short) with control bytes and DEL as \r, \n, \t or
 * \xHH and a backslash doubled: one printable line. */
void textfile_escape(const char *s, char *out, size_t cap);

#endif
