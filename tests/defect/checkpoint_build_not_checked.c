/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 42, part 4: a checkpoint is tied to the library build that wrote
 * it (armprof.h, docs/embedding.md), but only the PE state's size was
 * checked: a checkpoint of another build whose state had the same size was
 * restored, its bytes read with this build's layout. The checkpoint now
 * carries armprof_build_id(); one whose build id differs is refused with
 * both ids named, and the PE is left unchanged. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

#define WORD_PA 0x80000000ull

int main(void)
{
    armprof_config cfg;
    char err[512] = "";
    armprof_config_preset(&cfg, "armv9.4-all");
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    CHECK(pe != NULL, "pe_create: %s", err);
    if (!pe) return check_summary();
    armprof_mem *mem = armprof_pe_memory(pe);
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, WORD_PA, 1);
    const size_t size = armprof_checkpoint_size(pe);
    uint8_t *cp = malloc(size);
    CHECK(cp && armprof_checkpoint_save(pe, cp, size) == size, "save");
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, WORD_PA, 2);

    /* The id is in the checkpoint as its 32 digits. */
    const char *id = armprof_build_id();
    CHECK(strlen(id) == 32, "build id \"%s\" is not 32 digits", id);
    char *at = memmem(cp, size, id, strlen(id));
    CHECK(at != NULL, "the checkpoint does not hold the build id %s", id);
    if (at) {
        /* Another build: one digit differs. */
        const char saved = at[5];
        at[5] = saved == '0' ? '1' : '0';
        char other[33];
        memcpy(other, at, 32);
        other[32] = '\0';
        CHECK(!armprof_checkpoint_restore(pe, cp, size, err, sizeof err),
              "a checkpoint of another build is restored");
        CHECK(strstr(err, "another library build") && strstr(err, other) && strstr(err, id),
              "the refusal does not name the build and both ids: %s", err);
        CHECK(armprof_mem_read64(mem, ARMPROF_PAS_NONSECURE, WORD_PA) == 2,
              "a refused restore changed the PE's memory");

        /* Not an id at all. */
        at[5] = '\n';
        CHECK(!armprof_checkpoint_restore(pe, cp, size, err, sizeof err) &&
                  strstr(err, "another library build") && strstr(err, "not 32 hexadecimal"),
              "a build id that is not digits: %s", err);

        /* With its own id the same checkpoint restores: the id was all
         * that was wrong. */
        at[5] = saved;
        CHECK(armprof_checkpoint_restore(pe, cp, size, err, sizeof err), "restore: %s", err);
        CHECK(armprof_mem_read64(mem, ARMPROF_PAS_NONSECURE, WORD_PA) == 1,
              "the restored memory does not hold the saved word");
    }
    free(cp);
    armprof_pe_destroy(pe);
    return check_summary();
}
