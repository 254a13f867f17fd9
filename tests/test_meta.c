/* test_meta.c — the provenance lines of results files (harness/common/meta.c): command quoting, control
 * characters, host lists, truncation, and the `# key: value` format of meta_write. No MPI needed. */
#include "meta.h"
#include "test.h"

#include <string.h>

static int all_lines_are_comments(const char *buf)
{
    for (const char *p = buf; *p; p = strchr(p, '\n') + 1) {
        if (strncmp(p, "# ", 2) || !strchr(p, ':') || !strchr(p, '\n')) return 0;
    }
    return 1;
}

int main(void)
{
    char out[256];
    char *a1[] = { "train", "--model", "resnet50", "--csv", "out dir/x.csv", "-a", "ring,ddl" };
    meta_join_command(7, a1, out, sizeof out);
    CHECK(!strcmp(out, "train --model resnet50 --csv 'out dir/x.csv' -a ring,ddl"), "join: got \"%s\"", out);
    char *a2[] = { "it's", "" };
    meta_join_command(2, a2, out, sizeof out);
    CHECK(!strcmp(out, "'it'\\''s' ''"), "quote: got \"%s\"", out);
    char *a3[] = { "a\nb" };
    meta_join_command(1, a3, out, sizeof out);
    CHECK(!strchr(out, '\n'), "newline kept in \"%s\"", out);
    char small[12];
    char *a4[] = { "abcdef", "ghijkl", "mnopqr" };
    meta_join_command(3, a4, small, sizeof small);
    CHECK(strlen(small) < sizeof small && strstr(small, "..."), "truncation: got \"%s\"", small);
    meta_join_command(0, a4, out, sizeof out);
    CHECK(!strcmp(out, ""), "empty: got \"%s\"", out);

    meta_clean("  Intel(R)\tXeon\n ", out, sizeof out);
    CHECK(!strcmp(out, "Intel(R) Xeon"), "clean: got \"%s\"", out);
    meta_clean("", out, sizeof out);
    CHECK(!strcmp(out, ""), "clean empty: got \"%s\"", out);

    char names[5][16] = { "n1", "n2", "n1", "n3", "n2" };
    meta_hosts_list(&names[0][0], 5, 16, out, sizeof out);
    CHECK(!strcmp(out, "3 hosts: n1,n2,n3"), "hosts: got \"%s\"", out);
    meta_hosts_list(&names[0][0], 1, 16, out, sizeof out);
    CHECK(!strcmp(out, "1 host: n1"), "one host: got \"%s\"", out);
    meta_hosts_list(&names[0][0], 5, 16, small, sizeof small);
    CHECK(strlen(small) + 1 == sizeof small && !strcmp(small + sizeof small - 4, "..."), "hosts trunc: \"%s\"", small);
    meta_placement(&names[0][0], 5, 16, out, sizeof out);
    CHECK(!strcmp(out, "3 hosts x 1-2 ranks"), "placement uneven: got \"%s\"", out);
    meta_placement(&names[0][0], 3, 16, out, sizeof out);
    CHECK(!strcmp(out, "2 hosts x 1-2 ranks"), "placement n1,n2,n1: got \"%s\"", out);
    char even[4][16] = { "a", "b", "a", "b" };
    meta_placement(&even[0][0], 4, 16, out, sizeof out);
    CHECK(!strcmp(out, "2 hosts x 2 ranks"), "placement even: got \"%s\"", out);
    meta_placement(&even[0][0], 1, 16, out, sizeof out);
    CHECK(!strcmp(out, "1 host x 1 rank"), "placement one: got \"%s\"", out);

    run_meta m;
    memset(&m, 0, sizeof m);
    strcpy(m.commit, "abc1234");
    strcpy(m.mpi, "Open MPI v4.1.4");
    strcpy(m.command, "ddlbench train");
    meta_add(&m, "profile", "p100\n(injected)");
    meta_add(&m, "counters", "unavailable");
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL, "fmemopen");
    if (f) {
        meta_write(f, &m);
        fclose(f);
    }
    CHECK(all_lines_are_comments(buf), "meta_write: every line \"# key: value\"; got\n%s", buf);
    CHECK(strstr(buf, "# commit: abc1234\n") && strstr(buf, "# mpi: Open MPI v4.1.4\n"), "fields: got\n%s", buf);
    CHECK(strstr(buf, "# profile: p100 (injected)\n") && strstr(buf, "# counters: unavailable\n"), "extra: got\n%s",
          buf);
    for (int i = 0; i < 40; i++) meta_add(&m, "filler", "0123456789012345678901234567890123456789");
    CHECK(strlen(m.extra) < sizeof m.extra && m.extra[strlen(m.extra) - 1] == '\n', "extra overflow kept whole lines");
    return TEST_REPORT();
}
