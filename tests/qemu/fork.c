/* SPDX-License-Identifier: BSD-3-Clause */
/* A process that forks (tests/qemu/fork.sh): parent and child each run a
 * loop of N iterations (N the first argument, 2000000 without: a load, a
 * store and a branch each), the parent also before the fork; the parent
 * waits for the child and exits 0 when the child exited 0. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void work(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink = sink + i;
}

int main(int argc, char **argv)
{
    const unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
    work(n);
    const pid_t child = fork();
    if (child < 0) return 2;
    work(n);
    if (child == 0) _exit(0);
    int status;
    if (waitpid(child, &status, 0) != child) return 3;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 4;
}
