/* test_textfile.c — the one bounded file reader (harness/common/textfile.c) and the one key = value
 * grammar (harness/common/kv.c): a file read whole, an empty one, a missing one (errno ENOENT), a
 * FIFO and a folder refused without blocking, a file over the cap refused (sparse: no disk used), a
 * CR in a path escaped in the message; blank and comment lines, spaces and tabs, CRLF, a last line
 * without LF, a one-word value with a trailing comment, a text value keeping its '#', and the lines
 * that are not key = value. No MPI. */
#include "kv.h"
#include "textfile.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_read(const char *dir)
{
    char path[256], err[400], *buf = NULL;
    size_t len = 99;
    snprintf(path, sizeof path, "%s/a.txt", dir);
    FILE *f = fopen(path, "wb");
    if (f) fputs("x = 1\n", f), fclose(f);
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 0 && len == 6 && !strcmp(buf, "x = 1\n"),
          "read: %s", err);
    free(buf), buf = NULL;
    snprintf(path, sizeof path, "%s/empty", dir);
    if ((f = fopen(path, "wb"))) fclose(f);
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 0 && len == 0 && buf && !*buf, "empty: %s", err);
    free(buf), buf = NULL;
    snprintf(path, sizeof path, "%s/none", dir);
    errno = 0;
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 2 && errno == ENOENT &&
          strstr(err, "none: cannot open: ") && !buf, "missing: %s", err);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo");
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 2 && strstr(err, "not a regular file") && !buf,
          "a FIFO (no writer: would block): %s", err);
    CHECK(textfile_read(dir, &buf, &len, err, sizeof err) == 2 && strstr(err, "not a regular file"),
          "a folder: %s", err);
    snprintf(path, sizeof path, "%s/big", dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)TEXTFILE_MAX_BYTES + 1) == 0, "a sparse file over the cap");
    if (fd >= 0) close(fd);
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 2 && strstr(err, "larger than 268435456 bytes") && !buf,
          "over the cap: %s", err);
    snprintf(path, sizeof path, "%s/cr\rname", dir);
    CHECK(textfile_read(path, &buf, &len, err, sizeof err) == 2 && strstr(err, "cr\\rname: cannot open") &&
          !strchr(err, '\r') && !strchr(err, '\n'), "a CR in the path escaped: %s", err);
    char esc[64];
    textfile_escape("a\nb\t\\\x01", esc, sizeof esc);
    CHECK(!strcmp(esc, "a\\nb\\t\\\\\\x01"), "escape: %s", esc);
    textfile_escape("abcdef", esc, 4);
    CHECK(strlen(esc) < 4, "escape cut to the buffer");
}

static int next(kv_reader *r, char **k, char **v, char *err) { return kv_next(r, k, v, err, 200); }

static void check_kv(void)
{
    const char *t = "# head\n\n  name = dgx  # a comment\r\n\tbw=25e9\nsource = PR #63, 2017  \n   # indented\n"
                    "last = x";
    kv_reader r;
    char *k, *v, err[200] = "";
    kv_start(&r, t, strlen(t));
    CHECK(next(&r, &k, &v, err) == 1 && !strcmp(k, "name") && r.lineno == 3 &&
          kv_word(v, err, sizeof err) == 0 && !strcmp(v, "dgx"), "a word and a trailing comment, CRLF");
    CHECK(next(&r, &k, &v, err) == 1 && !strcmp(k, "bw") && !strcmp(v, "25e9") && r.lineno == 4, "tab, no spaces");
    CHECK(next(&r, &k, &v, err) == 1 && !strcmp(v, "PR #63, 2017"), "a text value keeps its #: [%s]", v);
    char two[] = "a b", hash[] = "PR #63";
    CHECK(kv_word(two, err, sizeof err) == 2 && strstr(err, "one value"), "two words are not one value");
    CHECK(kv_word(hash, err, sizeof err) == 0 && !strcmp(hash, "PR"), "as one word, a # starts a comment");
    CHECK(next(&r, &k, &v, err) == 1 && !strcmp(k, "last") && !strcmp(v, "x") && r.lineno == 7, "no last LF");
    CHECK(next(&r, &k, &v, err) == 0, "the end");
    static const char *const bad[] = { "novalue\n", "= 3\n", "a b = 1\n", "x = \001\n", "x = a\0b\n" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kv_start(&r, bad[i], i == 4 ? 8 : strlen(bad[i]));
        CHECK(next(&r, &k, &v, err) == 2 && r.lineno == 1 && *err, "bad %zu: %s", i, err);
    }
    char lng[KV_LINE_MAX + 20];
    memset(lng, 'x', sizeof lng);
    memcpy(lng, "k = ", 4);
    kv_start(&r, lng, sizeof lng);
    CHECK(next(&r, &k, &v, err) == 2 && strstr(err, "longer than 1000"), "a long line: %s", err);
    char empty[] = "";
    CHECK(kv_word(empty, err, sizeof err) == 0 && !*empty, "an empty value is a word (the key decides)");
}

int main(void)
{
    char dir[] = "/tmp/ddl_textfile_XXXXXX";
    if (!mkdtemp(dir)) return fprintf(stderr, "mkdtemp failed\n"), 1;
    check_read(dir);
    check_kv();
    static const char *const names[] = { "a.txt", "empty", "fifo", "big" };
    char path[256];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        snprintf(path, sizeof path, "%s/%s", dir, names[i]), unlink(path);
    rmdir(dir);
    return TEST_REPORT();
}
