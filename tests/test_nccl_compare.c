/* test_nccl_compare.c — nccl_compare.c: the goals' tolerances, the error, the tally, the model's
 * prediction on one node, and a simulated CSV read point by point (its sizes simulated, the rest the
 * model's; a row of another rank count refused with the file and line). */
#include "nccl_compare.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ENTRY "name = t\nmachine = dgxa100\nnodes = 1\nnccl = x\npublished_algo = Ring\nalgo = nccl-ring\n" \
              "kind = user\nrole = prediction\nsource = s\npoint = 1048576 30\npoint = 67108864 200\n" \
              "point = 1073741824 230\n"

static int put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

int main(void)
{
    nccl_entry e;
    ncmp_run r;
    char err[600] = "", dir[] = "/tmp/ncmp_testXXXXXX", path[100];
    CHECK(ncmp_tol(1e6) == 0 && ncmp_tol(1 << 20) == 0.15 && ncmp_tol(64 << 20) == 0.10, "tolerances by size");
    CHECK(fabs(ncmp_err(110, 100) - 0.10) < 1e-12 && ncmp_err(90, 100) < 0, "err = predicted / published - 1");
    CHECK(nccl_cat_parse(ENTRY, strlen(ENTRY), "t.nccl", &e, err, sizeof err) == 0, "entry: %s", err);
    CHECK(ncmp_setup(&e, 0, &r, err, sizeof err) == 0 && r.first == 0 && platform_ranks(&r.pf) == 8 &&
          !strcmp(r.key, "dgxa100-1n-nccl-ring"), "setup: %s, key %s", err, r.key);
    CHECK(ncmp_setup(&e, 2e6, &r, err, sizeof err) == 0 && r.first == 1, "--min-bytes skips the 1 MiB point");
    CHECK(ncmp_setup(&e, 2e9, &r, err, sizeof err) == 2 && strstr(err, "--min-bytes"), "no point left: %s", err);
    CHECK(ncmp_setup(&e, 0, &r, err, sizeof err) == 0 && ncmp_from_model(&r, err, sizeof err) == 0, "%s", err);
    /* one node of A100 at 1 GiB: the ring's busbw approaches the achieved NVLink rate (240) from below */
    CHECK(r.pred[2] > 200 && r.pred[2] < 240 && r.pred[0] < r.pred[1] && r.pred[1] < r.pred[2] && r.from[2] == 'm',
          "model: %g %g %g", r.pred[0], r.pred[1], r.pred[2]);

    int goal[2], met[2];
    r.pred[0] = 30 * 1.2, r.pred[1] = 200 * 1.05, r.pred[2] = 230 * 0.86; /* 20%, 5%, -14% */
    ncmp_tally(&r, 1, goal, met);
    CHECK(goal[0] == 3 && met[0] == 2 && goal[1] == 2 && met[1] == 1, "tally: %d/%d, %d/%d", met[0], goal[0], met[1],
          goal[1]);
    strcpy(e.role, "input");
    ncmp_tally(&r, 1, goal, met);
    CHECK(goal[0] == 0 && goal[1] == 0, "an input entry is never scored");
    strcpy(e.role, "prediction");

    /* simulated: 1 MiB and 64 MiB in the CSV (64 MiB at 1000 us: busbw 67108864 / 1e-3 x 14/8 / 1e9) */
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/dgxa100-1n-nccl-ring.csv", dir);
    put(path, "# commit: x\nsize_B,algo,placement,ranks,time_us_median\n1048576,nccl-ring,in,8,50\n"
              "1048576,nccl-ring,out,8,1\n67108864,nccl-ring,in,8,1000\n67108864,ring,in,8,1\n");
    CHECK(ncmp_from_sim(&r, dir, err, sizeof err) == 0, "sim: %s", err);
    CHECK(r.from[0] == 's' && r.from[1] == 's' && r.from[2] == 'm', "by: %c %c %c", r.from[0], r.from[1], r.from[2]);
    CHECK(fabs(r.pred[1] - 67108864 / 1e-3 * 14 / 8 / 1e9) < 1e-6, "busbw from the in-place nccl-ring row: %g",
          r.pred[1]);
    put(path, "size_B,algo,placement,ranks,time_us_median\n1048576,nccl-ring,in,16,50\n");
    CHECK(ncmp_from_sim(&r, dir, err, sizeof err) == 2 && strstr(err, ".csv:2:") && strstr(err, "ranks 8"),
          "another rank count refused: %s", err);
    put(path, "size_B,algo,ranks\n1,nccl-ring,8\n");
    CHECK(ncmp_from_sim(&r, dir, err, sizeof err) == 2 && strstr(err, "no column placement"), "%s", err);
    unlink(path);
    CHECK(ncmp_from_sim(&r, dir, err, sizeof err) == 0 && r.from[0] == 'm', "no CSV: the model's");
    rmdir(dir);
    return TEST_REPORT();
}
