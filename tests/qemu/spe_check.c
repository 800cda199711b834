/* SPDX-License-Identifier: BSD-3-Clause */
/* What the QEMU plugin tests need to know of a record file, for
 * tests/qemu/run.sh to compare with what the program does:
 *
 *   spe_check FILE [--range NAME LO HI]... [--data LO HI]
 *
 * prints "records N" (or "error MESSAGE at OFFSET" and exits 1), for each
 * range "range NAME K" (records whose PC is in [LO, HI)), with --data
 * "data_in K" and "data_out K" (records with a data virtual address in and
 * out of [LO, HI)), "contexts C" (distinct CONTEXTIDR_EL1 values),
 * "no_context K" (records without one), and for SVE operations (data
 * processing, loads and stores) "evl BITS K": K records with that EVL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"

enum { MAX_RANGES = 16, MAX_CONTEXTS = 64 };

static uint64_t number(const char *s)
{
    char *end;
    const unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end) {
        fprintf(stderr, "spe_check: not a number: %s\n", s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: spe_check FILE [--range NAME LO HI]... [--data LO HI]\n");
        return 2;
    }
    struct {
        const char *name;
        uint64_t lo, hi, n;
    } range[MAX_RANGES];
    unsigned nranges = 0;
    bool data = false;
    uint64_t data_lo = 0, data_hi = 0, data_in = 0, data_out = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--range") && i + 3 < argc && nranges < MAX_RANGES) {
            range[nranges].name = argv[i + 1];
            range[nranges].lo = number(argv[i + 2]);
            range[nranges].hi = number(argv[i + 3]);
            range[nranges++].n = 0;
            i += 3;
        } else if (!strcmp(argv[i], "--data") && i + 2 < argc) {
            data = true;
            data_lo = number(argv[i + 1]);
            data_hi = number(argv[i + 2]);
            i += 2;
        } else {
            fprintf(stderr, "spe_check: bad argument %s\n", argv[i]);
            return 2;
        }
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "spe_check: cannot open %s\n", argv[1]);
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return 2;
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, buf, n);
    armprof_spe_record r;
    uint64_t records = 0, no_context = 0;
    uint32_t contexts[MAX_CONTEXTS];
    unsigned ncontexts = 0;
    uint64_t evl[8] = {0};
    while (armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_OK) {
        records++;
        if (r.address_valid & 1u << ARMPROF_SPE_ADDR_PC) {
            const uint64_t pc = r.address[ARMPROF_SPE_ADDR_PC] & ((1ull << 56) - 1);
            for (unsigned i = 0; i < nranges; i++)
                range[i].n += pc >= range[i].lo && pc < range[i].hi;
        }
        if (data && (r.address_valid & 1u << ARMPROF_SPE_ADDR_DATA_VIRTUAL)) {
            const uint64_t va = r.address[ARMPROF_SPE_ADDR_DATA_VIRTUAL] & ((1ull << 56) - 1);
            if (va >= data_lo && va < data_hi)
                data_in++;
            else
                data_out++;
        }
        const armprof_spe_op op = armprof_spe_decode_op(r.op_class, r.op_subclass);
        if (op.kind == ARMPROF_SPE_OP_SVE || op.kind == ARMPROF_SPE_OP_LDST_SVE_SME)
            evl[op.evl & 7]++;
        if (!(r.context_valid & 1)) {
            no_context++;
            continue;
        }
        unsigned c = 0;
        while (c < ncontexts && contexts[c] != r.context[0])
            c++;
        if (c == ncontexts && ncontexts < MAX_CONTEXTS) contexts[ncontexts++] = r.context[0];
    }
    if (d.error) {
        printf("error %s at %zu\n", d.error, d.error_offset);
        return 1;
    }
    printf("records %llu\n", (unsigned long long)records);
    for (unsigned i = 0; i < nranges; i++)
        printf("range %s %llu\n", range[i].name, (unsigned long long)range[i].n);
    if (data)
        printf("data_in %llu\ndata_out %llu\n", (unsigned long long)data_in,
               (unsigned long long)data_out);
    printf("contexts %u\nno_context %llu\n", ncontexts, (unsigned long long)no_context);
    for (unsigned i = 0; i < 8; i++)
        if (evl[i]) printf("evl %u %llu\n", 32u << i, (unsigned long long)evl[i]);
    free(buf);
    return 0;
}
