/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: a virtual kernel. The system software an embedder that only
 * wants records and counts would otherwise write: EL3 firmware, an EL2
 * hypervisor and an EL1 kernel that program the PMU and the Statistical
 * Profiling Extension of a PE through MSR, as Trusted Firmware, KVM's host
 * side and Linux's arm_spe_pmu and armv8 PMU drivers do, map a Profiling
 * Buffer, service its interrupt (PMBIRQ) by handing the buffer's contents
 * to a callback, and switch the context ID on a context switch.
 *
 *   armprof_kernel_params p;
 *   armprof_kernel_params_default(&p);
 *   p.data = write_records;  p.data_ctx = file;
 *   armprof_kernel *k = armprof_kernel_boot(pe, &p, err, sizeof err);
 *   armprof_kernel_switch_context(k, pid);      (the PE is now at EL0)
 *   for each instruction:
 *       armprof_retire(pe, &op);
 *       if (armprof_pmbirq(pe)) armprof_kernel_service(k);
 *   armprof_kernel_stop(k);                     (the last records out)
 *   armprof_kernel_destroy(k);
 *
 * Everything it does is an MSR, an MRS, a PSB CSYNC or a write of its own
 * translation tables into the PE's memory (armprof_pe_memory()): the model
 * decides every outcome, and a register the PE refuses is counted in
 * armprof_kernel_status.failures. docs/kernel.md lists each write and why. */
#ifndef ARMPROF_KERNEL_H
#define ARMPROF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

typedef struct armprof_kernel armprof_kernel;

/* The PMU event counters the kernel programs at most. */
#define ARMPROF_KERNEL_MAX_EVENTS 31u

/* The Profiling Buffer's contents, copied out by the PMBIRQ handler or by
 * armprof_kernel_stop(): whole records in the order the unit wrote them,
 * with their padding. */
typedef void (*armprof_kernel_data_fn)(void *ctx, const uint8_t *data, size_t size);

/* One PMBIRQ the kernel serviced. */
typedef struct armprof_kernel_irq {
    uint64_t number;  /* 1 for the first */
    uint64_t pmbsr;   /* PMBSR_EL1 as the handler read it */
    size_t bytes;     /* the bytes it copied out */
    bool buffer_full; /* a buffer full event: the buffer was restarted */
    bool truncated;   /* PMBSR_EL1.DL: the last record is incomplete */
} armprof_kernel_irq;
typedef void (*armprof_kernel_irq_fn)(void *ctx, const armprof_kernel_irq *irq);

typedef struct armprof_kernel_params {
    uint32_t size; /* sizeof(armprof_kernel_params), set by armprof_kernel_params_default();
                      a caller built before pmsnevfr was added passes its own smaller size,
                      and the fields after it take their defaults */

    /* ---- Statistical Profiling ---- */
    bool spe;           /* program SPE (default true); false: the PMU alone */
    uint32_t interval;  /* PMSIRR_EL1.INTERVAL in operations (a multiple of 256);
                           0: the minimum PMSIDR_EL1.Interval recommends (default) */
    bool random;        /* PMSIRR_EL1.RND (default true) */
    bool el0, el1;      /* PMSCR_EL1.E0SPE, E1SPE (default both) */
    bool timestamps;    /* PMSCR_EL1.TS (default true) */
    bool physical_addr; /* PMSCR_EL1.PA, with PMSCR_EL2.PA (default true) */
    bool context_id;    /* PMSCR_EL1.CX: CONTEXTIDR_EL1 in each record (default true) */
    uint64_t pmsfcr;    /* PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1: the filters */
    uint64_t pmsevfr;   /* (default 0: every sampled operation is recorded) */
    uint64_t pmslatfr;
    uint32_t buffer_pages;   /* the buffer's 4KB pages, 1..512 (default 16) */
    uint64_t buffer_va;      /* its VA, in the TTBR1_EL1 half (default 0xffff000040000000) */
    uint64_t buffer_pa;      /* the PA of its first page; the others follow (default 0x50000000) */
    const uint64_t *page_pa; /* or, when not NULL, the PA of each page (vmalloc'd pages) */
    uint64_t table_pa;       /* four 4KB translation tables (default 0x80000000) */
    armprof_kernel_data_fn data; /* where the buffer's contents go (NULL: dropped) */
    void *data_ctx;
    armprof_kernel_irq_fn irq; /* told of each PMBIRQ serviced (NULL: not told) */
    void *irq_ctx;

    /* ---- the PMU ---- */
    unsigned events; /* event counters to program, 0..ARMPROF_KERNEL_MAX_EVENTS (and at
                        most PMCR_EL0.N) */
    uint16_t event[ARMPROF_KERNEL_MAX_EVENTS]; /* their event numbers, counter 0 first */
    bool pmu_el1;                              /* count at EL1 as well as EL0 (default true) */

    /* ---- Statistical Profiling, continued ---- */
    uint64_t pmsnevfr;  /* PMSNEVFR_EL1 (FEAT_SPE_FnE; written when not 0) */
    uint64_t pmsdsfr;   /* PMSDSFR_EL1 (FEAT_SPE_FDS; written when PMSFCR_EL1.FDS is set) */
    bool physical_time; /* PMSCR_EL1.PCT 0b01, with PMSCR_EL2.PCT: physical timestamps */
} armprof_kernel_params;

/* What the kernel found and programmed at boot. */
typedef struct armprof_kernel_setup {
    uint64_t mdcr_el3, scr_el3, mdcr_el2;
    uint64_t pmbidr, pmsidr; /* PMBIDR_EL1, PMSIDR_EL1 (0 without SPE) */
    unsigned align_log2;     /* PMBIDR_EL1.Align */
    unsigned max_size_log2;  /* PMSIDR_EL1.MaxSize */
    uint32_t interval;       /* the sampling interval programmed */
    unsigned counters;       /* PMCR_EL0.N */
} armprof_kernel_setup;

/* What happened since boot. */
typedef struct armprof_kernel_status {
    uint64_t irqs;        /* PMBIRQs serviced */
    uint64_t buffer_full; /* ... buffer full events: the buffer restarted */
    uint64_t faults;      /* ... anything else: profiling stopped, as Linux does */
    uint64_t truncated;   /* PMBSR_EL1.DL seen */
    uint64_t irq_stuck;   /* PMBIRQ still asserted after the handler */
    uint64_t bytes;       /* handed to the data callback */
    bool profiling;       /* the buffer is programmed and PMSCR_EL1 enables sampling */
    unsigned traps;       /* EL1 accesses trapped to EL2, emulated there */
    unsigned failures;    /* accesses that did not complete even at EL2 */
    char failure[160];    /* the first of them */
} armprof_kernel_status;

/* The defaults above, with size set. p must not be NULL. */
void armprof_kernel_params_default(armprof_kernel_params *p);

/* One of Linux's arm_spe_pmu format attributes, "NAME=VALUE" or "NAME"
 * (VALUE 1), into p as the driver maps it (arm_spe_event_to_pmscr() and
 * the others): ts_enable, pa_enable, pct_enable (PMSCR_EL1.TS, PA, PCT),
 * jitter (PMSIRR_EL1.RND), branch_filter, load_filter, store_filter,
 * simd_filter, float_filter and their _mask forms (PMSFCR_EL1.B, LD, ST,
 * SIMD, FP, Bm... with FT), event_filter (PMSEVFR_EL1 with FE),
 * inv_event_filter (PMSNEVFR_EL1 with FnE), min_latency (PMSLATFR_EL1.MINLAT
 * with FL), inv_data_src_filter (PMSDSFR_EL1 = its complement, with FDS)
 * and data_src_filter (PMSDSFR_EL1 itself, with FDS). VALUE is a number
 * (0x for hex) that fits the attribute's width. false with a message
 * naming the attribute (and listing the accepted ones for an unknown name)
 * in err; p is then unchanged. Whether the PE has the filter is checked at
 * boot, as the driver checks PMSIDR_EL1 when an event is opened. */
bool armprof_kernel_spe_attribute(armprof_kernel_params *p, const char *attr, char *err,
                                  size_t errlen);

/* Boots the software on pe: EL3 firmware gives the Profiling Buffer and the
 * PMU to Non-secure state, the EL2 hypervisor gives them to EL1, the EL1
 * kernel maps the buffer, programs the PMU (counters enabled and reset) and
 * SPE (started), then the PE is left at Non-secure EL0. NULL with a message
 * in err (unless err is NULL) when pe or p is NULL, the parameters are out
 * of range, the PE lacks EL2, EL3 or
 * FEAT_SPE (with p->spe), the Profiling Buffer is not usable at EL1
 * (PMBIDR_EL1.P) or PMSIDR_EL1 says the unit lacks a filter p asks for. The kernel keeps pe, which
 * must outlive it; one kernel per PE. */
armprof_kernel *armprof_kernel_boot(armprof_pe *pe, const armprof_kernel_params *p, char *err,
                                    size_t errlen);
void armprof_kernel_destroy(armprof_kernel *k);

/* The PMBIRQ handler (arm_spe_pmu_irq_handler()): when PMBIRQ is asserted,
 * PSB CSYNC, the buffer's contents to the data callback, then a buffer full
 * event restarts the buffer and anything else stops profiling. Returns
 * whether PMBIRQ was asserted. The PE returns to the Exception level it was
 * at. */
bool armprof_kernel_service(armprof_kernel *k);

/* A context switch: CONTEXTIDR_EL1 = context_id, written at EL1. */
void armprof_kernel_switch_context(armprof_kernel *k, uint32_t context_id);

/* Profiling stops (arm_spe_pmu_stop()): PMSCR_EL1 = 0, PSB CSYNC, the last
 * records to the data callback, the buffer disabled. The counters keep
 * counting. Idempotent. */
void armprof_kernel_stop(armprof_kernel *k);

/* The counters, read with MRS at EL1: cycles (PMCCNTR_EL0), instructions
 * (PMICNTR_EL0 with FEAT_PMUv3_ICNTR, else 0) and event[i] for each
 * programmed counter. event may be NULL; it holds p->events values. */
void armprof_kernel_counters(armprof_kernel *k, uint64_t *cycles, uint64_t *instructions,
                             uint64_t *event);

armprof_kernel_setup armprof_kernel_get_setup(const armprof_kernel *k);
armprof_kernel_status armprof_kernel_get_status(const armprof_kernel *k);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#endif
