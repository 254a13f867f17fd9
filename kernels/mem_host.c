/* mem_host.c — real backend of mem.h: 64-byte aligned host memory (whole vectors, no false sharing). */
#include "mem.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void *kern_buf_alloc(size_t bytes)
{
    void *p = NULL;
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes) return NULL;
    if (posix_memalign(&p, 64, rounded ? rounded : 64)) return NULL;
    return p;
}

void kern_buf_free(void *p) { free(p); }

void *kern_operand_alloc(size_t bytes) { return kern_buf_alloc(bytes); }

void kern_operand_free(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
}

void kern_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
void kern_landed(size_t bytes) { (void)bytes; }
void kern_posted(void) {}
void kern_fresh_pages(size_t bytes) { (void)bytes; }
void kern_whole_message(size_t bytes) { (void)bytes; }
int kern_moves_posted(void) { return 0; }

void kern_poll_pause(long us)
{
    struct timespec pause = { us / 1000000, 1000L * (us % 1000000) };
    nanosleep(&pause, NULL);
}
