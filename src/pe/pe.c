/* SPDX-License-Identifier: BSD-3-Clause */
/* The PE façade: creation, reset and destruction of the whole instance,
 * which visits the layers in order, and the context setters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/context.h"
#include "core/arch.h"
#include "core/config.h"
#include "pe/instance.h"

static bool fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
    return false;
}

/* The core and each unit validate the rules that are theirs. */
bool armprof_config_validate(const armprof_config *c, char *err, size_t errlen)
{
    if (!c) return fail(err, errlen, "no configuration (NULL)");
    return config_validate_core(c, err, errlen) && spe_config_validate(c, err, errlen);
}

armprof_pe *armprof_pe_create(const armprof_config *cfg, char *err, size_t errlen)
{
    if (!armprof_config_validate(cfg, err, errlen)) return NULL;
    pe_instance *inst = calloc(1, sizeof *inst);
    if (!inst) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    /* The engine's part comes first, and the core first in it. */
    armprof_pe *pe = &inst->base.core;
    pe->cfg = *cfg;
    sysreg_level *engine = SYSREG_LEVEL(pe);
    engine->catalog = &sysreg_catalog_all;
    engine->ext_catalog = &ext_catalog_all;
    if (!spe_buffer_init(pe)) {
        armprof_pe_destroy(pe);
        fail(err, errlen, "out of memory");
        return NULL;
    }
    sysreg_configure(pe);
    armprof_reset(pe, ARMPROF_RESET_COLD);
    return pe;
}

void armprof_pe_destroy(armprof_pe *pe)
{
    if (!pe) return;
    spe_buffer_free(pe);
    free((pe_instance *)pe);
}

const armprof_config *armprof_pe_config(const armprof_pe *pe)
{
    return pe ? &pe->cfg : NULL;
}

/* One bit of a register's storage, as a direct store would leave it (the
 * register's RES1 conditions, such as SCR_EL3.RW without FEAT_AA32EL1, are
 * applied when the value is read back through its declaration). */
static void set_bit(uint64_t *reg, unsigned bit, bool one)
{
    *reg = one ? *reg | 1ull << bit : *reg & ~(1ull << bit);
}

void armprof_reset(armprof_pe *pe, armprof_reset_kind kind)
{
    if (kind != ARMPROF_RESET_COLD && kind != ARMPROF_RESET_WARM) return;
    const bool cold = kind == ARMPROF_RESET_COLD;
    if (cold) {
        /* The context a Cold reset leaves: highest EL, AArch64, Non-debug
         * state, powered, OS Lock locked (OSLSR_EL1.OSLK resets to 1 on a
         * Cold reset), the authentication signals as they were. */
        const bool *keep = pe->ctx.signal;
        bool signals[ARMPROF_SIG_COUNT];
        memcpy(signals, keep, sizeof signals);
        memset(&pe->ctx, 0, sizeof pe->ctx);
        memcpy(pe->ctx.signal, signals, sizeof signals);
        pe->ctx.core_powered = true;
        pe->ctx.os_lock = true;
    }
    /* A Warm reset takes the PE to its highest EL, out of Debug state.
     * OSDLR_EL1.DLK: 'On a Warm reset, this field resets to '0''. */
    pe->ctx.halted = false;
    pe->ctx.os_double_lock = false;
    pe->ctx.el = (uint8_t)HighestEL(pe);
    sysreg_reset(pe, cold);
    /* SCR_EL3.RW and HCR_EL2.RW reset to UNKNOWN values: the model starts
     * every Exception level in AArch64, as boot software sets them, and EL0
     * with PSTATE.nRW 0 (docs/spec-notes.md). */
    if (HaveEL(pe, EL3)) set_bit(&REG(pe, SCR_EL3), SCR_EL3_RW_LO, true);
    if (HaveEL(pe, EL2)) set_bit(&REG(pe, HCR_EL2), HCR_EL2_RW_LO, true);
    pe->ctx.nrw = false;
    external_reset(pe, cold);
    context_idregs_init(pe);
#define UNIT_RESET(name, state, place) name##_reset(pe, cold);
    PE_UNITS(UNIT_RESET)
#undef UNIT_RESET
    pe_recompute(pe);
    pe_outputs_check(pe);
}

static const char *const ss_names[] = {"Non-secure", "Secure", "Realm", "Root"};
const char *armprof_security_state_name(armprof_security_state ss)
{
    return (unsigned)ss < 4 ? ss_names[ss] : "?";
}

static const char *const signal_names[] = {"DBGEN",   "NIDEN",   "SPIDEN",
                                           "SPNIDEN", "RLPIDEN", "RTPIDEN"};
const char *armprof_signal_name(armprof_signal sig)
{
    return (unsigned)sig < ARMPROF_SIG_COUNT ? signal_names[sig] : "?";
}

unsigned armprof_current_el(const armprof_pe *pe)
{
    return pe->ctx.el;
}

armprof_security_state armprof_current_security_state(const armprof_pe *pe)
{
    return CurrentSecurityState(pe);
}

bool armprof_set_reg_provider(armprof_pe *pe, const int *regs, const unsigned *index, size_t count,
                              armprof_reg_provider_fn fn, void *ctx, char *err, size_t errlen)
{
    if (!pe) return fail(err, errlen, "no PE (NULL)");
    sysreg_provider p = {.fn = fn, .ctx = ctx};
    if (fn) {
        if (count > ARMPROF_MAX_PROVIDED_REGS) {
            if (err && errlen)
                snprintf(err, errlen, "%zu provided registers; at most %d", count,
                         ARMPROF_MAX_PROVIDED_REGS);
            return false;
        }
        if (count && !regs) return fail(err, errlen, "no register ids (NULL)");
        for (size_t i = 0; i < count; i++) {
            const unsigned m = index ? index[i] : 0;
            /* an alias has no storage of its own: its register is provided */
            if (!armprof_reg_present(pe, regs[i]) || m >= armprof_reg_instances(regs[i])) {
                const char *name = armprof_reg_name(regs[i]);
                if (err && errlen)
                    snprintf(err, errlen,
                             "provided register %zu (%s, instance %u) is not a register "
                             "with storage in this PE",
                             i, name ? name : "unknown id", m);
                return false;
            }
            p.reg[i] = sysreg_provided_of(pe, (unsigned)regs[i], m);
        }
        p.count = (unsigned)count;
    }
    SYSREG_LEVEL(pe)->provider = p;
    return true;
}

bool armprof_set_el(armprof_pe *pe, unsigned el, char *err, size_t errlen)
{
    if (!pe) return fail(err, errlen, "no PE (NULL)");
    sysreg_pull(pe); /* SCR_EL3 decides the Security state below EL3 */
    if (el > 3) return fail(err, errlen, "Exception level must be 0, 1, 2 or 3");
    if (!HaveEL(pe, el))
        return fail(err, errlen, el == 2 ? "EL2 is not implemented" : "EL3 is not implemented");
    if (el == EL2 && HaveEL(pe, EL3) && SecurityStateAtEL(pe, EL1) == ARMPROF_SS_SECURE &&
        !pe->eff.secure_el2_enabled)
        return fail(err, errlen,
                    "EL2 is not enabled in Secure state (needs FEAT_SEL2 and SCR_EL3.EEL2=1)");
    if (el == EL1 && ELUsingAArch32(pe, EL3) && SecurityStateAtEL(pe, EL1) == ARMPROF_SS_SECURE)
        return fail(err, errlen,
                    "with EL3 using AArch32 there is no Secure EL1 (Secure PL1 modes run at EL3)");
    /* the same level: nothing derived from it changes (an embedder that
     * gives the level before every batch of operations pays nothing) */
    if (pe->ctx.el == el) return true;
    pe->ctx.el = (uint8_t)el;
    pe_recompute(pe);
    pe_outputs_check(pe);
    return true;
}

bool armprof_set_security_state(armprof_pe *pe, armprof_security_state ss, char *err, size_t errlen)
{
    if (!pe) return fail(err, errlen, "no PE (NULL)");
    if ((unsigned)ss > ARMPROF_SS_ROOT) return fail(err, errlen, "unknown Security state");
    const bool rme = IsFeatureImplemented(pe, RME);
    if (!HaveEL(pe, EL3)) {
        if (ss != SecurityStateAtEL(pe, EL1))
            return fail(err, errlen,
                        "without EL3 the Security state is fixed by "
                        "secure_only_implementation");
        return true;
    }
    if (pe->ctx.el == EL3) {
        /* At EL3 the PE stays in Root (Secure without FEAT_RME) state; the
         * request sets SCR_EL3.{NSE,NS} for the lower Exception levels. */
        if (ss == ARMPROF_SS_ROOT && rme) return true;
    }
    if (ss == ARMPROF_SS_ROOT) return fail(err, errlen, "Root state exists only at EL3");
    if (ss == ARMPROF_SS_REALM && !rme) return fail(err, errlen, "Realm state needs FEAT_RME");
    if (ss == ARMPROF_SS_SECURE && !HaveSecureState(pe))
        return fail(err, errlen, "this PE has no Secure state (FEAT_RME without FEAT_SEL2)");
    uint64_t scr = REG(pe, SCR_EL3);
    const uint64_t ns = 1ull << SCR_EL3_NS_LO;
    scr = ss == ARMPROF_SS_SECURE ? scr & ~ns : scr | ns;
    if (rme) {
        const uint64_t nse = 1ull << SCR_EL3_NSE_LO;
        scr = ss == ARMPROF_SS_REALM ? scr | nse : scr & ~nse;
    }
    REG(pe, SCR_EL3) = scr;
    pe_recompute(pe);
    if (pe->ctx.el == EL2 && !pe->eff.el2_enabled) {
        pe->ctx.el = EL1;
        pe_recompute(pe);
        pe_outputs_check(pe);
        return fail(err, errlen, "EL2 is not enabled in that Security state; now at EL1");
    }
    if (pe->ctx.el == EL1 && ELUsingAArch32(pe, EL3) && ss == ARMPROF_SS_SECURE) {
        pe->ctx.el = EL3;
        pe_recompute(pe);
        pe_outputs_check(pe);
        return fail(err, errlen,
                    "with EL3 using AArch32 there is no Secure EL1 (Secure PL1 modes run at "
                    "EL3); now at EL3");
    }
    pe_outputs_check(pe);
    return true;
}

/* The Execution state of an Exception level is not context of its own: it
 * follows from SCR_EL3.RW, HCR_EL2.RW and PSTATE.nRW
 * (ELStateUsingAArch32K()). This convenience writes those controls, as the
 * software at the higher level would, for the current Security state:
 *   EL2 on/off: SCR_EL3.RW 0/1 (AArch32 below EL3);
 *   EL1 on: HCR_EL2.RW 0 where EL2 is enabled, else SCR_EL3.RW 0;
 *   EL1 off: HCR_EL2.RW and SCR_EL3.RW 1 (every level above uses AArch64);
 *   EL0 on/off: PSTATE.nRW, the state EL0 runs with under an AArch64 EL1.
 * The highest Exception level's state is fixed by the implementation. */
bool armprof_set_aarch32(armprof_pe *pe, unsigned el, bool aarch32, char *err, size_t errlen)
{
    if (!pe) return fail(err, errlen, "no PE (NULL)");
    if (el > 3) return fail(err, errlen, "Exception level must be 0, 1, 2 or 3");
    if (!HaveEL(pe, el)) return fail(err, errlen, "that Exception level is not implemented");
    if (aarch32 && !HaveAArch32EL(pe, el)) {
        static const char *const need[] = {"FEAT_AA32EL0", "FEAT_AA32EL1", "FEAT_AA32EL2",
                                           "FEAT_AA32EL3"};
        char msg[64];
        snprintf(msg, sizeof msg, "AArch32 at EL%u needs %s", el, need[el]);
        return fail(err, errlen, msg);
    }
    if (ELUsingAArch32(pe, el) == aarch32) return true;
    if (!IsFeatureImplemented(pe, AA64))
        return fail(err, errlen, "without FEAT_AA64 every Exception level uses AArch32");
    if (el == HighestEL(pe))
        return fail(err, errlen, "the highest Exception level uses AArch64 (HaveAArch64())");
    const bool el2_here = EL2Enabled(pe);
    switch (el) {
    case EL2:
        if (!IsSecureBelowEL3(pe) || !IsFeatureImplemented(pe, SEL2))
            set_bit(&REG(pe, SCR_EL3), SCR_EL3_RW_LO, !aarch32);
        else
            return fail(err, errlen, "Secure EL2 uses AArch64");
        break;
    case EL1:
        if (aarch32) {
            if (el2_here && HaveEL(pe, EL2))
                set_bit(&REG(pe, HCR_EL2), HCR_EL2_RW_LO, false);
            else
                set_bit(&REG(pe, SCR_EL3), SCR_EL3_RW_LO, false);
        } else {
            if (HaveEL(pe, EL2)) set_bit(&REG(pe, HCR_EL2), HCR_EL2_RW_LO, true);
            if (HaveEL(pe, EL3)) set_bit(&REG(pe, SCR_EL3), SCR_EL3_RW_LO, true);
        }
        break;
    default: /* EL0 */
        if (!aarch32 && ELUsingAArch32(pe, EL1))
            return fail(err, errlen, "EL0 must use AArch32 while EL1 does");
        pe->ctx.nrw = aarch32;
        break;
    }
    pe_recompute(pe);
    pe_outputs_check(pe);
    if (ELUsingAArch32(pe, el) != aarch32)
        return fail(err, errlen,
                    aarch32 ? "the controls above it keep that Exception level in AArch64 here"
                            : "the controls above it keep that Exception level in AArch32 here");
    return true;
}

bool armprof_el_using_aarch32(const armprof_pe *pe, unsigned el)
{
    return pe && el <= EL3 && ELUsingAArch32(pe, el); /* ELUsingAArch32() takes el & 3 */
}

void armprof_set_debug_state(armprof_pe *pe, bool halted)
{
    if (halted && !pe->ctx.halted) {
        pe->ctx.edscr_sdd = pe_sdd_on_debug_entry(pe);
        pcsr_left_sampling(pe); /* samples are UNKNOWN until a branch retires */
    }
    /* EDPRSR.SDR: 'Set to 1 when the PE exits Debug state'. */
    if (!halted && pe->ctx.halted) ext_edprsr_set(pe, EDPRSR_SDR);
    pe->ctx.halted = halted;
    pe_recompute(pe);
    pe_outputs_check(pe);
}

bool armprof_in_debug_state(const armprof_pe *pe)
{
    return pe->ctx.halted;
}
/* Powering the Core power domain down loses the state of the debug
 * registers in it: EDPRSR.SPD. */
void armprof_set_core_power(armprof_pe *pe, bool on)
{
    if (!on && pe->ctx.core_powered) ext_edprsr_set(pe, EDPRSR_SPD);
    pe->ctx.core_powered = on;
}
bool armprof_core_powered(const armprof_pe *pe)
{
    return pe->ctx.core_powered;
}
void armprof_set_pstate_pm(armprof_pe *pe, bool pm)
{
    pe->ctx.pstate_pm = pm; /* masks SPE Profiling exceptions */
    pe_outputs_check(pe);
}

void armprof_set_os_lock(armprof_pe *pe, bool locked)
{
    pe->ctx.os_lock = locked;
}
bool armprof_os_locked(const armprof_pe *pe)
{
    return pe->ctx.os_lock;
}

void armprof_set_signal(armprof_pe *pe, armprof_signal sig, bool high)
{
    if ((unsigned)sig >= ARMPROF_SIG_COUNT) return;
    pe->ctx.signal[sig] = high;
    pe_recompute(pe);
    pe_outputs_check(pe);
}

bool armprof_signal_level(const armprof_pe *pe, armprof_signal sig)
{
    return (unsigned)sig < ARMPROF_SIG_COUNT && pe->ctx.signal[sig];
}

void armprof_set_os_double_lock(armprof_pe *pe, bool locked)
{
    pe->ctx.os_double_lock = locked;
}

bool armprof_os_double_locked(const armprof_pe *pe)
{
    return pe->ctx.os_double_lock;
}
