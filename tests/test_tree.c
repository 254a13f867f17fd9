/* test_tree.c — tree_path: a path of the tree from the root as given, from elsewhere through the
 * executable's tree (build/tests/test_tree: two folders below the root), a missing one unchanged. */
#include "tree.h"
#include "test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int main(void)
{
    char buf[4200], root[4096];
    struct stat st;
    CHECK(getcwd(root, sizeof root) != NULL && stat("harness/sim/profiles", &st) == 0, "run from the tree's root");
    CHECK(!strcmp(tree_path("harness/sim/profiles", buf, sizeof buf), "harness/sim/profiles"),
          "from the root: as given");
    CHECK(chdir("/") == 0, "cd /");
    const char *p = tree_path("harness/sim/profiles", buf, sizeof buf);
    CHECK(p == buf && chdir(root) == 0 && same_file(p, "harness/sim/profiles"), "from /: the executable's tree (%s)",
          p);
    CHECK(chdir("/") == 0, "cd / again");
    CHECK(!strcmp(tree_path("harness/no/such", buf, sizeof buf), "harness/no/such"), "missing: unchanged");
    CHECK(chdir(root) == 0, "cd back");
    return TEST_REPORT();
}
