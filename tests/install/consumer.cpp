// SPDX-License-Identifier: BSD-3-Clause
// A C++17 program on the installed library: every public header included
// (C++ has its own rules for what a C header may contain), the README's
// trap as consumer.c checks it, and the parts of the API a C++ embedder
// meets that C does not: the size-versioned structs' initialisers, an enum
// argument (armprof_pas) and a checkpoint round trip.
#include <armprof/a64.h>
#include <armprof/armprof.h>
#include <armprof/config.h>
#include <armprof/decode.h>
#include <armprof/elf.h>
#include <armprof/export.h>
#include <armprof/kernel.h>
#include <armprof/memory.h>
#include <armprof/outfile.h>
#include <armprof/perfdata.h>
#include <armprof/types.h>
#include <armprof/version.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace
{

bool retires(armprof_pe *pe)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x400000;
    op.op_class = ARMPROF_OP_OTHER;
    armprof_retire(pe, &op);
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    run.ops = 1;
    run.last_pc = 0x400004;
    return op.size == sizeof op && run.size == sizeof run &&
           (armprof_ops_until_event(pe) < 1 || armprof_retire_run(pe, &run)) &&
           armprof_invalid_ops(pe) == 0;
}

// A word written to Non-secure physical memory is restored by a checkpoint
// taken before it was overwritten.
bool checkpoint_round_trip(armprof_pe *pe)
{
    armprof_mem *mem = armprof_pe_memory(pe);
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, 0x80000000, 0x1234);
    std::vector<unsigned char> saved(armprof_checkpoint_size(pe));
    if (armprof_checkpoint_save(pe, saved.data(), saved.size()) != saved.size()) return false;
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, 0x80000000, 0x5678);
    char err[256] = "";
    if (!armprof_checkpoint_restore(pe, saved.data(), saved.size(), err, sizeof err)) {
        std::fprintf(stderr, "consumer.cpp: restore: %s\n", err);
        return false;
    }
    return armprof_mem_read64(mem, ARMPROF_PAS_NONSECURE, 0x80000000) == 0x1234 &&
           armprof_mem_read64(mem, ARMPROF_PAS_SECURE, 0x80000000) == 0;
}

} // namespace

int main()
{
    armprof_config cfg;
    armprof_config_preset(&cfg, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    armprof_set_el(pe, 1, err, sizeof err);
    const armprof_outcome o = armprof_mrs(pe, armprof_sysreg_encoding(3, 0, 9, 13, 3), 0);
    const bool trap = o.kind == ARMPROF_TRAP && o.target_el == 2 && o.iss == 0x36241b;
    const bool ok =
        trap && retires(pe) && checkpoint_round_trip(pe) && std::strlen(armprof_build_id()) == 32;
    std::printf("consumer.cpp: %s\n",
                ok ? "trap to EL2, retire, checkpoint as expected" : "unexpected outcome");
    armprof_pe_destroy(pe);
    return ok ? 0 : 1;
}
