/* outfile.h — results files: every output path checked before the work starts, and written whole or
 * not at all.
 *
 * What a path may name, and what happens to it:
 *   a new file in an existing, writable directory      written to PATH.tmp, renamed onto PATH when complete
 *   an existing regular file (writable)                 the same; its permission bits are kept
 *   a symbolic link                                     followed (up to 40 links): its target is written as
 *                                                       above; the link itself is never replaced
 *   a FIFO or a character device (/dev/null, a tty)     written through (opened, never replaced); a FIFO
 *                                                       with no reader when the file is written is an error
 *   a link of /proc to an open file (/dev/stdout)       written through, appended
 *   a directory, a block device, a socket, a file on    refused (2) before any work
 *   /proc, /sys or another kernel filesystem, a missing
 *   or unwritable directory, an unwritable file
 * A failure while writing removes PATH.tmp, so no partial file is left under either name. */
#ifndef HARN_OUTFILE_H
#define HARN_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;            /* write here between outfile_open and outfile_commit */
    char path[4096];    /* the file written: the given path with its symbolic links followed */
    char tmp[4200];     /* path.tmp while writing; "" when written through (FIFO, character device) */
} outfile;

/* 0 if a results file can be written at path; else 2 with "OPT: PATH: why; expected ..." in err.
 * A regular file accepted once is claimed for opt: a later check of the same file (the same name in
 * the same directory, however spelt) is refused, so two outputs never share one path. */
int outfile_check(const char *opt, const char *path, char *err, size_t errlen);
/* Forgets the claims (tests, and a front-end that checks one file again on purpose). */
void outfile_unclaim_all(void);
/* 0 if dir is an existing writable directory where files can be created; else 2 with a message. */
int outfile_check_dir(const char *opt, const char *dir, char *err, size_t errlen);
/* Opens path for writing (as described above). 0, or 1 with a message (nothing is left behind). */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* Flushes and closes the stream; on a write error removes the temporary file. 0, or 1 with a message. */
int outfile_close(outfile *o, char *err, size_t errlen);
/* outfile_close if still open, then renames the temporary file onto the path. 0, or 1 with a message;
 * on failure nothing new is left under either name. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Abandons the file: closes it and removes the temporary file. */
void outfile_discard(outfile *o);

#endif
