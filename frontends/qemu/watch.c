/* SPDX-License-Identifier: BSD-3-Clause */
/* A guest that dies of a signal under QEMU 7.2 ends QEMU without the
 * plugin's exit callback: linux-user/signal.c's dump_core_and_abort()
 * calls no preexit_cleanup() (10.0's does), sets the host signal to
 * SIG_DFL and raises it, so nothing of the process runs after it, atexit()
 * handlers included. A process of the plugin's own, started at load, waits
 * for QEMU to end and, when it ended without the profile finished, says
 * what was lost, on stderr and in PREFIX.summary (docs/qemu.md), and cuts
 * PREFIX.spe back to the end of its last whole write: the replay thread
 * (replayer.c) may have been in the middle of one when the guest's thread
 * raised the signal. The length written whole is in a page the two
 * processes share (qp_watch_written()). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qprof.h"

/* The watcher: only read(), write(), open(), ftruncate() and _exit() (a
 * child of a process with threads may call nothing else). */
static void watch(int rd, pid_t qemu, const char *msg, size_t len, const char *summary, int spe_fd,
                  const uint64_t *written)
{
    /* the terminal's ^C reaches QEMU and this alike: QEMU's end tells */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    pid_t done;
    for (;;) {
        const ssize_t n = read(rd, &done, sizeof done);
        if (n == (ssize_t)sizeof done && done == qemu) _exit(0);
        if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    /* every writer gone (QEMU, and the copies of it a guest fork() made),
     * and QEMU never said it finished */
    /* by the descriptor QEMU wrote through (inherited): the file the
     * plugin made, whatever is at its path now */
    if (written && ftruncate(spe_fd, (off_t)__atomic_load_n(written, __ATOMIC_ACQUIRE)) != 0) {
        /* what is past it stays: the message still holds */
    }
    if (write(STDERR_FILENO, msg, len) < 0) {
        /* nobody to tell: the summary still says it */
    }
    const int fd = open(summary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (write(fd, msg, len) < 0) {
            /* as above */
        }
        close(fd);
    }
    _exit(0);
}

bool qp_watch_start(char *err, size_t errlen)
{
    qp.watch_fd = -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "a pipe for the watcher: %s", strerror(errno));
        return false;
    }
    const pid_t qemu = getpid();
    /* composed now: the watcher cannot allocate */
    char *msg = g_strdup_printf(
        "armprof: QEMU ended before the plugin finished the profile (its exit callback never "
        "ran: QEMU 7.2 skips it when the guest dies of a signal): %s.spe holds whole records "
        "only, up to each thread's last full Profiling Buffer; what the buffers held at the end "
        "is lost, and %s.summary (this message) and %s.perf.data were not made: `armprof report "
        "%s.spe`, `armprof perf-data %s.spe -o %s.perf.data`\n",
        qp.out, qp.out, qp.out, qp.out, qp.out, qp.out);
    char *summary = g_strdup_printf("%s.summary", qp.out);
    void *page =
        mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    qp.watch_written = page == MAP_FAILED ? NULL : page;
    const int spe_fd = fileno(qp.spe); /* read here: the watcher calls nothing of stdio */
    /* PREFIX.spe was opened empty (qp_spe_open()) */
    if (qp.watch_written) *qp.watch_written = 0;
    const pid_t child = fork();
    if (child == 0) {
        /* twice, so that the watcher is no child of QEMU's: a guest's
         * wait() never sees it */
        if (fork() == 0) {
            close(fds[1]);
            watch(fds[0], qemu, msg, strlen(msg), summary, spe_fd, qp.watch_written);
        }
        _exit(0);
    }
    close(fds[0]);
    g_free(msg);
    g_free(summary);
    if (child < 0) {
        close(fds[1]);
        snprintf(err, errlen, "fork() for the watcher: %s", strerror(errno));
        return false;
    }
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
    }
    qp.watch_fd = fds[1];
    return true;
}

void qp_watch_written(uint64_t bytes)
{
    if (qp.watch_written) __atomic_store_n(qp.watch_written, bytes, __ATOMIC_RELEASE);
}

void qp_watch_done(void)
{
    if (qp.watch_fd < 0) return;
    const pid_t self = getpid();
    if (write(qp.watch_fd, &self, sizeof self) != (ssize_t)sizeof self) {
        /* the watcher is gone: nothing will be said either way */
    }
}
