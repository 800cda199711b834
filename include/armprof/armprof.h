/* armprof: an executable model of the Arm A-profile profiling extensions.
 *
 * A PE instance holds everything (no global state): create one from a
 * configuration, set its context, and drive it with MRS/MSR accesses. */
#ifndef ARMPROF_ARMPROF_H
#define ARMPROF_ARMPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct armprof_pe armprof_pe;

/* Creates a PE from a configuration, which is validated first; on failure
 * returns NULL with the reason in err. The PE starts after a Cold reset, at
 * its highest Exception level, in Non-debug state, powered up. */
armprof_pe *armprof_pe_create(const armprof_config *cfg, char *err, size_t errlen);
void armprof_pe_destroy(armprof_pe *pe);
const armprof_config *armprof_pe_config(const armprof_pe *pe);

typedef enum armprof_reset_kind { ARMPROF_RESET_COLD, ARMPROF_RESET_WARM } armprof_reset_kind;
/* Every register takes the reset value its page states; UNKNOWN values take
 * the bits of option unknown_fill. A Cold reset also resets the context. */
void armprof_reset(armprof_pe *pe, armprof_reset_kind kind);

/* ---- PE context ---- */
typedef enum armprof_security_state {
    ARMPROF_SS_NONSECURE,
    ARMPROF_SS_SECURE,
    ARMPROF_SS_REALM,
    ARMPROF_SS_ROOT,
} armprof_security_state;

typedef enum armprof_signal {
    ARMPROF_SIG_DBGEN,
    ARMPROF_SIG_NIDEN,
    ARMPROF_SIG_SPIDEN,
    ARMPROF_SIG_SPNIDEN,
    ARMPROF_SIG_RLPIDEN,
    ARMPROF_SIG_RTPIDEN,
    ARMPROF_SIG_COUNT
} armprof_signal;

const char *armprof_security_state_name(armprof_security_state ss);
const char *armprof_signal_name(armprof_signal sig);

unsigned armprof_current_el(const armprof_pe *pe);
/* CurrentSecurityState(): derived from SCR_EL3.{NSE,NS} below EL3. */
armprof_security_state armprof_current_security_state(const armprof_pe *pe);

/* Each setter checks the request against the configuration and returns
 * false with a message when the PE cannot be in that state. */
bool armprof_set_el(armprof_pe *pe, unsigned el, char *err, size_t errlen);
/* With EL3 implemented, writes SCR_EL3.{NSE,NS}: the Security state of the
 * Exception levels below EL3. At EL3 the PE itself stays in Root state
 * (Secure state without FEAT_RME). Without EL3 the state is fixed. */
bool armprof_set_security_state(armprof_pe *pe, armprof_security_state ss, char *err,
                                size_t errlen);
/* Whether Exception level el uses AArch32 (needs FEAT_AA32EL0/EL1). */
bool armprof_set_aarch32(armprof_pe *pe, unsigned el, bool aarch32, char *err, size_t errlen);
bool armprof_el_using_aarch32(const armprof_pe *pe, unsigned el);
/* Debug state (Halted()). Entering latches EDSCR.SDD as the manual says. */
void armprof_set_debug_state(armprof_pe *pe, bool halted);
bool armprof_in_debug_state(const armprof_pe *pe);
void armprof_set_core_power(armprof_pe *pe, bool on);
bool armprof_core_powered(const armprof_pe *pe);
void armprof_set_os_lock(armprof_pe *pe, bool locked);
bool armprof_os_locked(const armprof_pe *pe);
void armprof_set_signal(armprof_pe *pe, armprof_signal sig, bool high);
bool armprof_signal_level(const armprof_pe *pe, armprof_signal sig);

/* ---- System register accesses ---- */
typedef enum armprof_outcome_kind {
    ARMPROF_DONE,       /* the access completed: value read or written */
    ARMPROF_UNDEFINED,  /* the instruction is UNDEFINED */
    ARMPROF_TRAP,       /* AArch64.SystemAccessTrap(target_el, ec) */
    ARMPROF_NVMEM,      /* FEAT_NV2: a memory access at VNCR_EL2.BADDR + nv_offset */
    ARMPROF_UNMODELLED, /* an encoding the model does not declare */
} armprof_outcome_kind;

typedef struct armprof_outcome {
    armprof_outcome_kind kind;
    int reg;            /* register id accessed (after any redirection), -1 if none */
    unsigned index;     /* instance of an indexed register */
    uint64_t value;     /* DONE: value read, or value the register holds after the write */
    unsigned target_el; /* TRAP */
    unsigned ec;        /* TRAP: exception class */
    uint32_t iss;       /* TRAP: AArch64.SystemAccessTrapSyndrome() */
    uint64_t esr;       /* TRAP: ESR_ELx value: EC, IL=1, ISS */
    unsigned nv_offset; /* NVMEM */
} armprof_outcome;

/* Encoding as (op0 << 14 | op1 << 11 | CRn << 7 | CRm << 3 | op2). */
static inline uint32_t armprof_sysreg_encoding(unsigned op0, unsigned op1, unsigned crn,
                                               unsigned crm, unsigned op2)
{
    return (op0 & 3u) << 14 | (op1 & 7u) << 11 | (crn & 15u) << 7 | (crm & 15u) << 3 | (op2 & 7u);
}

/* MRS <Xt>, <reg> and MSR <reg>, <Xt> at the PE's current EL and Security
 * state. rt (0..31) goes into a trap's syndrome. */
armprof_outcome armprof_mrs(armprof_pe *pe, uint32_t encoding, unsigned rt);
armprof_outcome armprof_msr(armprof_pe *pe, uint32_t encoding, unsigned rt, uint64_t value);

/* ---- The register table ---- */
size_t armprof_reg_count(void);
/* Name of a register ("PMEVCNTSVR<n>_EL1" for an indexed one). */
const char *armprof_reg_name(int reg);
/* Id of "PMSCR_EL1", "PMEVCNTSVR3_EL1" or "S3_0_C9_C9_0"; -1 if unknown.
 * *index receives the instance. */
int armprof_reg_lookup(const char *name, unsigned *index);
uint32_t armprof_reg_encoding(int reg, unsigned index);
unsigned armprof_reg_instances(int reg);
bool armprof_reg_present(const armprof_pe *pe, int reg);
/* Field position by name; false if the register has no such field. */
bool armprof_reg_field(int reg, const char *field, unsigned *hi, unsigned *lo);
/* Calls fn for each bit range of the register, from the declaration. kind is
 * "RW", "RO", "WO", "RES0", "RES1" or "UNKNOWN"; present is false for a field
 * that is RES0 in this PE's configuration. */
void armprof_reg_foreach_field(const armprof_pe *pe, int reg,
                               void (*fn)(void *ctx, const char *name, unsigned hi, unsigned lo,
                                          const char *kind, bool present),
                               void *ctx);

/* Debugger-style access with no access check and no side effects: get
 * returns the stored value; set stores it with RES0/RES1 applied (fields RES0
 * in this configuration included) and updates the derived Effective values. */
uint64_t armprof_reg_get(const armprof_pe *pe, int reg, unsigned index);
void armprof_reg_set(armprof_pe *pe, int reg, unsigned index, uint64_t value);

#ifdef __cplusplus
}
#endif
#endif
