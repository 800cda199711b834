/* SPDX-License-Identifier: BSD-3-Clause */
/* A load's or store's data address from the decoded instruction and the
 * general-purpose registers, read just before it runs (QEMU 10.0's
 * qemu_plugin_read_register(); QEMU 7.2 cannot read registers). */
#include <string.h>

#include "qprof.h"

void qp_regs_init(void)
{
#if QPROF_SCOREBOARDS
    if (qp.xreg[0]) return;
    GArray *regs = qemu_plugin_get_registers();
    for (guint i = 0; regs && i < regs->len; i++) {
        const qemu_plugin_reg_descriptor *r = &g_array_index(regs, qemu_plugin_reg_descriptor, i);
        unsigned n;
        if (strcmp(r->name, "sp") == 0)
            qp.xreg[31] = r->handle;
        else if (strcmp(r->name, "vg") == 0)
            qp.vg = r->handle; /* with SVE: the vector length in 64-bit granules */
        else if (sscanf(r->name, "x%u", &n) == 1 && n < 31)
            qp.xreg[n] = r->handle;
    }
    if (regs) g_array_free(regs, true);
#endif
}

#if QPROF_SCOREBOARDS
/* Xn (n < 31), SP (31 as a base) or XZR (31 as an index). */
static bool read_x(qp_thread *t, unsigned n, bool sp, uint64_t *v)
{
    if (n == 31 && !sp) {
        *v = 0;
        return true;
    }
    if (!qp.xreg[n]) return false;
    g_byte_array_set_size(t->regbuf, 0);
    if (qemu_plugin_read_register(qp.xreg[n], t->regbuf) != 8) return false;
    uint64_t x = 0;
    for (int b = 7; b >= 0; b--)
        x = x << 8 | t->regbuf->data[b]; /* little-endian target */
    *v = x;
    return true;
}
#endif

bool qp_vector_length(qp_thread *t, uint32_t *bits)
{
#if QPROF_SCOREBOARDS
    if (qp.mode != QP_MODE_FAST || !qp.vg) return false;
    g_byte_array_set_size(t->regbuf, 0);
    if (qemu_plugin_read_register(qp.vg, t->regbuf) < 1) return false;
    *bits = 64u * t->regbuf->data[0]; /* VG: 64-bit granules, at most 32 */
    return *bits != 0;
#else
    (void)t;
    (void)bits;
    return false;
#endif
}

bool qp_data_address(qp_thread *t, const qp_insn *i, uint64_t *vaddr)
{
#if QPROF_SCOREBOARDS
    const armprof_a64_insn *d = &i->d;
    if (!i->addr_from_regs) return false;
    uint64_t addr;
    if (d->pc_relative)
        addr = i->pc;
    else if (!read_x(t, d->base_reg, true, &addr))
        return false;
    if (!d->post_index) {
        addr += (uint64_t)d->offset;
        if (d->index_reg != ARMPROF_A64_NOREG) {
            uint64_t x;
            if (!read_x(t, d->index_reg, false, &x)) return false;
            if (d->extend == ARMPROF_A64_EXT_UXTW) x = (uint32_t)x;
            if (d->extend == ARMPROF_A64_EXT_SXTW) x = (uint64_t)(int64_t)(int32_t)x;
            addr += x << d->shift;
        }
    }
    *vaddr = addr;
    return true;
#else
    (void)t;
    (void)i;
    (void)vaddr;
    return false;
#endif
}
