/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration rules that are the Statistical Profiling unit's: the
 * sizes of the packets it records against PMSIDR_EL1.MaxSize, and the
 * Profiling Buffer's ID values the architecture version forbids. */
#include "core/config.h"
#include "spe/spe_unit.h"

bool spe_config_validate(const armprof_config *c, char *err, size_t errlen)
{
#define HAS(x) armprof_config_has(c, ARMPROF_FEAT_##x)
    if (!HAS(SPE)) return true;
    /* SPEGetEventsPayloadSize(), SPEGetDataSourcePayloadSize() and
     * PMSIDR_EL1.MaxSize must agree with the packets the configuration
     * records (spe/record.c). */
    const uint64_t ev = c->options[ARMPROF_OPT_SPE_EVENTS_PAYLOAD];
    if (ev != 0 && ev != 2 && ev != 4 && ev != 8)
        return config_fail(err, errlen, "option %s must be 0, 2, 4 or 8%s%s",
                           "spe_events_payload_bytes", "", "");
    armprof_config automatic = *c;
    automatic.options[ARMPROF_OPT_SPE_EVENTS_PAYLOAD] = 0;
    if (ev != 0 && ev < SPEGetEventsPayloadSize(&automatic))
        return config_fail(err, errlen,
                           "option %s is too small for the events this configuration records%s%s",
                           "spe_events_payload_bytes", "", "");
    if (HAS(SPE_FDS) && c->options[ARMPROF_OPT_SPE_DS_PAYLOAD] == 0)
        return config_fail(err, errlen, "%s needs Data Source packets (option %s not 0)%s",
                           "FEAT_SPE_FDS", "spe_data_source_bytes", "");
    if (spe_max_record_size(c) > ((size_t)1 << c->options[ARMPROF_OPT_PMSIDR_MAXSIZE]))
        return config_fail(err, errlen,
                           "option %s is too small: a record of this configuration's packets, "
                           "padded to %s, can be larger%s",
                           "pmsidr_maxsize", "pmbidr_align", "");
    /* PMBIDR_EL1.EA 0b0000 (External aborts reported to the SPU) is
     * not permitted from Armv8.8 (FEAT_SPEv1p3, D17.8.4.4 ITCPLL), and
     * DebugWriteExternalAbort() asserts it is not used with
     * FEAT_SPE_EXC. */
    if (c->options[ARMPROF_OPT_PMBIDR_EA] == ARMPROF_PMBIDR_EA_NOT_DESCRIBED &&
        (HAS(SPEv1p3) || HAS(SPE_EXC)))
        return config_fail(err, errlen,
                           "option %s 0 (External aborts reported to the SPU) is not "
                           "permitted with %s%s",
                           "pmbidr_ea", HAS(SPEv1p3) ? "FEAT_SPEv1p3" : "FEAT_SPE_EXC", "");
    if (c->options[ARMPROF_OPT_PMBIDR_F] == 0 && HAS(SPEv1p3))
        return config_fail(err, errlen, "option %s 0 is not permitted with %s (D17.8.3.1)%s",
                           "pmbidr_f", "FEAT_SPEv1p3", "");
#undef HAS
    return true;
}
