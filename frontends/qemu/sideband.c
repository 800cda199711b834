/* SPDX-License-Identifier: BSD-3-Clause */
/* What perf needs besides the records (docs/qemu.md, "perf.data"): the
 * guest's executable mappings, from the host's view of them at the first
 * block (what qemu-user itself loaded: the program and its interpreter)
 * and from the mmap() calls the guest makes later (shared libraries), and
 * execve(), after which the plugin is gone. Threads are named by their
 * vCPU's TID (model.c). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qprof.h"

#define NR_MMAP       222 /* the AArch64 Linux system call numbers */
#define NR_EXECVE     221
#define PROT_EXEC_BIT 4

static bool is_aarch64_elf(const char *path)
{
    unsigned char h[20];
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const ssize_t n = read(fd, h, sizeof h);
    close(fd);
    /* ELF magic, ELFCLASS64, e_machine EM_AARCH64 (183) little-endian */
    return n == (ssize_t)sizeof h && memcmp(h, "\177ELF", 4) == 0 && h[4] == 2 && h[18] == 183 &&
           h[19] == 0;
}

static void add_map(uint64_t addr, uint64_t len, uint64_t pgoff, const char *path);
static void add_map(uint64_t addr, uint64_t len, uint64_t pgoff, const char *path)
{
    pthread_mutex_lock(&qp.lock);
    for (size_t i = 0; i < qp.nmaps; i++)
        if (qp.maps[i].addr == addr && qp.maps[i].len == len && !strcmp(qp.maps[i].path, path)) {
            pthread_mutex_unlock(&qp.lock);
            return;
        }
    if (qp.nmaps == qp.capmaps) {
        qp.capmaps = qp.capmaps ? qp.capmaps * 2 : 16;
        qp.maps = realloc(qp.maps, qp.capmaps * sizeof *qp.maps);
        if (!qp.maps) abort();
    }
    qp.maps[qp.nmaps++] = (struct qp_map){addr, len, pgoff, strdup(path)};
    pthread_mutex_unlock(&qp.lock);
}

static uint64_t le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = v << 8 | p[n];
    return v;
}

/* The program itself: qemu-user may copy a segment rather than map its
 * file, so the mapping comes from the ELF file's executable PT_LOAD
 * segments, moved by the load bias (0 for ET_EXEC; for ET_DYN the entry
 * point QEMU reports less e_entry). */
void qp_map_program(const char *path)
{
    unsigned char h[64], ph[56];
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return;
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, "\177ELF", 4) || h[4] != 2 ||
        le(h + 18, 2) != 183) {
        fclose(f);
        return;
    }
    const uint64_t type = le(h + 16, 2), entry = le(h + 24, 8), phoff = le(h + 32, 8);
    const unsigned phentsize = (unsigned)le(h + 54, 2), phnum = (unsigned)le(h + 56, 2);
    const uint64_t bias = type == 3 /* ET_DYN */ ? qemu_plugin_entry_code() - entry : 0;
    for (unsigned i = 0; i < phnum; i++) {
        if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) ||
            fread(ph, 1, sizeof ph, f) != sizeof ph)
            break;
        /* PT_LOAD with PF_X */
        if (le(ph, 4) != 1 || !(le(ph + 4, 4) & 1)) continue;
        const uint64_t off = le(ph + 8, 8), vaddr = le(ph + 16, 8), memsz = le(ph + 40, 8);
        const uint64_t start = vaddr & ~0xfffull;
        const uint64_t end = (vaddr + memsz + 0xfff) & ~0xfffull;
        add_map(start + bias, end - start, off & ~0xfffull, path);
    }
    fclose(f);
}

/* qemu-user maps the guest's files into its own address space at the
 * guest address plus guest_base (0 for a 64-bit guest on a 64-bit host
 * unless the layout forces otherwise; docs/qemu.md). */
void qp_scan_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off;
        char perms[8], path[3072] = "";
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %3071[^\n]", &lo, &hi, perms, &off, path) < 4)
            continue;
        if (perms[2] != 'x' || path[0] != '/') continue;
        if (!is_aarch64_elf(path)) continue;
        add_map(lo, hi - lo, off, path);
    }
    fclose(f);
}

void qp_syscall(qemu_plugin_id_t id, unsigned vcpu, int64_t num, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
    (void)id;
    (void)a1;
    (void)a4;
    (void)a7;
    (void)a8;
    if (qp.stopped) return;
    if (num == NR_MMAP) {
        qp_thread *t = qp_thread_of(vcpu);
        t->mmap_len = a2;
        t->mmap_prot = a3;
        t->mmap_fd = (int64_t)a5;
        t->mmap_off = a6;
    } else if (num == NR_EXECVE) {
        /* the new program replaces this process and QEMU with it: the
         * profile ends here */
        fprintf(stderr,
                "armprof: the program calls execve(): its profile so far is written; what it "
                "executes runs without the plugin\n");
        qp_write_outputs();
        qp.stopped = true;
    }
}

void qp_syscall_ret(qemu_plugin_id_t id, unsigned vcpu, int64_t num, int64_t ret)
{
    (void)id;
    if (qp.stopped || num != NR_MMAP || ret < 0 || ret > -4096ll) return;
    qp_thread *t = qp_thread_of(vcpu);
    if (!(t->mmap_prot & PROT_EXEC_BIT) || t->mmap_fd < 0) return;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%lld", (long long)t->mmap_fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = 0;
    add_map((uint64_t)ret, t->mmap_len, t->mmap_off, path);
}
