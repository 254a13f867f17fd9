/* compute_host.c — real CPU backend of compute.h: the work is done when the call returns. */
#include "compute.h"

void kern_compute_begin(void) {}
void kern_compute_issue(double seconds) { (void)seconds; }
void kern_compute_fence(void) {}
