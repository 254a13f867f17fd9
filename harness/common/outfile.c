/* outfile.c — output paths checked before the work, and files written whole (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define MAX_LINKS 40

/* 1 if p lies on a kernel interface filesystem (procfs, sysfs, cgroup, debugfs, tracefs, securityfs),
 * where a results file makes no sense and root's writes would reach the kernel. */
static int kernel_fs(const char *p)
{
    static const unsigned long magic[] = { 0x9fa0, 0x62656572, 0x27e0eb, 0x63677270, 0x64626720, 0x74726163,
                                           0x73636673 };
    struct statfs sf;
    if (statfs(p, &sf) != 0) return 0;
    for (size_t i = 0; i < sizeof magic / sizeof magic[0]; i++)
        if ((unsigned long)sf.f_type == magic[i]) return 1;
    return 0;
}

/* 0 if a file can be created in dir (created and removed at once: access() says yes to root on an
 * immutable folder or a full quota); -1 with errno. */
static int probe(const char *dir)
{
    char name[4200];
    snprintf(name, sizeof name, "%s/.ddlbench-probe-XXXXXX", dir);
    int fd = mkstemp(name);
    if (fd < 0) return -1;
    close(fd);
    unlink(name);
    return 0;
}

/* The directory part of path ("." when none, "/" for "/name"). */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, len, ".");
    else if (slash == path) snprintf(dir, len, "/");
    else snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Follows the symbolic links of path's last component: final = the name to write, *exists and *st
 * what is there; *magic = a link of /proc was crossed (/dev/stdout -> /proc/self/fd/1: its "target"
 * is an open file of this process, not a name to write). 0, or 2 with why. */
static int resolve(const char *path, char *final, size_t len, struct stat *st, int *exists, int *magic, char *why,
                   size_t wl)
{
    char cur[4096], target[4096], dir[4096];
    *magic = 0;
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) return snprintf(why, wl, "path too long"), 2;
    for (int hop = 0; hop <= MAX_LINKS; hop++) {
        if (lstat(cur, st) != 0) {
            if (errno != ENOENT) return snprintf(why, wl, "%s", strerror(errno)), 2;
            *exists = 0;
            return snprintf(final, len, "%s", cur) >= (int)len ? (snprintf(why, wl, "path too long"), 2) : 0;
        }
        if (!S_ISLNK(st->st_mode)) {
            *exists = 1;
            return snprintf(final, len, "%s", cur) >= (int)len ? (snprintf(why, wl, "path too long"), 2) : 0;
        }
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) return snprintf(why, wl, "%s", strerror(errno)), 2;
        target[n] = '\0';
        dir_of(cur, dir, sizeof dir);
        if (kernel_fs(dir)) { /* a magic link: what it names is only reachable through it */
            *magic = 1;
            *exists = stat(path, st) == 0;
            return *exists ? (snprintf(final, len, "%s", path), 0) : (snprintf(why, wl, "%s", strerror(errno)), 2);
        }
        if (target[0] == '/') snprintf(cur, sizeof cur, "%s", target);
        else if (snprintf(cur, sizeof cur, "%s/%s", dir, target) >= (int)sizeof cur)
            return snprintf(why, wl, "path too long"), 2;
    }
    return snprintf(why, wl, "more than %d symbolic links", MAX_LINKS), 2;
}

/* The checks of outfile.h. 0 ok; 2 with why. final: the path to write; *direct: write through. */
static int examine(const char *path, char *final, size_t len, int *direct, struct stat *st, char *why, size_t wl)
{
    char dir[4096], tmp[4200];
    int exists, magic;
    *direct = 0;
    if (!path || !*path || path[strlen(path) - 1] == '/') return snprintf(why, wl, "expected a file name"), 2;
    if (resolve(path, final, len, st, &exists, &magic, why, wl)) return 2;
    if (!exists) memset(st, 0, sizeof *st);
    if (magic && S_ISREG(st->st_mode) && !kernel_fs(path)) { /* e.g. /dev/stdout redirected to a file: appended */
        *direct = 1;
        return access(path, W_OK) ? (snprintf(why, wl, "not writable (%s)", strerror(errno)), 2) : 0;
    }
    if (exists) {
        if (S_ISDIR(st->st_mode)) return snprintf(why, wl, "is a directory; expected a file name"), 2;
        if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode)) {
            *direct = 1;
            return access(final, W_OK) ? (snprintf(why, wl, "not writable (%s)", strerror(errno)), 2) : 0;
        }
        if (!S_ISREG(st->st_mode))
            return snprintf(why, wl, "is a %s; expected a regular file, a FIFO or a character device",
                            S_ISBLK(st->st_mode) ? "block device" : "socket"), 2;
        if (kernel_fs(final))
            return snprintf(why, wl, "is a kernel interface file (/proc, /sys); expected a results file"), 2;
        if (access(final, W_OK)) return snprintf(why, wl, "not writable (%s)", strerror(errno)), 2;
    }
    dir_of(final, dir, sizeof dir);
    struct stat ds;
    if (stat(dir, &ds) != 0) return snprintf(why, wl, "directory %.200s: %s", dir, strerror(errno)), 2;
    if (!S_ISDIR(ds.st_mode)) return snprintf(why, wl, "%.200s is not a directory", dir), 2;
    if (kernel_fs(dir))
        return snprintf(why, wl, "directory %.200s is a kernel interface (/proc, /sys); expected a results directory",
                        dir),
               2;
    if (access(dir, W_OK | X_OK))
        return snprintf(why, wl, "directory %.200s: not writable (%s)", dir, strerror(errno)), 2;
    if (probe(dir)) return snprintf(why, wl, "directory %.200s: cannot create files (%s)", dir, strerror(errno)), 2;
    snprintf(tmp, sizeof tmp, "%s.tmp", final);
    if (lstat(tmp, &ds) == 0 && !S_ISREG(ds.st_mode))
        return snprintf(why, wl, "%.200s.tmp exists and is not a regular file; expected it free for writing", final), 2;
    return 0;
}

/* The results files this process's outfile_check accepted: a directory and a name in it, so that a
 * second option naming the same file (--csv x --json x, or x and ./x) is refused, not overwritten. */
static struct claim { char opt[32]; dev_t dev; ino_t ino; char base[256]; } claims[32];
static int nclaims;

/* 0 and path claimed for opt; 2 with why if another option already claimed the same file. */
static int claim(const char *opt, const char *final, char *why, size_t wl)
{
    char dir[4096];
    struct stat ds;
    const char *slash = strrchr(final, '/'), *base = slash ? slash + 1 : final;
    dir_of(final, dir, sizeof dir);
    if (stat(dir, &ds) != 0 || strlen(base) >= sizeof claims[0].base) return 0; /* examine said why already */
    for (int i = 0; i < nclaims; i++)
        if (claims[i].dev == ds.st_dev && claims[i].ino == ds.st_ino && !strcmp(claims[i].base, base))
            return snprintf(why, wl, "the same file as %s's; expected a file of its own", claims[i].opt), 2;
    if (nclaims == (int)(sizeof claims / sizeof claims[0])) return 0;
    struct claim *c = &claims[nclaims++];
    snprintf(c->opt, sizeof c->opt, "%s", opt);
    snprintf(c->base, sizeof c->base, "%s", base);
    c->dev = ds.st_dev, c->ino = ds.st_ino;
    return 0;
}

void outfile_unclaim_all(void) { nclaims = 0; }

int outfile_check(const char *opt, const char *path, char *err, size_t errlen)
{
    char final[4096], why[512];
    struct stat st;
    int direct;
    if (!examine(path, final, sizeof final, &direct, &st, why, sizeof why) &&
        (direct || !claim(opt, final, why, sizeof why)))
        return 0;
    snprintf(err, errlen, "%s: \"%.200s\": %s", opt, path ? path : "", why);
    return 2;
}

int outfile_check_dir(const char *opt, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    const char *why = NULL;
    int sys = 0;
    if (!dir || !*dir) why = "expected a directory name";
    else if (stat(dir, &st) != 0) why = strerror(errno), sys = 1;
    else if (!S_ISDIR(st.st_mode)) why = "not a directory; expected a directory";
    else if (kernel_fs(dir)) why = "a kernel interface (/proc, /sys); expected a results directory";
    else if (access(dir, W_OK | X_OK) || probe(dir)) why = strerror(errno), sys = 1;
    if (!why) return 0;
    snprintf(err, errlen, "%s: \"%.200s\": %s%s", opt, dir ? dir : "", why,
             sys ? "; expected an existing writable directory" : "");
    return 2;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    char why[512];
    struct stat st;
    int direct, fd;
    memset(o, 0, sizeof *o);
    if (examine(path, o->path, sizeof o->path, &direct, &st, why, sizeof why)) {
        snprintf(err, errlen, "cannot write \"%.200s\": %s", path ? path : "", why);
        return 1;
    }
    if (direct) { /* written through, appended; O_NONBLOCK so a FIFO without a reader fails, not hangs */
        fd = open(o->path, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    } else {
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp", o->path);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 && st.st_mode && S_ISREG(st.st_mode)) (void)fchmod(fd, st.st_mode & 07777);
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "cannot write \"%.200s\": %s", direct ? o->path : o->tmp,
                 direct && errno == ENXIO && S_ISFIFO(st.st_mode) ? "a FIFO with no reader" : strerror(errno));
        if (fd >= 0) close(fd);
        if (!direct) unlink(o->tmp);
        o->tmp[0] = '\0';
        return 1;
    }
    return 0;
}

int outfile_close(outfile *o, char *err, size_t errlen)
{
    if (!o->f) return 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (!bad) return 0;
    snprintf(err, errlen, "writing \"%.200s\" failed: %s", o->path, strerror(e ? e : errno));
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
    return 1;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    if (o->f && outfile_close(o, err, errlen)) return 1;
    if (!o->tmp[0]) return 0;
    if (rename(o->tmp, o->path) != 0) {
        snprintf(err, errlen, "cannot rename \"%.200s\" onto \"%.200s\": %s", o->tmp, o->path, strerror(errno));
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return 1;
    }
    o->tmp[0] = '\0';
    return 0;
}

void outfile_discard(outfile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
}
