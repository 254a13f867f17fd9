/* tree.c — a path of the source tree from any working directory (tree.h). */
#include "tree.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tree_path(const char *rel, char *buf, size_t len)
{
    static const char *const up[] = { "..", "../.." };
    struct stat st;
    char exe[4096];
    if (stat(rel, &st) == 0) return rel;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash) return rel;
    *slash = '\0';
    for (size_t i = 0; i < sizeof up / sizeof up[0]; i++)
        if (snprintf(buf, len, "%s/%s/%s", exe, up[i], rel) < (int)len && stat(buf, &st) == 0) return buf;
    return rel;
}
