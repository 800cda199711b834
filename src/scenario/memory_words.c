/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory statements of the scenario language (memory_words.h). The table
 * builder writes VMSAv8-64 descriptors for the 4KB granule with a 48-bit
 * input address (TxSZ 16, start level 0): Table descriptors (bits[1:0]
 * 0b11, next-level address in [47:12]) and Page descriptors at level 3
 * (bits[1:0] 0b11, output address in [47:12], attributes as below). */
#include "scenario/memory_words.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PAGE 4096u

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return MEMORY_ERROR;
}

static bool number(const char *s, uint64_t *v)
{
    return armprof_parse_number(s, v);
}

static int pas_word(const char *w)
{
    static const char *const names[] = {"nonsecure", "secure", "realm", "root"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(w, names[i])) return i;
    if (!strcmp(w, "any")) return -1;
    return -2;
}

/* An optional leading `pas NAME`: consumes it and returns the PAS. */
static int take_pas(char **w, int n, int *i, int dflt, char *err, size_t errlen)
{
    if (*i + 1 < n && !strcmp(w[*i], "pas")) {
        const int p = pas_word(w[*i + 1]);
        if (p < -1 || (p == -1 && dflt != -1)) {
            fail(err, errlen,
                 "unknown physical address space '%s' (nonsecure, secure, realm, root)", w[*i + 1]);
            return -3;
        }
        *i += 2;
        return p;
    }
    return dflt;
}

static int hex_bytes(char **w, int n, int i, uint8_t *out, size_t cap, size_t *len, char *err,
                     size_t errlen)
{
    *len = 0;
    for (; i < n; i++) {
        const char *h = w[i];
        const size_t l = strlen(h);
        if (l % 2) return fail(err, errlen, "'%s' is not whole bytes of hex", h);
        for (size_t k = 0; k < l; k += 2) {
            unsigned b;
            char two[3] = {h[k], h[k + 1], 0};
            if (sscanf(two, "%2x", &b) != 1 || !strchr("0123456789abcdefABCDEF", h[k]) ||
                !strchr("0123456789abcdefABCDEF", h[k + 1]))
                return fail(err, errlen, "'%s' is not hex", h);
            if (*len == cap) return fail(err, errlen, "too many bytes at '%s'", h);
            out[(*len)++] = (uint8_t)b;
        }
    }
    if (*len == 0) return fail(err, errlen, "%s", "no bytes given");
    return MEMORY_HANDLED;
}

/* memory region BASE SIZE [words] */
static int region(armprof_mem *mem, char **w, int n, char *err, size_t errlen)
{
    armprof_mem_region r = {.pas = -1, .cacheability = 2, .shareability = 3};
    if (n < 4 || !number(w[2], &r.base) || !number(w[3], &r.size))
        return fail(err, errlen, "%s",
                    "usage: memory region BASE SIZE [pas P] [normal|device] [nc|wt|wb] "
                    "[ngnrne|ngnre|ngre|gre] [sh non|outer|inner] [fault sync|async|gpt] [walk] "
                    "[gpi nonsecure,secure,realm,root]");
    for (int i = 4; i < n; i++) {
        const char *x = w[i];
        const char *next = i + 1 < n ? w[i + 1] : NULL;
        if (!strcmp(x, "pas") && next) {
            r.pas = pas_word(next);
            if (r.pas < -1) return fail(err, errlen, "unknown physical address space '%s'", next);
            i++;
        } else if (!strcmp(x, "normal")) {
            r.type = ARMPROF_MEM_NORMAL;
        } else if (!strcmp(x, "device")) {
            r.type = ARMPROF_MEM_DEVICE;
        } else if (!strcmp(x, "nc") || !strcmp(x, "wt") || !strcmp(x, "wb")) {
            r.cacheability = x[0] == 'n' ? 0 : x[1] == 't' ? 1 : 2;
        } else if (!strcmp(x, "ngnrne") || !strcmp(x, "ngnre") || !strcmp(x, "ngre") ||
                   !strcmp(x, "gre")) {
            r.type = ARMPROF_MEM_DEVICE;
            r.device = !strcmp(x, "ngnrne")  ? 0
                       : !strcmp(x, "ngnre") ? 1
                       : !strcmp(x, "ngre")  ? 2
                                             : 3;
        } else if (!strcmp(x, "sh") && next) {
            if (!strcmp(next, "non"))
                r.shareability = 0;
            else if (!strcmp(next, "outer"))
                r.shareability = 2;
            else if (!strcmp(next, "inner"))
                r.shareability = 3;
            else
                return fail(err, errlen, "shareability '%s': non, outer or inner", next);
            i++;
        } else if (!strcmp(x, "fault") && next) {
            if (!strcmp(next, "sync"))
                r.fault = ARMPROF_MEM_FAULT_SYNC_EXTERNAL;
            else if (!strcmp(next, "async"))
                r.fault = ARMPROF_MEM_FAULT_ASYNC_EXTERNAL;
            else if (!strcmp(next, "gpt"))
                r.fault = ARMPROF_MEM_FAULT_GPT_WALK;
            else
                return fail(err, errlen, "fault '%s': sync, async or gpt", next);
            i++;
        } else if (!strcmp(x, "walk")) {
            r.fault_on_walk = true;
        } else if (!strcmp(x, "gpi") && next) {
            char list[128];
            snprintf(list, sizeof list, "%s", next);
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                const int p = pas_word(tok);
                if (p < 0)
                    return fail(err, errlen, "gpi: unknown physical address space '%s'", tok);
                r.gpi |= 1u << p;
            }
            i++;
        } else {
            return fail(err, errlen, "memory region: unknown word '%s'", x);
        }
    }
    if (!armprof_mem_add_region(mem, &r, err, errlen)) return MEMORY_ERROR;
    return MEMORY_HANDLED;
}

/* Descriptor attribute words of `map`. */
typedef struct desc_word {
    const char *word;
    unsigned lo, width;
    bool stage2; /* only for `map s2` (false: both stages) */
    bool s1_only;
} desc_word;

static const desc_word desc_words[] = {
    {"attr", 2, 3, false, true},         /* AttrIndx[2:0] */
    {"ns", 5, 1, false, true},           /* NS */
    {"ap", 6, 2, false, true},           /* AP[2:1] */
    {"memattr", 2, 4, true, false},      /* stage 2 MemAttr[3:0] */
    {"s2ap", 6, 2, true, false},         /* stage 2 S2AP[1:0] */
    {"sh", 8, 2, false, false},          /* SH[1:0] */
    {"af", 10, 1, false, false},         /* AF */
    {"ng", 11, 1, false, true},          /* nG */
    {"dbm", 51, 1, false, false},        /* DBM */
    {"assuredonly", 58, 1, true, false}, /* stage 2 AssuredOnly (FEAT_THE) */
};

/* The most one `map` statement maps: 1GB, 262144 pages. A larger range is
 * several statements, or a mistake the model should name rather than spend
 * minutes and memory on. */
#define MAP_MAX_SIZE (1ull << 30)
/* The most all `map` statements of a run map together: 8GB, whose leaf
 * tables alone take 16MB (distinct ranges each need their own). Without it
 * a run of many statements grew without bound. */
#define MAP_MAX_TOTAL (8ull << 30)

/* A byte range that wraps past 2^64 would be silently split by the memory
 * model into two far-apart pieces; name it instead. */
static int range_wraps(uint64_t addr, size_t len, const char *what, char *err, size_t errlen)
{
    if (len && addr > UINT64_MAX - (len - 1))
        return fail(err, errlen, "%s: ADDRESS 0x%llx + %zu bytes wraps past 2^64", what,
                    (unsigned long long)addr, len);
    return 0;
}

/* map s1|s2 ROOT IA OA SIZE [WORD VALUE]... [bits VALUE] */
static int map(armprof_mem *mem, scenario_tables *t, char **w, int n, char *err, size_t errlen)
{
    uint64_t root, ia, oa, size;
    const bool s2 = n > 1 && !strcmp(w[1], "s2");
    if (n < 6 || (strcmp(w[1], "s1") && !s2) || !number(w[2], &root) || !number(w[3], &ia) ||
        !number(w[4], &oa) || !number(w[5], &size))
        return fail(err, errlen, "%s",
                    "usage: map s1|s2 ROOT INPUT OUTPUT SIZE [attr N] [ap N] [sh N] [af N] [ns 1] "
                    "[ng 1] [dbm 1] [memattr N] [s2ap N] [assuredonly 1] [bits VALUE] [invalid]");
    /* Defaults: valid Page, AF 1, Inner Shareable; stage 1 AttrIndx 0 and
     * AP 0b00 (read/write at EL1/EL2); stage 2 MemAttr 0b1111 (Normal
     * Write-Back) and S2AP 0b11 (read/write). */
    uint64_t desc = 3u | 3u << 8 | 1u << 10;
    if (s2) desc |= 0xFu << 2 | 3u << 6;
    bool invalid = false;
    for (int i = 6; i < n; i++) {
        if (!strcmp(w[i], "invalid")) {
            invalid = true;
            continue;
        }
        if (i + 1 >= n) return fail(err, errlen, "map: '%s' needs a value", w[i]);
        uint64_t v;
        if (!number(w[i + 1], &v)) return fail(err, errlen, "map: '%s' is not a number", w[i + 1]);
        if (!strcmp(w[i], "bits")) {
            desc |= v;
            i++;
            continue;
        }
        const desc_word *d = NULL;
        for (size_t k = 0; k < sizeof desc_words / sizeof desc_words[0]; k++)
            if (!strcmp(w[i], desc_words[k].word)) d = &desc_words[k];
        if (!d || (d->stage2 && !s2) || (d->s1_only && s2))
            return fail(err, errlen, "map: unknown descriptor word '%s' for this stage", w[i]);
        if (v >> d->width) return fail(err, errlen, "map: value of '%s' too wide", w[i]);
        const uint64_t mask = ((1ull << d->width) - 1) << d->lo;
        desc = (desc & ~mask) | v << d->lo;
        i++;
    }
    if (invalid) desc &= ~3ull;
    if ((root | ia | oa | size) & (PAGE - 1))
        return fail(err, errlen, "%s", "map: ROOT, INPUT, OUTPUT and SIZE must be 4KB aligned");
    /* The tables are 4KB-granule, four levels: 48-bit addresses. */
    if (size == 0) return fail(err, errlen, "%s", "map: SIZE is 0 (at least 4KB)");
    if (size > MAP_MAX_SIZE)
        return fail(err, errlen,
                    "map: SIZE 0x%llx is more than one statement maps (at most 0x%llx)",
                    (unsigned long long)size, (unsigned long long)MAP_MAX_SIZE);
    if (size > MAP_MAX_TOTAL - t->mapped)
        return fail(err, errlen,
                    "map: the run would map 0x%llx bytes, more than all `map` statements of a "
                    "run may map together (at most 0x%llx)",
                    (unsigned long long)(t->mapped + size), (unsigned long long)MAP_MAX_TOTAL);
    if (ia >> 48 || size > (1ull << 48) - ia)
        return fail(err, errlen, "%s", "map: INPUT + SIZE goes past 48 bits");
    if (oa >> 48 || size > (1ull << 48) - oa)
        return fail(err, errlen, "%s", "map: OUTPUT + SIZE goes past 48 bits");
    for (uint64_t off = 0; off < size; off += PAGE) {
        const uint64_t a = ia + off;
        uint64_t table = root;
        for (int level = 0; level < 3; level++) {
            const uint64_t slot = table + 8 * ((a >> (39 - 9 * level)) & 0x1FF);
            uint64_t e = armprof_mem_read64(mem, t->pas, slot);
            if ((e & 3) != 3) {
                if (!t->next || t->next >= t->end)
                    return fail(err, errlen, "%s",
                                "map: no room for a table (give `pagetables BASE SIZE` first)");
                e = t->next | 3;
                t->next += PAGE;
                armprof_mem_write64(mem, t->pas, slot, e);
            }
            table = e & 0x0000FFFFFFFFF000ull;
        }
        const uint64_t slot = table + 8 * ((a >> 12) & 0x1FF);
        armprof_mem_write64(mem, t->pas, slot, desc | ((oa + off) & 0x0000FFFFFFFFF000ull));
    }
    t->mapped += size;
    return MEMORY_HANDLED;
}

bool scenario_is_memory_statement(char **w, int n)
{
    if (n < 1) return false;
    if (!strcmp(w[0], "memory") || !strcmp(w[0], "pagetables") || !strcmp(w[0], "map")) return true;
    return n >= 2 && !strcmp(w[0], "expect") &&
           (!strcmp(w[1], "memory") || !strcmp(w[1], "memory64"));
}

int scenario_memory_statement(armprof_pe *pe, scenario_tables *tables, char **w, int n,
                              memory_check *check, char *err, size_t errlen)
{
    check->is_check = false;
    if (!scenario_is_memory_statement(w, n)) return MEMORY_NOT_MINE;
    armprof_mem *mem = armprof_pe_memory(pe);
    if (!strcmp(w[0], "pagetables")) {
        uint64_t base, size;
        int i = 1;
        const int pas = take_pas(w, n, &i, ARMPROF_PAS_NONSECURE, err, errlen);
        if (pas < -1) return MEMORY_ERROR;
        if (n - i != 2 || !number(w[i], &base) || !number(w[i + 1], &size) || (base & (PAGE - 1)))
            return fail(err, errlen, "%s",
                        "usage: pagetables [pas P] BASE SIZE (BASE 4KB aligned)");
        if (size > UINT64_MAX - base)
            return fail(err, errlen, "%s", "pagetables: BASE + SIZE wraps past 2^64");
        tables->next = base;
        tables->end = base + size;
        tables->pas = pas;
        return MEMORY_HANDLED;
    }
    if (!strcmp(w[0], "map")) return map(mem, tables, w, n, err, errlen);
    if (!strcmp(w[0], "memory")) {
        if (n >= 2 && !strcmp(w[1], "region")) return region(mem, w, n, err, errlen);
        if (n >= 2 && !strcmp(w[1], "clear-regions")) {
            armprof_mem_clear_regions(mem);
            return MEMORY_HANDLED;
        }
        int i = 2;
        if (n >= 2 && (!strcmp(w[1], "write") || !strcmp(w[1], "write64"))) {
            const int pas = take_pas(w, n, &i, ARMPROF_PAS_NONSECURE, err, errlen);
            uint64_t addr, v;
            if (pas < -1) return MEMORY_ERROR;
            if (i >= n || !number(w[i], &addr))
                return fail(err, errlen, "usage: memory %s [pas P] ADDRESS ...", w[1]);
            if (!strcmp(w[1], "write64")) {
                if (n - i != 2 || !number(w[i + 1], &v))
                    return fail(err, errlen, "%s", "usage: memory write64 [pas P] ADDRESS VALUE");
                if (range_wraps(addr, 8, "memory write64", err, errlen)) return MEMORY_ERROR;
                armprof_mem_write64(mem, pas, addr, v);
                return MEMORY_HANDLED;
            }
            uint8_t bytes[256];
            size_t len;
            if (hex_bytes(w, n, i + 1, bytes, sizeof bytes, &len, err, errlen)) return MEMORY_ERROR;
            if (range_wraps(addr, len, "memory write", err, errlen)) return MEMORY_ERROR;
            armprof_mem_write(mem, pas, addr, bytes, len);
            return MEMORY_HANDLED;
        }
        return fail(err, errlen,
                    "unknown memory statement '%s' (region, clear-regions, write, write64)",
                    n >= 2 ? w[1] : "");
    }
    /* expect memory [pas P] ADDRESS HEX... | expect memory64 [pas P] ADDRESS VALUE */
    int i = 2;
    const int pas = take_pas(w, n, &i, ARMPROF_PAS_NONSECURE, err, errlen);
    uint64_t addr;
    if (pas < -1) return MEMORY_ERROR;
    if (i >= n || !number(w[i], &addr))
        return fail(err, errlen, "usage: expect %s [pas P] ADDRESS ...", w[1]);
    check->is_check = true;
    if (!strcmp(w[1], "memory64")) {
        uint64_t want;
        if (n - i != 2 || !number(w[i + 1], &want))
            return fail(err, errlen, "%s", "usage: expect memory64 [pas P] ADDRESS VALUE");
        if (range_wraps(addr, 8, "expect memory64", err, errlen)) return MEMORY_ERROR;
        const uint64_t got = armprof_mem_read64(mem, pas, addr);
        check->ok = got == want;
        snprintf(check->got, sizeof check->got, "0x%llx", (unsigned long long)got);
        return MEMORY_HANDLED;
    }
    uint8_t want[256], got[256];
    size_t len;
    if (hex_bytes(w, n, i + 1, want, sizeof want, &len, err, errlen)) return MEMORY_ERROR;
    if (range_wraps(addr, len, "expect memory", err, errlen)) return MEMORY_ERROR;
    armprof_mem_read(mem, pas, addr, got, len);
    check->ok = memcmp(want, got, len) == 0;
    size_t pos = 0;
    for (size_t k = 0; k < len && pos + 4 < sizeof check->got; k++)
        pos += (size_t)snprintf(check->got + pos, sizeof check->got - pos, "%s%02x", k ? " " : "",
                                got[k]);
    return MEMORY_HANDLED;
}
