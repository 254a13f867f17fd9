/* watchdog.c — real backend of watchdog.h: one thread sleeping on a condition variable
 * (CLOCK_MONOTONIC) until the armed deadline; fires once. */
#include "watchdog.h"
#include "parse.h"

#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    int running, stop, armed, status; /* status: the exit status when it fires (0 = 1) */
    struct timespec deadline;   /* CLOCK_MONOTONIC */
    double seconds;             /* the armed timeout, for the message */
    char prog[48];
    char desc[WATCHDOG_DESC];   /* what is armed */
    char detail[WATCHDOG_DESC]; /* the engine's current bucket */
} wd = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void fire(void)
{
    int rank = -1, init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "%s: watchdog: rank %d: %s%s%s not finished after %.0f s (--timeout); aborting the job\n",
            wd.prog, rank, wd.desc, wd.detail[0] ? " " : "", wd.detail, wd.seconds);
    fflush(stderr);
    alarm(10); /* should MPI_Abort hang, SIGALRM ends this process and the launcher the job */
    if (init && !fin) MPI_Abort(MPI_COMM_WORLD, wd.status ? wd.status : 1);
    _exit(wd.status ? wd.status : 1);
}

void watchdog_exit_status(int status) { wd.status = status; }

static void *watch(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd.lock);
    while (!wd.stop) {
        if (!wd.armed) {
            pthread_cond_wait(&wd.changed, &wd.lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (!before(&now, &wd.deadline)) fire();
        pthread_cond_timedwait(&wd.changed, &wd.lock, &wd.deadline);
    }
    pthread_mutex_unlock(&wd.lock);
    return NULL;
}

int watchdog_start(const char *prog)
{
    pthread_condattr_t ca;
    int rc = 0;
    pthread_mutex_lock(&wd.lock);
    if (wd.running) goto out;
    snprintf(wd.prog, sizeof wd.prog, "%s", prog ? prog : "ddlbench");
    wd.stop = wd.armed = 0;
    if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
        pthread_cond_init(&wd.changed, &ca)) {
        rc = -1;
        goto out;
    }
    pthread_condattr_destroy(&ca);
    if (pthread_create(&wd.thread, NULL, watch, NULL)) {
        pthread_cond_destroy(&wd.changed);
        rc = -1;
        goto out;
    }
    wd.running = 1;
out:
    pthread_mutex_unlock(&wd.lock);
    return rc;
}

void watchdog_arm(double seconds, const char *desc)
{
    struct timespec now;
    if (seconds <= 0) {
        watchdog_disarm();
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    double whole = (double)(time_t)seconds;
    long ns = now.tv_nsec + (long)((seconds - whole) * 1e9);
    pthread_mutex_lock(&wd.lock);
    wd.deadline.tv_sec = now.tv_sec + (time_t)whole + ns / 1000000000L;
    wd.deadline.tv_nsec = ns % 1000000000L;
    wd.seconds = seconds;
    snprintf(wd.desc, sizeof wd.desc, "%s", desc ? desc : "");
    wd.detail[0] = '\0';
    wd.armed = 1;
    if (wd.running) pthread_cond_signal(&wd.changed);
    pthread_mutex_unlock(&wd.lock);
}

void watchdog_note(const char *detail)
{
    pthread_mutex_lock(&wd.lock);
    snprintf(wd.detail, sizeof wd.detail, "%s", detail ? detail : "");
    pthread_mutex_unlock(&wd.lock);
}

void watchdog_disarm(void)
{
    pthread_mutex_lock(&wd.lock);
    wd.armed = 0;
    pthread_mutex_unlock(&wd.lock);
}

void watchdog_stop(void)
{
    pthread_mutex_lock(&wd.lock);
    if (!wd.running) {
        pthread_mutex_unlock(&wd.lock);
        return;
    }
    wd.stop = 1;
    pthread_cond_signal(&wd.changed);
    pthread_mutex_unlock(&wd.lock);
    pthread_join(wd.thread, NULL);
    pthread_cond_destroy(&wd.changed);
    wd.running = 0;
}
