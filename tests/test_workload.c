/* test_workload.c — the study workloads and the time-to-train projection (harness/train/workload.c):
 * the sourced figures (ImageNet-1K's 1,281,167 images, 90 epochs, 50 min and 7 h on 256 GPUs), the
 * arithmetic, and the formatting. No MPI needed. */
#include "workload.h"
#include "test.h"

#include <math.h>
#include <string.h>

int main(void)
{
    const workload *w50 = workload_of("resnet50"), *w22 = workload_of("resnet101-22k");
    CHECK(w50 && w50->images == 1281167 && w50->epochs == 90 && !strcmp(w50->dataset, "ImageNet-1K"), "resnet50");
    CHECK(w50 && fabs(w50->study_hours * 60 - 50) < 1e-9 && w50->study_gpus == 256, "study: 50 min on 256 GPUs");
    CHECK(w22 && !strcmp(w22->dataset, "ImageNet-22K") && w22->images == 7500000 && w22->study_hours == 7, "22K");
    CHECK(w22 && strstr(w22->epochs_note, "assumption"), "22K epochs marked as an assumption");
    CHECK(workload_of("resnet101") && !workload_of("vgg16") && !workload_of(NULL), "lookup");
    /* 90 x 1,281,167 images at 38,438.1 images/s = 2999.9 s */
    double h = workload_hours(w50, 90.0 * 1281167 / 3000);
    CHECK(fabs(h - 3000.0 / 3600) < 1e-12, "hours: %g", h);
    CHECK(workload_hours(w50, 0) < 0 && workload_hours(NULL, 1) < 0, "no rate, no workload");
    char s[32];
    workload_fmt_time(50.0 / 60, s, sizeof s);
    CHECK(!strcmp(s, "50 min"), "%s", s);
    workload_fmt_time(7, s, sizeof s);
    CHECK(!strcmp(s, "7.0 h"), "%s", s);
    workload_fmt_time(72, s, sizeof s);
    CHECK(!strcmp(s, "3.0 d"), "%s", s);
    workload_fmt_time(-1, s, sizeof s);
    CHECK(!strcmp(s, "NA"), "%s", s);
    return TEST_REPORT();
}
