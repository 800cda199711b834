/* SPDX-License-Identifier: BSD-3-Clause */
/* The external debug block's power, reset and lock registers and its
 * identification (debug_block.c): the functions pcsr/regs/external_debug.def
 * names in its rd and wr columns for them. Their state is the external
 * interface's (pe_external). */
#ifndef ARMPROF_SYSREG_DEBUG_BLOCK_H
#define ARMPROF_SYSREG_DEBUG_BLOCK_H

#include "sysreg/external.h"

EXT_READ_FN(ext_read_EDPRCR);
EXT_WRITE_FN(ext_write_EDPRCR);
EXT_READ_FN(ext_read_EDPRSR);
EXT_WRITE_FN(ext_write_EDOSLAR);
EXT_READ_FN(ext_read_EDCLAIMSET);
EXT_WRITE_FN(ext_write_EDCLAIMSET);
EXT_READ_FN(ext_read_EDCLAIMCLR);
EXT_WRITE_FN(ext_write_EDCLAIMCLR);
EXT_WRITE_FN(ext_write_EDLAR);
EXT_READ_FN(ext_read_EDLSR);
EXT_READ_FN(ext_read_EDDEVARCH);
EXT_READ_FN(ext_read_EDDEVTYPE);
EXT_READ_FN(ext_read_EDPIDR0);
EXT_READ_FN(ext_read_EDPIDR1);
EXT_READ_FN(ext_read_EDPIDR2);
EXT_READ_FN(ext_read_EDPIDR3);
EXT_READ_FN(ext_read_EDPIDR4);

#endif
