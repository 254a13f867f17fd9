/* test_outfile.c — output paths (harness/common/outfile.h): what is refused before the work, what is
 * written through, that links are followed and never replaced, and that no partial file is left. */
#define _DEFAULT_SOURCE /* mknod, makedev */
#include "outfile.h"
#include "test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char dir[64] = "/tmp/test_outfile_XXXXXX";

static const char *at(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Writes text to path through outfile; returns outfile_commit's status (or 1 if open failed). */
static int write_text(const char *path, const char *text)
{
    outfile f;
    char err[600];
    if (outfile_open(&f, path, err, sizeof err)) return 1;
    fputs(text, f.f);
    return outfile_commit(&f, err, sizeof err);
}

static int file_is(const char *path, const char *want)
{
    char got[256] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f) fclose(f);
    got[n] = '\0';
    return f && !strcmp(got, want);
}

static int exists(const char *path) { struct stat st; return lstat(path, &st) == 0; }

static void test_refused(void)
{
    char err[600];
    mkdir(at("sub"), 0755);
    mkdir(at("busy.csv.tmp"), 0755);
    const char *bad[] = { "", "/", at("sub"), at("sub/"), at("missing/x.csv"), at("busy.csv"), "/proc/ddl_test.csv",
                          "/proc/self/status", "/sys/ddl_test.csv", "/proc", at("loop") };
    symlink("loop", at("loop"));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(outfile_check("--csv", bad[i], err, sizeof err) == 2 && !strncmp(err, "--csv: ", 7) && !strchr(err, '\n'),
              "\"%s\" must be refused with one line naming --csv: %s", bad[i], err);
    }
    CHECK(outfile_check("--csv", NULL, err, sizeof err) == 2, "NULL refused");
    CHECK(outfile_check("-o", at("sub"), err, sizeof err) == 2 && strstr(err, "directory"), "a directory: %s", err);
    CHECK(outfile_check_dir("-o", at("sub"), err, sizeof err) == 0, "a directory is a directory");
    CHECK(outfile_check_dir("-o", at("nosuch"), err, sizeof err) == 2, "missing directory");
    CHECK(outfile_check_dir("-o", "/proc/self", err, sizeof err) == 2, "/proc refused as a directory");
    CHECK(outfile_check_dir("-o", "/dev/null", err, sizeof err) == 2, "a device is no directory");
    outfile f;
    CHECK(outfile_open(&f, at("sub"), err, sizeof err) == 1 && !exists(at("sub.tmp")), "open refuses a directory");
}

static void test_regular(void)
{
    char err[600];
    const char *p = at("a.csv");
    CHECK(outfile_check("--csv", p, err, sizeof err) == 0, "a new file: %s", err);
    CHECK(write_text(p, "one\n") == 0 && file_is(p, "one\n") && !exists(at("a.csv.tmp")), "written whole, no .tmp");
    chmod(p, 0640);
    CHECK(write_text(p, "two\n") == 0 && file_is(p, "two\n"), "an existing file replaced");
    struct stat st;
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640, "its permission bits kept (%o)", st.st_mode & 0777);

    outfile f; /* a failure after the work: nothing new under either name */
    CHECK(outfile_open(&f, at("b.csv"), err, sizeof err) == 0, "open b: %s", err);
    fputs("partial", f.f);
    outfile_discard(&f);
    CHECK(!exists(at("b.csv")) && !exists(at("b.csv.tmp")), "discard leaves nothing");
    CHECK(outfile_open(&f, at("c.csv"), err, sizeof err) == 0, "open c: %s", err);
    mkdir(at("c.csv"), 0755); /* the target became a directory meanwhile: rename fails */
    CHECK(outfile_commit(&f, err, sizeof err) == 1 && !exists(at("c.csv.tmp")), "failed commit removes the .tmp");
    rmdir(at("c.csv"));
}

static void test_links(void)
{
    char err[600], target[256];
    struct stat st;
    symlink("real.csv", at("link.csv"));
    CHECK(write_text(at("link.csv"), "via link\n") == 0, "write through a link");
    CHECK(lstat(at("link.csv"), &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
    CHECK(file_is(at("real.csv"), "via link\n"), "its target holds the data");
    ssize_t n = readlink(at("link.csv"), target, sizeof target - 1);
    CHECK(n == 8 && !strncmp(target, "real.csv", 8), "the link unchanged");
    symlink("link.csv", at("link2.csv")); /* a chain, and a dangling link that creates its target */
    CHECK(write_text(at("link2.csv"), "chain\n") == 0 && file_is(at("real.csv"), "chain\n"), "a chain of links");
    symlink("sub/new.csv", at("dangling.csv"));
    CHECK(write_text(at("dangling.csv"), "new\n") == 0 && file_is(at("sub/new.csv"), "new\n") &&
              lstat(at("dangling.csv"), &st) == 0 && S_ISLNK(st.st_mode), "a dangling link creates its target");
    symlink("sub", at("dirlink"));
    CHECK(outfile_check("--csv", at("dirlink"), err, sizeof err) == 2, "a link to a directory refused");
}

static void test_through(void)
{
    char err[600], buf[64] = "";
    struct stat st;
    const char *fifo = at("fifo");
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
    CHECK(outfile_check("--csv", fifo, err, sizeof err) == 0, "a FIFO accepted: %s", err);
    CHECK(write_text(fifo, "x\n") == 1 && stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
          "no reader: an error, not a hang");
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);
    CHECK(rd >= 0 && write_text(fifo, "through\n") == 0, "a FIFO with a reader written through");
    CHECK(rd >= 0 && read(rd, buf, sizeof buf - 1) == 8 && !strncmp(buf, "through\n", 8), "the reader got it");
    CHECK(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode) && !exists(at("fifo.tmp")), "the FIFO is still a FIFO");
    if (rd >= 0) close(rd);
    /* a character device: our own node of /dev/null's numbers (root only), never the shared /dev/null */
    const char *dev = at("null");
    if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        CHECK(outfile_check("--csv", dev, err, sizeof err) == 0 && write_text(dev, "gone\n") == 0, "a device written");
        CHECK(stat(dev, &st) == 0 && S_ISCHR(st.st_mode), "the device is still a device");
        unlink(dev);
    } else {
        printf("# mknod not permitted: character device case skipped\n");
    }
}

/* Two outputs never share a file: the same name again, spelt otherwise or through a link, is refused
 * and names the option that holds it; devices are written through and may be shared. */
static void test_claims(void)
{
    char err[600], other[300];
    outfile_unclaim_all();
    CHECK(outfile_check("--csv", at("same.csv"), err, sizeof err) == 0, "first claim: %s", err);
    CHECK(outfile_check("--json", at("same.csv"), err, sizeof err) == 2 && strstr(err, "--json: ") == err &&
              strstr(err, "same file as --csv"), "the same path refused: %s", err);
    snprintf(other, sizeof other, "%s/sub/../same.csv", dir);
    CHECK(outfile_check("--json", other, err, sizeof err) == 2, "the same file spelt otherwise refused");
    symlink("same.csv", at("same-link.csv"));
    CHECK(outfile_check("-o", at("same-link.csv"), err, sizeof err) == 2, "a link to a claimed file refused");
    CHECK(outfile_check("--json", at("other.json"), err, sizeof err) == 0, "another file accepted: %s", err);
    CHECK(outfile_check("--csv", "/dev/null", err, sizeof err) == 0 &&
              outfile_check("--json", "/dev/null", err, sizeof err) == 0, "a device shared: %s", err);
    outfile_unclaim_all();
    CHECK(outfile_check("--json", at("same.csv"), err, sizeof err) == 0, "claims forgotten: %s", err);
}

int main(void)
{
    if (!mkdtemp(dir)) return printf("0 passed, 1 failed\n"), 1;
    test_refused();
    test_regular();
    test_links();
    test_through();
    test_claims();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_REPORT();
}
