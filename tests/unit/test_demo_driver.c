/* SPDX-License-Identifier: BSD-3-Clause */
/* `armprof demo`'s system software and workload (src/cli/demo_driver.c,
 * demo_workload.c), run without the command:
 * - every register access the firmware, hypervisor and kernel make
 *   completes (no trap left unhandled);
 * - the bytes the kernel copied out of the Profiling Buffer are exactly the
 *   records the unit constructed, in order (the sink's), none lost, and
 *   they decode to as many records;
 * - each PMBIRQ was one buffer full event (D17.8.2), and the PMU counter
 *   programmed for SAMPLE_BUFFER_FULL counted as many;
 * - each PMU snapshot succeeded, and between two of them the instruction
 *   counter's saved value advanced by the instructions of the phase;
 * - every record's PC is EL0 code of one of the phases, and PC sampling
 *   saw every phase;
 * - the run is deterministic. */
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "check.h"
#include "cli/demo_driver.h"

#define OPS 600000u

static void check_records(const demo_result *r)
{
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, r->data, r->size);
    armprof_spe_record rec;
    uint64_t n = 0, bad_pc = 0, bad_context = 0, per_phase[DEMO_PHASES + 1] = {0};
    while (armprof_spe_next_record(&d, &rec) == ARMPROF_SPE_DECODE_OK) {
        n++;
        if (!(rec.address_valid & 1u << ARMPROF_SPE_ADDR_PC)) {
            bad_pc++;
            continue;
        }
        const uint64_t a = rec.address[ARMPROF_SPE_ADDR_PC];
        /* EL, byte 7 bits [6:5], is 0; NS, bit 7, is 1 */
        if ((a >> 61 & 3) != 0 || !(a >> 63)) bad_pc++;
        const unsigned phase = demo_phase_of_pc(a & ((1ull << 56) - 1));
        per_phase[phase]++;
        /* PMSCR_EL1.CX: the Context packet with INDEX 0 holds CONTEXTIDR_EL1
         * (D18.2.2), the PID the kernel wrote when it switched to the task */
        if (!(rec.context_valid & 1) || rec.context[0] != DEMO_PID(phase)) bad_context++;
    }
    CHECK(d.error == NULL, "decoding stopped: %s at %zu", d.error ? d.error : "", d.error_offset);
    CHECK(n == r->stats.records, "%llu records decoded, %llu constructed", (unsigned long long)n,
          (unsigned long long)r->stats.records);
    CHECK(bad_pc == 0, "%llu records without an EL0 Non-secure PC", (unsigned long long)bad_pc);
    CHECK(bad_context == 0, "%llu records without their task's CONTEXTIDR_EL1",
          (unsigned long long)bad_context);
    CHECK(per_phase[DEMO_PHASES] == 0, "%llu records outside the phases' code",
          (unsigned long long)per_phase[DEMO_PHASES]);
    for (unsigned p = 0; p < DEMO_PHASES; p++)
        CHECK(per_phase[p] > r->stats.records / 8, "phase %s: %llu records", demo_phase_name(p),
              (unsigned long long)per_phase[p]);
}

int main(void)
{
    demo_params p = {.ops = OPS, .log = NULL};
    demo_result r, again;
    char err[256];
    CHECK(demo_run(&p, &r, err, sizeof err), "%s", err);
    CHECK(r.failures == 0, "%u register accesses failed: %s", r.failures, r.failure);

    /* the file's bytes are the sink's records */
    CHECK(r.size == r.sink_size && r.size > 0, "copied out %zu bytes, the unit constructed %zu",
          r.size, r.sink_size);
    CHECK(r.size == r.sink_size && memcmp(r.data, r.sink_data, r.size) == 0,
          "the bytes copied out are the records the unit constructed");
    CHECK(r.stats.written == r.stats.records && r.sink_records == r.stats.records &&
              r.stats.lost == 0 && r.stats.held == 0,
          "records %llu, written %llu, lost %llu", (unsigned long long)r.stats.records,
          (unsigned long long)r.stats.written, (unsigned long long)r.stats.lost);
    CHECK(r.stats.written_bytes == r.size, "bytes written %llu",
          (unsigned long long)r.stats.written_bytes);
    CHECK(r.size % (1u << r.align_log2) == 0, "records padded to 2^Align");
    check_records(&r);

    /* interrupts */
    CHECK(r.buffer_full >= 2, "buffer full %llu times", (unsigned long long)r.buffer_full);
    CHECK(r.irqs == r.buffer_full && r.faults == 0 && r.truncated == 0 && r.irq_stuck == 0,
          "irqs %llu, full %llu, faults %llu, DL %llu, stuck %llu", (unsigned long long)r.irqs,
          (unsigned long long)r.buffer_full, (unsigned long long)r.faults,
          (unsigned long long)r.truncated, (unsigned long long)r.irq_stuck);
    CHECK(r.stats.management_events == r.buffer_full, "management events %llu",
          (unsigned long long)r.stats.management_events);

    /* snapshots */
    CHECK(r.snapshots == DEMO_PHASES + 1, "%u snapshots", r.snapshots);
    for (unsigned ph = 0; ph < DEMO_PHASES && ph + 1 < r.snapshots; ph++) {
        const demo_snapshot *a = &r.snapshot[ph], *b = &r.snapshot[ph + 1];
        CHECK(b->instructions - a->instructions == r.phase_ops[ph],
              "phase %u: PMICNTSVR_EL1 advanced %llu, %llu instructions retired", ph,
              (unsigned long long)(b->instructions - a->instructions),
              (unsigned long long)r.phase_ops[ph]);
        CHECK(b->cycles - a->cycles >= r.phase_ops[ph], "phase %u: at least a cycle each", ph);
        CHECK(b->counter[DEMO_COUNTERS - 1] >= a->counter[DEMO_COUNTERS - 1], "monotonic");
    }
    CHECK(r.snapshots > 0 && r.snapshot[r.snapshots - 1].counter[DEMO_COUNTERS - 1] == r.irqs,
          "SAMPLE_BUFFER_FULL counted %llu, PMBIRQs %llu",
          (unsigned long long)r.snapshot[r.snapshots - 1].counter[DEMO_COUNTERS - 1],
          (unsigned long long)r.irqs);
    /* the pointer chase misses, the stream copy does not walk much */
    CHECK(r.snapshot[2].counter[4] - r.snapshot[1].counter[4] > r.phase_ops[1] / 10,
          "pointer-chase LL_CACHE_MISS_RD");

    /* PC sampling */
    CHECK(r.pc_samples > 0 && r.pc_in_phase[DEMO_PHASES] == 0, "PC samples %llu, outside %llu",
          (unsigned long long)r.pc_samples, (unsigned long long)r.pc_in_phase[DEMO_PHASES]);
    for (unsigned ph = 0; ph < DEMO_PHASES; ph++)
        CHECK(r.pc_in_phase[ph] > 0, "PC samples in %s", demo_phase_name(ph));

    /* determinism */
    CHECK(demo_run(&p, &again, err, sizeof err), "%s", err);
    CHECK(again.size == r.size && memcmp(again.data, r.data, r.size) == 0,
          "the same run gives the same bytes");
    demo_result_free(&again);
    demo_result_free(&r);
    return check_summary();
}
