/* workload.c — the study's training runs (workload.h). Sources: docs/SOURCES.md §1 (the DDL abstract:
 * ResNet-50, 90 epochs of ImageNet-1K in 50 minutes on 256 GPUs; ResNet-101 / ImageNet-22K in about 7
 * hours on 256 GPUs; IBM's release: 7.5 million ImageNet-22K images) and §4 (ImageNet-1K's 1,281,167
 * training images). */
#include "workload.h"

#include <stdio.h>
#include <string.h>

static const workload workloads[] = {
    { "resnet50", "ImageNet-1K", 1281167, 90, "sourced: the DDL abstract", 50.0 / 60.0, 256 },
    { "resnet101", "ImageNet-1K", 1281167, 90, "assumption: the ResNet-50 schedule", 0, 0 },
    { "resnet101-22k", "ImageNet-22K", 7500000, 90, "assumption: the study states none; the ResNet-50 schedule", 7.0,
      256 },
};

const workload *workload_of(const char *model)
{
    for (size_t i = 0; model && i < sizeof workloads / sizeof workloads[0]; i++)
        if (!strcmp(model, workloads[i].model)) return &workloads[i];
    return NULL;
}

double workload_hours(const workload *w, double images_per_s)
{
    if (!w || !(images_per_s > 0)) return -1;
    return (double)w->epochs * (double)w->images / images_per_s / 3600.0;
}

void workload_fmt_time(double hours, char *out, int len)
{
    if (hours < 0) snprintf(out, (size_t)len, "NA");
    else if (hours < 1) snprintf(out, (size_t)len, "%.0f min", hours * 60);
    else if (hours < 48) snprintf(out, (size_t)len, "%.1f h", hours);
    else snprintf(out, (size_t)len, "%.1f d", hours / 24);
}
