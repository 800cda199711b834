/* SPDX-License-Identifier: BSD-3-Clause */
/* The register declaration format (docs/design.md rule 3) and the register file.
 *
 * Every System register is declared once, in a .def file of the layer that
 * owns it (core/regs/, pmu/regs/, spe/regs/; each owner's list.def names its
 * files), with the macros below. From that declaration come: the register id
 * (SR_<id>), its storage slot (STO_<id>), its field positions
 * (<id>_<field>_LO, _W; <id>_<view>_<field>_LO, _W for another layout), its
 * fields' named values (<id>_<field>_<name>), the engine's table
 * (sysreg/catalog_gen.h: encoding, presence, RES0/RES1 masks, reset values,
 * field printing), and checks of its ranges (each within the 64 bits at
 * compile time; the 64 bits covered once each by tests/unit/test_table.c).
 *
 * These names are pasted together, so grep finds only their uses:
 * tools/regname.sh NAME prints the declaration line a name comes from, and
 * the tree's .ctags.d makes them tags of that line.
 *
 *   SYSREG(id, ENC(op0, op1, CRn, CRm, op2), present-condition, access, read-hook,
 *          write-hook, flags)
 *   SYSREG_ARRAY(prefix, suffix, count, ENC(...of instance 0...), present-condition,
 *                access, read-hook, write-hook, flags)
 *       Instance n has the encoding of instance 0 plus n (CRm<1:0>:op2 = n),
 *       so instance 0 must have CRm<1:0> = op2 = 0. Named prefix<n>suffix,
 *       id prefix##suffix.
 *   SYSREG_ALIAS(id, ENC(...), present-condition, access, target)
 *       An encoding with no storage of its own (the EL12 names: target is
 *       the register they name; NONE where the access check chooses, as
 *       PMXEVCNTR_EL0 by PMSELR_EL0.SEL).
 * followed by the register's bit ranges, each naming the register, from bit 63 down:
 *   F(reg, name, hi, lo, access, reset)        a field present in every configuration
 *   FC(reg, name, hi, lo, access, reset, cond) a field present when cond holds, RES0 otherwise
 *   FX(reg, name, hi, lo, access, reset, cond, res1)
 *                                   as FC, and RES1 (RAO/WI) when res1 holds
 *   RES0(reg, hi, lo)  RES1(reg, hi, lo)       reserved bits
 *   UNK(reg, hi, lo)                           bits that read as an UNKNOWN value
 * and, after a field, the values its page names (as the Enum blocks of
 * Linux's arch/arm64/tools/sysreg), so that code compares with a name:
 *   FVAL(reg, field, name, value)    <reg>_<field>_<name> is value; a value
 *                                    that does not fit the field's width
 *                                    does not compile
 * and the fields of a layout the page gives besides the declared one, which
 * the pseudocode reads (TCR_EL2 when !ELIsInHost(EL2); a field of a feature
 * the model holds as reserved but a walker given raw values honours):
 *   FVIEW(reg, view, name, hi, lo)   <reg>_<view>_<name>_LO, _W; the bits
 *                                    are accounted for by the rows above
 * and the page's facts (sysreg_facts), where it has them:
 *   FGT_R(reg, kind, FGT-register, field)   the MRS fine-grained trap bit
 *   FGT_W(reg, kind, FGT-register, field)   the MSR one
 *   FGT_RW(reg, kind, read-register, write-register, field)  both, one field name
 *       kind: FGT ('1' traps), FGTN (an 'n' bit: '0' traps), FGT2 (FEAT_FGT2)
 *   NVMEM(reg, offset)          the NVMem offset of the page's FEAT_NV2 branch
 *   EL2_HOST(reg, target)       the register an EL2 access reaches when
 *                               ELIsInHost(EL2) (PMSCR_EL1 -> PMSCR_EL2)
 * access: RW, RO, WO.
 * reset: WARM(v), WARM_UNK, COLD(v), COLD_UNK, NORESET, or RESET_IF(cond, a, b)
 * choosing between two of those by configuration (a Cold reset performs the
 * Warm reset too; UNKNOWN takes the bits of option unknown_fill).
 * cond and present-condition are C expressions over IMPL(FEATURE) and
 * OPT(OPTION), evaluated once when a PE is created. The leading "feature not
 * implemented: UNDEFINED" test of every Accessing page is the present-condition.
 * access is the register's access check, the transliteration of its page's
 * 'Accessing' pseudocode, in the owning layer: access_<id>, or a function
 * several registers whose pages differ only in their facts (below) share.
 * read-hook and write-hook are NOHOOK for plain storage, or read_<id>/
 * write_<id> functions of the owning layer.
 * flags: SR_RO (no MSR form: MSR is UNDEFINED), SR_WO (no MRS form),
 *        SR_CONTEXT (a write recomputes the cached Effective values),
 *        SR_STATE (no cache derives from it: a write leaves them current).
 *
 * Ids and slots are one numbering for the whole PE: the core's first, then
 * each unit's from its first id and slot (core, then pmu, then spe: the
 * counts are declared in sysreg/units.h and checked by each unit), so an
 * owner needs no sibling's header. The values live in one array,
 * armprof_pe.regs. */
#ifndef ARMPROF_CORE_REGDECL_H
#define ARMPROF_CORE_REGDECL_H

#include <stdint.h>

#define ENC(op0, op1, crn, crm, op2)                                                               \
    ((uint16_t)(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2)))
#define ENC_OP0(e) (((e) >> 14) & 3u)
#define ENC_OP1(e) (((e) >> 11) & 7u)
#define ENC_CRN(e) (((e) >> 7) & 15u)
#define ENC_CRM(e) (((e) >> 3) & 15u)
#define ENC_OP2(e) ((e)&7u)
/* A register with no MRS/MSR encoding: an external-only control the model
 * keeps in the register file because the pseudocode reads its fields
 * (PMCCR). op0 = 0 is not a System register encoding, so ENC_NONE can never
 * be one; the engine's encoding map leaves it empty. */
#define ENC_NONE ENC(0, 0, 0, 0, 0)

/* "No register" in a declaration's register column (an alias whose target
 * is not fixed). */
enum { SR_NONE = -1 };

#define BITS_MASK(hi, lo) ((~0ull >> (63 - (hi))) & (~0ull << (lo)))
/* The bits of a declared field: FIELD_MASK(PMBSR_EL1, EC). */
#define FIELD_MASK(id, name) ((~0ull >> (64 - id##_##name##_W)) << id##_##name##_LO)

/* Register storage by name: REG(pe, SCR_EL3), instance n of an array:
 * REG_AT(pe, PMEVCNTR_EL0, n), and one field: FIELD(pe, SCR_EL3, NS). */
#define REG(pe, id)           ((pe)->regs[STO_##id])
#define REG_AT(pe, id, n)     ((pe)->regs[STO_##id + (n)])
#define FIELD_OF(v, id, name) (((v) >> id##_##name##_LO) & (~0ull >> (64 - id##_##name##_W)))
#define FIELD(pe, id, name)   FIELD_OF(REG(pe, id), id, name)

#endif
