/* textfile.c — regular files read whole and bounded (see textfile.h). */
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void textfile_escape(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    if (!cap) return;
    for (; *s && k + 5 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\r' || c == '\n' || c == '\t' || c == '\\')
            out[k++] = '\\', out[k++] = c == '\r' ? 'r' : c == '\n' ? 'n' : c == '\t' ? 't' : '\\';
        else if (c < 0x20 || c == 0x7f) k += (size_t)snprintf(out + k, cap - k, "\\x%02x", c);
        else out[k++] = (char)c;
    }
    out[k] = '\0';
}

static int fail(char *err, size_t errlen, const char *path, const char *what, const char *why)
{
    char p[300];
    textfile_escape(path, p, sizeof p);
    snprintf(err, errlen, "%s: %s%s%s", p, what, why ? ": " : "", why ? why : "");
    return 2;
}

int textfile_read(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    char *buf = NULL, what[96];
    size_t n = 0, cap;
    int fd = open(path, O_RDONLY | O_NONBLOCK), rc = 2, e;
    *out = NULL, *len = 0;
    if (fd < 0) return e = errno, fail(err, errlen, path, "cannot open", strerror(e)), errno = e, 2;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        fail(err, errlen, path, "not a regular file (a FIFO, a device or a folder?); expected a text file", NULL);
        goto out;
    }
    snprintf(what, sizeof what, "larger than %zu bytes; expected a text file", TEXTFILE_MAX_BYTES);
    if ((size_t)st.st_size > TEXTFILE_MAX_BYTES) { fail(err, errlen, path, what, NULL); goto out; }
    cap = (size_t)st.st_size + 2; /* room to see the end; a file that grows while read is bounded again */
    for (;;) {
        if (n + 1 >= cap) {
            char *b = n > TEXTFILE_MAX_BYTES ? NULL : realloc(buf, cap = 2 * cap + 4096);
            if (n > TEXTFILE_MAX_BYTES) { fail(err, errlen, path, what, NULL); goto out; }
            if (!b) { snprintf(err, errlen, "out of memory"); rc = 1; goto out; }
            buf = b;
        } else if (!buf && !(buf = malloc(cap))) {
            snprintf(err, errlen, "out of memory");
            rc = 1;
            goto out;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) { fail(err, errlen, path, "read error", strerror(errno)); goto out; }
        if (k == 0) break;
        n += (size_t)k;
    }
    if (n > TEXTFILE_MAX_BYTES) { fail(err, errlen, path, what, NULL); goto out; }
    buf[n] = '\0';
    *out = buf, *len = n;
    buf = NULL;
    rc = 0;
out:
    close(fd);
    free(buf);
    return rc;
}
