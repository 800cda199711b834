/* The external (memory-mapped) register interfaces - the PMU block and the
 * external debug block: the table built from regs/external_all.def (the
 * format is described in regs/external_pmu.def) and what the other layers
 * need from it. */
#ifndef ARMPROF_SYSREG_EXTERNAL_H
#define ARMPROF_SYSREG_EXTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pe.h"

enum ext_flags {
    EXT_RO = 1u << 0,  /* the page's last bullet: 'accesses to this register are RO' */
    EXT_WO = 1u << 1,  /* ... 'are WO' (reads RAZ in the model) */
    EXT_W1 = 1u << 2,  /* a write acts on the bits written as 1 */
    EXT_CTR = 1u << 3, /* instance n is event counter n */
};

/* What a page's Accessing bullets decide for one access. */
typedef enum ext_decision {
    EXT_ALLOW, /* the access the page's last bullet gives (RW, RO or WO) */
    EXT_ERROR, /* 'accesses to this register generate an error response' */
    EXT_RAZWI, /* 'accesses to this register are RAZ/WI' (or RES0) */
    EXT_WI,    /* writes ignored: 'RO' or 'WI' under SoftwareLockStatus() */
} ext_decision;

struct ext_desc;
/* A page's Accessing bullets (perm column). n is the instance; *why names
 * the condition that decided when it is not EXT_ALLOW. */
typedef ext_decision (*ext_perm_fn)(const armprof_pe *pe, const armprof_ext_access *a,
                                    const struct ext_desc *d, unsigned n, const char **why);
/* External-only registers (rd and wr columns). m is the instance; bits are
 * the bits of the location the access covers (a 4-byte access to a 64-bit
 * location covers one word). A read has its side effects only on the bits it
 * reads: bits is 0 when the value is only reported after a write (which does
 * not read the register; PMPCSR[31:0] must not take a sample then). A write
 * writes the bits in bits and leaves the others. */
typedef uint64_t (*ext_read_fn)(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                                uint64_t bits);
typedef void (*ext_write_fn)(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                             uint64_t value, uint64_t bits);

typedef struct ext_desc {
    const char *name; /* "PMEVCNTR<n>_EL0[31:0]" */
    uint16_t offset, stride, count;
    uint8_t component; /* armprof_ext_component: the block offset is relative to */
    uint8_t width;     /* 32 or 64 */
    int16_t sysreg;    /* SR_<id>, -1 for an external-only register */
    uint16_t flags;
    uint64_t mask; /* bits of the System register shown */
    ext_perm_fn perm;
    ext_read_fn read;
    ext_write_fn write;
    bool (*present)(const armprof_config *c); /* the present column */
} ext_desc;

enum ext_id {
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)          EXT_##id,
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl) EXT_##id,
#include "sysreg/regs/external_all.def"
#undef EXTREG
#undef EXTREG_ARRAY
    EXT_COUNT
};

extern const ext_desc ext_table[EXT_COUNT];

/* The counters an external access reaches through the PMU's counter masks
 * (GetPMUAccessMask(), GetPMUReadMask(), GetPMUWriteMask() during an external
 * access, EXTERNAL_ACCESS(pe)): bit n for PMEVCNTR<n>_EL0, 31 the cycle
 * counter, 32 the instruction counter. The external pages make P<m> RAZ/WI
 * when m >= NUM_PMU_COUNTERS, or with FEAT_PMUv3_EXTPMN when
 * m >= EffectiveEPMN() and the access is not a Most secure access; no
 * condition depends on PSTATE.EL. */
uint64_t ext_pmu_counter_mask(const armprof_pe *pe);

/* Cold and Warm reset of the interface's own state (PMLSR.SLK). */
void external_reset(armprof_pe *pe, bool cold);

#endif
