/* compute_host.c — real CPU backend of compute.h: the work is done when the call returns. */
#include "compute.h"

void kern_compute_begin(void) {}
void kern_compute_issue(double seconds) { (void)seconds; }
double kern_compute_mark(void) { return -1.0; }
void kern_compute_wait_until(double t) { (void)t; }
int kern_simulated(void) { return 0; }
