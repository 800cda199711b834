/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether each AUXTRACE event of a perf.data file holds whole records
 * (issue 44, part 6): perf decodes each event's bytes alone, so a record
 * cut in two between events becomes junk samples.
 *
 *   aux_check FILE
 *
 * decodes every event by itself and prints "events N records M metadata V"
 * (V: the arm_spe metadata version of AUXTRACE_INFO); for an
 * event that ends inside a record (or holds a malformed one) it prints
 * "cut EVENT AUX_OFFSET: MESSAGE at OFFSET" and exits 1; 2 when the file
 * cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: aux_check FILE\n");
        return 2;
    }
    char err[512];
    armprof_perf_file *f = armprof_perf_open(argv[1], err, sizeof err);
    if (!f) {
        fprintf(stderr, "aux_check: %s\n", err);
        return 2;
    }
    const armprof_perf_file_info *info = armprof_perf_info(f);
    unsigned long long records = 0;
    int rc = 0;
    for (size_t i = 0; i < info->nchunks; i++) {
        const armprof_perf_aux_chunk *c = &info->chunks[i];
        uint8_t *buf = malloc(c->size ? c->size : 1);
        if (!buf || armprof_perf_read_aux(f, c, 0, buf, c->size) != c->size) {
            fprintf(stderr, "aux_check: event %zu: %s\n", i,
                    buf ? armprof_perf_error(f) : "no memory");
            free(buf);
            armprof_perf_close(f);
            return 2;
        }
        armprof_spe_decoder d;
        armprof_spe_decoder_init(&d, buf, c->size);
        armprof_spe_record r;
        armprof_spe_decode_status st;
        while ((st = armprof_spe_next_record(&d, &r)) == ARMPROF_SPE_DECODE_OK)
            records++;
        if (st == ARMPROF_SPE_DECODE_ERROR) {
            printf("cut %zu %llu: %s at %zu\n", i, (unsigned long long)c->aux_offset, d.error,
                   d.error_offset);
            rc = 1;
        }
        free(buf);
    }
    printf("events %zu records %llu metadata %u\n", info->nchunks, records, info->metadata_version);
    armprof_perf_close(f);
    return rc;
}
