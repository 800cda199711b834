/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse physical memory: 4KB pages allocated on first write, in an
 * open-addressing hash table keyed by physical address space and page
 * number, and a short list of regions with attributes and faults. */
#include "mem/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SHIFT  12
#define PAGE_SIZE   (1u << PAGE_SHIFT)
#define MAX_REGIONS 64

typedef struct mem_page {
    uint64_t key; /* pas << 52 | page number, + 1 so that 0 marks an empty slot */
    uint8_t *data;
} mem_page;

struct armprof_mem {
    mem_page *pages;
    size_t capacity; /* power of two */
    size_t count;
    armprof_mem_region regions[MAX_REGIONS];
    size_t nregions;
    armprof_mem_observer observer;
    void *observer_ctx;
};

armprof_mem *armprof_mem_create(void)
{
    armprof_mem *mem = calloc(1, sizeof *mem);
    if (!mem) return NULL;
    mem->capacity = 64;
    mem->pages = calloc(mem->capacity, sizeof *mem->pages);
    if (!mem->pages) {
        free(mem);
        return NULL;
    }
    return mem;
}

void armprof_mem_destroy(armprof_mem *mem)
{
    if (!mem) return;
    for (size_t i = 0; i < mem->capacity; i++)
        free(mem->pages[i].data);
    free(mem->pages);
    free(mem);
}

/* A physical address space the public functions accept: 0..3
 * (armprof_pas). Others are refused rather than taken modulo 4. */
static bool pas_valid(int pas)
{
    return pas >= ARMPROF_PAS_NONSECURE && pas <= ARMPROF_PAS_ROOT;
}

static uint64_t page_key(int pas, uint64_t pa)
{
    return ((uint64_t)(pas & 3) << 52 | (pa >> PAGE_SHIFT)) + 1;
}

static size_t slot_of(uint64_t key, size_t capacity)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (capacity - 1);
}

static mem_page *find_page(const armprof_mem *mem, uint64_t key)
{
    for (size_t i = slot_of(key, mem->capacity);; i = (i + 1) & (mem->capacity - 1)) {
        mem_page *p = &mem->pages[i];
        if (p->key == key) return p;
        if (p->key == 0) return NULL;
    }
}

static bool grow(armprof_mem *mem)
{
    size_t ncap = mem->capacity * 2;
    mem_page *np = calloc(ncap, sizeof *np);
    if (!np) return false;
    for (size_t i = 0; i < mem->capacity; i++) {
        if (!mem->pages[i].key) continue;
        size_t j = slot_of(mem->pages[i].key, ncap);
        while (np[j].key)
            j = (j + 1) & (ncap - 1);
        np[j] = mem->pages[i];
    }
    free(mem->pages);
    mem->pages = np;
    mem->capacity = ncap;
    return true;
}

/* The page holding pa, allocated (zeroed) if absent. Allocation failure is
 * fatal: the model cannot keep the data it was asked to store. */
static uint8_t *page_for_write(armprof_mem *mem, int pas, uint64_t pa)
{
    uint64_t key = page_key(pas, pa);
    mem_page *p = find_page(mem, key);
    if (p) return p->data;
    if ((mem->count + 1) * 2 > mem->capacity && !grow(mem)) abort();
    size_t i = slot_of(key, mem->capacity);
    while (mem->pages[i].key)
        i = (i + 1) & (mem->capacity - 1);
    uint8_t *data = calloc(1, PAGE_SIZE);
    if (!data) abort();
    mem->pages[i].key = key;
    mem->pages[i].data = data;
    mem->count++;
    return data;
}

void armprof_mem_write(armprof_mem *mem, armprof_pas pas, uint64_t pa, const void *data,
                       size_t size)
{
    if (!mem || !pas_valid(pas)) return;
    const uint8_t *src = data;
    while (size) {
        size_t off = (size_t)(pa & (PAGE_SIZE - 1));
        size_t n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        /* The bound of n (a page) leads gcc to inline the copy as rep movsq,
         * whose start-up costs more than a record takes to build; without
         * the bound it calls the C library's memcpy. */
        __asm__("" : "+r"(n));
        memcpy(page_for_write(mem, pas, pa) + off, src, n);
        pa += n;
        src += n;
        size -= n;
    }
}

void armprof_mem_read(const armprof_mem *mem, armprof_pas pas, uint64_t pa, void *data, size_t size)
{
    uint8_t *dst = data;
    if (!mem || !pas_valid(pas)) {
        if (size) memset(dst, 0, size);
        return;
    }
    while (size) {
        size_t off = (size_t)(pa & (PAGE_SIZE - 1));
        size_t n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        const mem_page *p = find_page(mem, page_key(pas, pa));
        if (p)
            memcpy(dst, p->data + off, n);
        else
            memset(dst, 0, n);
        pa += n;
        dst += n;
        size -= n;
    }
}

uint64_t armprof_mem_read64(const armprof_mem *mem, armprof_pas pas, uint64_t pa)
{
    uint8_t b[8];
    armprof_mem_read(mem, pas, pa, b, 8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i]; /* little-endian */
    return v;
}

void armprof_mem_write64(armprof_mem *mem, armprof_pas pas, uint64_t pa, uint64_t value)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(value >> (8 * i));
    armprof_mem_write(mem, pas, pa, b, 8);
}

bool armprof_mem_add_region(armprof_mem *mem, const armprof_mem_region *r, char *err, size_t errlen)
{
    if (!mem || !r) {
        if (err && errlen)
            snprintf(err, errlen, "memory region: %s is NULL", !mem ? "mem" : "region");
        return false;
    }
    const char *problem = NULL;
    if (r->size == 0)
        problem = "size is 0";
    else if (r->base + (r->size - 1) < r->base)
        problem = "base + size wraps past 2^64";
    else if (r->pas < -1 || r->pas > ARMPROF_PAS_ROOT)
        problem = "unknown physical address space";
    /* An enum field is read as an int: a value outside it is no memory
     * type or fault, whatever bits the caller's compiler stored. */
    else if ((unsigned)r->type > ARMPROF_MEM_DEVICE)
        problem = "type must be ARMPROF_MEM_NORMAL or ARMPROF_MEM_DEVICE";
    else if ((unsigned)r->fault > ARMPROF_MEM_FAULT_GPT_WALK)
        problem = "fault must be an armprof_mem_fault (0..3)";
    /* the other type's field too: it has no value outside these */
    else if (r->device > 3)
        problem = "Device type must be 0..3 (nGnRnE, nGnRE, nGRE, GRE)";
    else if (r->cacheability > 2)
        problem = "cacheability must be 0..2 (Non-cacheable, Write-Through, Write-Back)";
    else if (r->shareability == 1 || r->shareability > 3)
        problem = "shareability must be 0, 2 or 3 (Non-, Outer, Inner Shareable)";
    else if (r->gpi > 0xF)
        problem = "gpi has bits other than ARMPROF_GPI_*";
    else if (mem->nregions == MAX_REGIONS)
        problem = "too many regions (at most 64)";
    if (problem) {
        if (err && errlen)
            snprintf(err, errlen, "memory region 0x%llx+0x%llx: %s", (unsigned long long)r->base,
                     (unsigned long long)r->size, problem);
        return false;
    }
    mem->regions[mem->nregions++] = *r;
    return true;
}

void armprof_mem_clear_regions(armprof_mem *mem)
{
    if (mem) mem->nregions = 0;
}

const armprof_mem_region *armprof_mem_region_at(const armprof_mem *mem, armprof_pas pas,
                                                uint64_t pa)
{
    if (!mem || !pas_valid(pas)) return NULL;
    for (size_t i = mem->nregions; i-- > 0;) {
        const armprof_mem_region *r = &mem->regions[i];
        if ((r->pas == -1 || r->pas == (int)pas) && pa - r->base <= r->size - 1) return r;
    }
    return NULL;
}

void armprof_mem_set_observer(armprof_mem *mem, armprof_mem_observer fn, void *ctx)
{
    if (!mem) return;
    mem->observer = fn;
    mem->observer_ctx = ctx;
}

static unsigned gpi_bit(int pas)
{
    return 1u << (pas & 3);
}

mem_status mem_check(const armprof_mem *mem, int pas, uint64_t pa, size_t size, bool is_walk,
                     bool gpc)
{
    /* Every byte of the access is checked: a region may start inside it. */
    mem_status worst = MEM_OK;
    for (size_t i = 0; i < mem->nregions; i++) {
        const armprof_mem_region *r = &mem->regions[i];
        if (r->pas != -1 && r->pas != pas) continue;
        uint64_t last = pa + (size - 1);
        if (last < r->base || pa > r->base + (r->size - 1)) continue;
        /* Only the topmost region covering a byte decides it; the simple
         * model lets any overlapping region's fault hit. Regions rarely
         * overlap in practice, and armprof_mem_region_at() gives precedence
         * where the caller wants it. */
        mem_status s = MEM_OK;
        if (gpc && r->fault == ARMPROF_MEM_FAULT_GPT_WALK)
            s = MEM_GPT_WALK;
        else if (gpc && r->gpi && !(r->gpi & gpi_bit(pas)))
            s = MEM_GPF;
        else if (!is_walk || r->fault_on_walk) {
            if (r->fault == ARMPROF_MEM_FAULT_SYNC_EXTERNAL) s = MEM_SYNC_EXTERNAL;
            if (r->fault == ARMPROF_MEM_FAULT_ASYNC_EXTERNAL) s = MEM_ASYNC_EXTERNAL;
        }
        /* Priority: GPC faults (checked before the access is made), then
         * the synchronous abort, then the asynchronous one. */
        if (s != MEM_OK && (worst == MEM_OK || s == MEM_GPT_WALK || s == MEM_GPF ||
                            (s == MEM_SYNC_EXTERNAL && worst == MEM_ASYNC_EXTERNAL)))
            worst = s;
    }
    return worst;
}

mem_status mem_read64(const armprof_mem *mem, int pas, uint64_t pa, bool gpc, uint64_t *value)
{
    mem_status s = mem_check(mem, pas, pa, 8, true, gpc);
    if (s != MEM_OK) return s;
    *value = armprof_mem_read64(mem, pas, pa);
    return MEM_OK;
}

mem_status mem_write64_walk(armprof_mem *mem, int pas, uint64_t pa, bool gpc, uint64_t value)
{
    mem_status s = mem_check(mem, pas, pa, 8, true, gpc);
    if (s != MEM_OK && s != MEM_ASYNC_EXTERNAL) return s;
    armprof_mem_write64(mem, pas, pa, value);
    return s;
}

mem_status mem_write(armprof_mem *mem, int pas, uint64_t pa, const uint8_t *data, size_t size,
                     bool gpc, const armprof_mem_attrs *attrs)
{
    mem_status s = mem_check(mem, pas, pa, size, false, gpc);
    if (s != MEM_OK && s != MEM_ASYNC_EXTERNAL) return s;
    armprof_mem_write(mem, pas, pa, data, size);
    if (mem->observer) mem->observer(mem->observer_ctx, pas, pa, data, size, attrs);
    return s;
}

/* ---- Checkpoints ----
 * The regions, then each page (its key and its bytes), in table order.
 * Nothing here is a pointer, so a checkpoint restores in another process. */

size_t mem_checkpoint_size(const armprof_mem *mem)
{
    return 2 * sizeof(uint64_t) + mem->nregions * sizeof(armprof_mem_region) +
           mem->count * (sizeof(uint64_t) + PAGE_SIZE);
}

static uint8_t *put_u64(uint8_t *out, uint64_t v)
{
    memcpy(out, &v, sizeof v);
    return out + sizeof v;
}

void mem_checkpoint_save(const armprof_mem *mem, uint8_t *out)
{
    out = put_u64(out, mem->nregions);
    memcpy(out, mem->regions, mem->nregions * sizeof(armprof_mem_region));
    out += mem->nregions * sizeof(armprof_mem_region);
    out = put_u64(out, mem->count);
    for (size_t i = 0; i < mem->capacity; i++) {
        if (!mem->pages[i].key) continue;
        out = put_u64(out, mem->pages[i].key);
        memcpy(out, mem->pages[i].data, PAGE_SIZE);
        out += PAGE_SIZE;
    }
}

/* Replaces the contents with a checkpoint's; the observer stays. */
bool mem_checkpoint_restore(armprof_mem *mem, const uint8_t *in, size_t len)
{
    uint64_t nregions, npages;
    if (len < sizeof nregions) return false;
    memcpy(&nregions, in, sizeof nregions);
    if (nregions > MAX_REGIONS) return false;
    const size_t regions_bytes = (size_t)nregions * sizeof(armprof_mem_region);
    if (len < 2 * sizeof(uint64_t) + regions_bytes) return false;
    memcpy(&npages, in + sizeof nregions + regions_bytes, sizeof npages);
    const size_t page_bytes = sizeof(uint64_t) + PAGE_SIZE;
    if (npages > (len - 2 * sizeof(uint64_t) - regions_bytes) / page_bytes ||
        len != 2 * sizeof(uint64_t) + regions_bytes + npages * page_bytes)
        return false;
    /* Every key first, so that a malformed checkpoint leaves the memory as
     * it was. */
    for (uint64_t k = 0; k < npages; k++) {
        uint64_t key;
        memcpy(&key, in + 2 * sizeof(uint64_t) + regions_bytes + k * page_bytes, sizeof key);
        if (key == 0 || ((key - 1) >> 54) != 0) return false;
    }
    for (size_t i = 0; i < mem->capacity; i++) {
        free(mem->pages[i].data);
        mem->pages[i].data = NULL;
        mem->pages[i].key = 0;
    }
    mem->count = 0;
    memcpy(mem->regions, in + sizeof nregions, regions_bytes);
    mem->nregions = (size_t)nregions;
    const uint8_t *p = in + 2 * sizeof(uint64_t) + regions_bytes;
    for (uint64_t k = 0; k < npages; k++, p += page_bytes) {
        uint64_t key;
        memcpy(&key, p, sizeof key);
        /* key - 1 is pas << 52 | page number: the page's first address */
        const uint64_t page = key - 1;
        uint8_t *data =
            page_for_write(mem, (int)(page >> 52), (page & ((1ull << 52) - 1)) << PAGE_SHIFT);
        memcpy(data, p + sizeof key, PAGE_SIZE);
    }
    return true;
}
