/* SPDX-License-Identifier: BSD-3-Clause */
/* The Profiling Buffer's translation walker (src/mmu/walk.c): stage 1 and
 * stage 2 walks over tables built in an armprof_mem, the faults and their
 * FSC encodings, and the memory attributes. Expected values come from the
 * manual: descriptor formats and walk arithmetic from the J1.1.4 pseudocode
 * (AArch64.S1Walk(), AArch64.S1TTEntryAddress(), AArch64.S1StartLevel(),
 * StageOA(), ...), register field layouts from the register pages
 * (TCR_EL1, TCR_EL2, VTCR_EL2, TTBRn_ELx, MAIR_ELx), and FSC values from
 * EncodeLDFSC() (J1.3). Each check says which. */
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "mmu/walk.h"

/* ---- Descriptor fields (VMSAv8-64 64-bit descriptors, as read by
 * AArch64.DecodeDescriptorType(), S1ApplyOutputPerms(), S1ApplyTablePerms(),
 * S1NextWalkStateLeaf(), S2ApplyOutputPerms(), S2NextWalkStateLeaf()) ---- */
#define D_VALID       (1ull << 0)
#define D_TABLE       (1ull << 1) /* bit[1]: table (levels 0-2) or page (level 3) */
#define D_NS          (1ull << 5)
#define D_AP1         (1ull << 6)
#define D_AP2         (1ull << 7)
#define D_SH(x)       ((uint64_t)(x) << 8)
#define D_AF          (1ull << 10)
#define D_DBM         (1ull << 51)
#define D_CONTIG      (1ull << 52)
#define D_AO          (1ull << 58) /* stage 2 AssuredOnly (VTCR_EL2.AssuredOnly 1) */
#define D_APTABLE0    (1ull << 61)
#define D_APTABLE1    (1ull << 62)
#define D_NSTABLE     (1ull << 63)
#define D_ATTR(i)     ((uint64_t)(i) << 2) /* AttrIndx[2:0], bits[4:2] */
#define S2_MEMATTR(a) ((uint64_t)(a) << 2) /* MemAttr[3:0], bits[5:2] */
#define S2AP(a)       ((uint64_t)(a) << 6) /* S2AP[1:0], bits[7:6] */

/* ---- Register fields ---- */
/* TCR_EL1 (and TCR_EL2 with E2H 1) */
#define TCR_T0SZ(x) ((uint64_t)(x) << 0)
#define TCR_EPD0    (1ull << 7)
#define TCR_SH0(x)  ((uint64_t)(x) << 12)
#define TCR_TG0(x)  ((uint64_t)(x) << 14) /* 0b00 4KB, 0b01 64KB, 0b10 16KB */
#define TCR_T1SZ(x) ((uint64_t)(x) << 16)
#define TCR_EPD1    (1ull << 23)
#define TCR_SH1(x)  ((uint64_t)(x) << 28)
#define TCR_TG1(x)  ((uint64_t)(x) << 30) /* 0b01 16KB, 0b10 4KB, 0b11 64KB */
#define TCR_IPS(x)  ((uint64_t)(x) << 32) /* 0b000 32 bits ... 0b101 48, 0b110 52 */
#define TCR_TBI0    (1ull << 37)
#define TCR_TBI1    (1ull << 38)
#define TCR_HA      (1ull << 39)
#define TCR_HD      (1ull << 40)
#define TCR_HPD0    (1ull << 41)
#define TCR_HPD1    (1ull << 42)
#define TCR_DS      (1ull << 59)
/* TCR_EL2 with E2H 0 */
#define TCR2_PS(x) ((uint64_t)(x) << 16)
#define TCR2_TBI   (1ull << 20)
#define TCR2_HA    (1ull << 21)
#define TCR2_HD    (1ull << 22)
#define TCR2_HPD   (1ull << 24)
/* VTCR_EL2 */
#define VTCR_T0SZ(x) ((uint64_t)(x) << 0)
#define VTCR_SL0(x)  ((uint64_t)(x) << 6)
#define VTCR_SH0(x)  ((uint64_t)(x) << 12)
#define VTCR_TG0(x)  ((uint64_t)(x) << 14)
#define VTCR_PS(x)   ((uint64_t)(x) << 16)
#define VTCR_HA      (1ull << 21)
#define VTCR_HD      (1ull << 22)
#define VTCR_AO      (1ull << 34) /* AssuredOnly */
#define VTCR_NSW     (1ull << 29) /* VSTCR_EL2.SW at the same bit */
#define VTCR_NSA     (1ull << 30) /* VSTCR_EL2.SA at the same bit */

/* MAIR_EL1: Attr0 Device-nGnRnE (0x00), Attr1 Device-nGnRE (0x04), Attr2
 * Device-nGRE (0x08), Attr3 Device-GRE (0x0C), Attr4 Normal iNC oNC (0x44),
 * Attr5 Normal iWT oWT non-transient RW-allocate (0xBB), Attr6 Normal iWB
 * oWB RW-allocate (0xFF), Attr7 Normal oNC iWB (0x4F). */
#define MAIR 0x4FFFBB440C080400ull

#define NS  ARMPROF_PAS_NONSECURE
#define SEC ARMPROF_PAS_SECURE
#define RLM ARMPROF_PAS_REALM

/* Table addresses */
#define TT_L0 0x10000ull
#define TT_L1 0x11000ull
#define TT_L2 0x12000ull
#define TT_L3 0x13000ull

static uint64_t table(uint64_t next)
{
    return next | D_TABLE | D_VALID;
}
/* A page (level 3) or block (levels 1-2) with the Access flag set, Inner
 * Shareable, AP[2:1] 00 (privileged read/write). */
static uint64_t page(uint64_t oa, unsigned attrindx)
{
    return oa | D_ATTR(attrindx) | D_SH(3) | D_AF | D_TABLE | D_VALID;
}
static uint64_t block(uint64_t oa, unsigned attrindx)
{
    return oa | D_ATTR(attrindx) | D_SH(3) | D_AF | D_VALID;
}

/* The walker's IMPLEMENTATION DEFINED and CONSTRAINED UNPREDICTABLE choices
 * as the options' defaults give them (spe/translate.c does the same from a
 * PE's configuration). */
static void default_choices(mmu_walk_config *c)
{
#define DEF(opt) armprof_option_default(ARMPROF_OPT_##opt)
    c->fault_txsz_below_min = DEF(MMU_FAULT_TXSZ_BELOW_MIN) != 0;
    c->fault_txsz_above_max = DEF(MMU_FAULT_TXSZ_ABOVE_MAX) != 0;
    c->fault_misprogrammed_contiguous = DEF(MMU_FAULT_CONTIGUOUS) != 0;
    c->contiguous_bit_as_0 = DEF(MMU_CONTIGUOUS_AS_0) != 0;
    c->s1_effective_shareability = DEF(MMU_S1_EFFECTIVE_SH) != 0;
    c->desc_64kb_oa_51_48 = DEF(MMU_64KB_DESC_OA) != 0;
    c->baddr_64kb_52 = DEF(MMU_64KB_BADDR_52) != 0;
    c->tg0_encoded_granule = (unsigned)DEF(MMU_TG0_GRANULE);
    c->tg1_encoded_granule = (unsigned)DEF(MMU_TG1_GRANULE);
    c->tgran_4k = c->tgran_16k = c->tgran_64k = true; /* FEAT_TGran4K/16K/64K */
    c->reserved_sh = (uint8_t)DEF(UNPRED_SHAREABILITY);
    c->resmair_cacheability = (uint8_t)DEF(UNPRED_RESMAIR);
    c->s2resmemattr_cacheability = (uint8_t)DEF(UNPRED_S2RESMEMATTR);
#undef DEF
}

/* EL1&0, 4KB granule both halves, 48-bit VAs (TxSZ 16), 48-bit IPS,
 * Non-secure, PAMax 48. */
static mmu_walk_config base_cfg(void)
{
    mmu_walk_config c;
    memset(&c, 0, sizeof c);
    default_choices(&c);
    c.regime = MMU_REGIME_EL10;
    c.s1_enabled = true;
    c.tcr = TCR_T0SZ(16) | TCR_TG0(0) | TCR_SH0(3) | TCR_T1SZ(16) | TCR_TG1(2) | TCR_SH1(3) |
            TCR_IPS(5);
    c.ttbr0 = TT_L0;
    c.ttbr1 = 0x20000;
    c.mair = MAIR;
    c.pas = NS;
    c.pa_bits = 48;
    c.oamax = 47;
    return c;
}

/* 4KB, 48-bit VA: the level n index is VA[47-9n:39-9n]
 * (AArch64.S1TTEntryAddress(): lsb = (3-level)*9+12, msb = lsb+8). This VA
 * has indices 1, 2, 3, 4 and page offset 0x567. */
#define VA4K 0x0000008080604567ull
#define OA4K 0x12345000ull

/* Tables L0[1] -> L1[2] -> L2[3] -> L3[4] -> leaf, in pas. */
static void map4k(armprof_mem *mem, int pas, uint64_t leaf)
{
    armprof_mem_write64(mem, pas, TT_L0 + 1 * 8, table(TT_L1));
    armprof_mem_write64(mem, pas, TT_L1 + 2 * 8, table(TT_L2));
    armprof_mem_write64(mem, pas, TT_L2 + 3 * 8, table(TT_L3));
    armprof_mem_write64(mem, pas, TT_L3 + 4 * 8, leaf);
}

static void fresh(armprof_mem **mem)
{
    if (*mem) armprof_mem_destroy(*mem);
    *mem = armprof_mem_create();
}

static bool fault_is(const mmu_result *r, mmu_fault_type t, int level)
{
    return r->fault.type == t && r->fault.level == level;
}

static void test_granules(void)
{
    armprof_mem *mem = NULL;
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* 4KB, start level 0 (AArch64.S1StartLevel(): 3 - (47-12)/9 = 0), four
     * levels to a page: OA[47:12] from the page, VA[11:0] (StageOA()). */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "4KB: fault %d", r.fault.type);
    CHECK(r.pa == 0x12345567, "4KB: pa 0x%llx", (unsigned long long)r.pa);
    CHECK(r.pas == NS, "4KB: pas %d", r.pas);

    /* 4KB with T0SZ 25 (39-bit VA): start level 3 - (38-12)/9 = 1, three
     * levels. VA 0x40604567: L1 index VA[38:30] 1, L2 VA[29:21] 3, L3
     * VA[20:12] 4. The start table must be aligned to its size, 2^(39-30+3)
     * (AArch64.S1TTBaseAddress()). */
    fresh(&mem);
    c.tcr = (c.tcr & ~TCR_T0SZ(63)) | TCR_T0SZ(25);
    armprof_mem_write64(mem, NS, TT_L1 + 1 * 8, table(TT_L2));
    armprof_mem_write64(mem, NS, TT_L2 + 3 * 8, table(TT_L3));
    armprof_mem_write64(mem, NS, TT_L3 + 4 * 8, page(OA4K, 6));
    c.ttbr0 = TT_L1;
    r = mmu_translate_spe_write(mem, &c, 0x40604567);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "4KB 3-level: %d 0x%llx",
          r.fault.type, (unsigned long long)r.pa);

    /* 16KB (TG0 0b10): stride 11, start level 3 - (47-14)/11 = 0 with one
     * index bit VA[47]; L1 VA[46:36], L2 VA[35:25], L3 VA[24:14]. */
    fresh(&mem);
    c = base_cfg();
    c.tcr = (c.tcr & ~TCR_TG0(3)) | TCR_TG0(2);
    {
        const uint64_t va = (1ull << 47) | (5ull << 36) | (6ull << 25) | (7ull << 14) | 0x1ABC;
        armprof_mem_write64(mem, NS, 0x40000 + 1 * 8, table(0x44000));
        armprof_mem_write64(mem, NS, 0x44000 + 5 * 8, table(0x48000));
        armprof_mem_write64(mem, NS, 0x48000 + 6 * 8, table(0x4C000));
        armprof_mem_write64(mem, NS, 0x4C000 + 7 * 8, page(0x87654000, 6));
        c.ttbr0 = 0x40000;
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x87655ABC, "16KB: %d 0x%llx", r.fault.type,
              (unsigned long long)r.pa);
        /* a 16KB level 2 block (32MB, AArch64.BlockDescSupported()):
         * OA[47:25] from the block, VA[24:0] */
        armprof_mem_write64(mem, NS, 0x48000 + 6 * 8, block(0x6000000, 6));
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x6000000 + (7ull << 14) + 0x1ABC,
              "16KB L2 block: %d 0x%llx", r.fault.type, (unsigned long long)r.pa);
    }

    /* 64KB (TG0 0b01): stride 13, start level 3 - (47-16)/13 = 1; L1
     * VA[47:42], L2 VA[41:29], L3 VA[28:16]. */
    fresh(&mem);
    c = base_cfg();
    c.tcr = (c.tcr & ~TCR_TG0(3)) | TCR_TG0(1);
    {
        const uint64_t va = (3ull << 42) | (9ull << 29) | (10ull << 16) | 0xBEEF;
        armprof_mem_write64(mem, NS, 0x100000 + 3 * 8, table(0x110000));
        armprof_mem_write64(mem, NS, 0x110000 + 9 * 8, table(0x120000));
        armprof_mem_write64(mem, NS, 0x120000 + 10 * 8, page(0xABCD0000, 6));
        c.ttbr0 = 0x100000;
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0xABCDBEEF, "64KB: %d 0x%llx", r.fault.type,
              (unsigned long long)r.pa);
        /* A level 1 block with 64KB needs PAMax >= 52
         * (AArch64.BlockDescSupported()): Translation fault level 1 at 48. */
        armprof_mem_write64(mem, NS, 0x100000 + 3 * 8, block(0, 6));
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 1), "64KB L1 block: %d %d", r.fault.type,
              r.fault.level);
        /* ... and a level 2 block (512MB): OA[47:29], VA[28:0] */
        armprof_mem_write64(mem, NS, 0x100000 + 3 * 8, table(0x110000));
        armprof_mem_write64(mem, NS, 0x110000 + 9 * 8, block(0x20000000, 6));
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x20000000 + (10ull << 16) + 0xBEEF,
              "64KB L2 block: %d 0x%llx", r.fault.type, (unsigned long long)r.pa);
        /* Without FEAT_TGran64K, TG0 0b01 names a granule that is not
         * implemented: AArch64.S1DecodeTG0() takes the "TG0 encoded granule
         * size", here 0b00 (4KB). The same VA then walks 4KB tables from
         * TTBR0: level 0 index VA[47:39] = 24 (3 << 42 = 24 << 39), a
         * descriptor nothing wrote -> Translation fault, level 0; with
         * FEAT_TGran64K back, the 64KB walk succeeds. */
        c.tgran_64k = false;
        c.tg0_encoded_granule = 0;
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "no 64KB granule -> 4KB walk: %d %d",
              r.fault.type, r.fault.level);
        c.tgran_64k = true;
        r = mmu_translate_spe_write(mem, &c, va);
        CHECK(r.fault.type == MMU_FAULT_NONE, "64KB again: %d", r.fault.type);
    }

    /* 4KB blocks: level 1 (1GB: OA[47:30], VA[29:0]) and level 2 (2MB:
     * OA[47:21], VA[20:0]). */
    fresh(&mem);
    c = base_cfg();
    armprof_mem_write64(mem, NS, TT_L0 + 1 * 8, table(TT_L1));
    armprof_mem_write64(mem, NS, TT_L1 + 2 * 8, block(0x40000000, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x40000000 + (VA4K & 0x3FFFFFFF),
          "L1 block: %d 0x%llx", r.fault.type, (unsigned long long)r.pa);
    armprof_mem_write64(mem, NS, TT_L1 + 2 * 8, table(TT_L2));
    armprof_mem_write64(mem, NS, TT_L2 + 3 * 8, block(0x7E00000, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x7E00000 + (VA4K & 0x1FFFFF),
          "L2 block: %d 0x%llx", r.fault.type, (unsigned long long)r.pa);
    /* bits of the block OA below the block size are ignored
     * (AArch64.S1LeafBase(): Align(descriptor<47:0>, 2^leafsize)) */
    armprof_mem_write64(mem, NS, TT_L2 + 3 * 8, block(0x7E00000 | 0x5000, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.pa == 0x7E00000 + (VA4K & 0x1FFFFF), "L2 block low bits: 0x%llx",
          (unsigned long long)r.pa);

    /* The Contiguous bit (bit 52) on a 4KB page: StageOA() takes
     * VA[tsize+csize-1:0] with ContiguousSize() 4, so OA[15:12] come from
     * the VA (4) rather than the descriptor (5). */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6) | D_CONTIG);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12344567, "contiguous: 0x%llx",
          (unsigned long long)r.pa);

    armprof_mem_destroy(mem);
}

static void test_ranges(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* TTBR1 for VA[55] == 1 (AArch64.GetVARange(), AArch64.S1TTBR()): a
     * 48-bit upper VA has VA[63:48] all ones (AArch64.VAIsOutOfRange()).
     * The same indices 1, 2, 3, 4 under TTBR1 at 0x20000. */
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, 0x20000 + 1 * 8, table(0x21000));
    armprof_mem_write64(mem, NS, 0x21000 + 2 * 8, table(0x22000));
    armprof_mem_write64(mem, NS, 0x22000 + 3 * 8, table(0x23000));
    armprof_mem_write64(mem, NS, 0x23000 + 4 * 8, page(0x99999000, 6));
    r = mmu_translate_spe_write(mem, &c, 0xFFFF000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x99999567, "TTBR1: %d 0x%llx", r.fault.type,
          (unsigned long long)r.pa);
    /* TG1 uses its own encoding: 0b10 is 4KB, 0b01 16KB
     * (AArch64.S1DecodeTG1()). With TG1 0b00 (reserved: "TG1 encoded
     * granule size", 4KB by default) it still walks as 4KB. */

    /* An upper VA whose top bits are not all ones: Translation fault level
     * 0 (AArch64.S1Translate()). */
    r = mmu_translate_spe_write(mem, &c, 0xFFFE000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "upper out of range: %d %d", r.fault.type,
          r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x04, "fsc 0x%x", mmu_fault_fsc(&r.fault));

    /* A tag in VA[63:56] with VA[55] 0: out of range unless TBI0 is 1
     * (AArch64.AddrTop(): 55 with TBI, else 63; RVGJHQ). */
    r = mmu_translate_spe_write(mem, &c, 0x5A00000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "tag without TBI0: %d", r.fault.type);
    c.tcr |= TCR_TBI0;
    r = mmu_translate_spe_write(mem, &c, 0x5A00000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "tag with TBI0: %d 0x%llx",
          r.fault.type, (unsigned long long)r.pa);
    /* TBI1 for the upper range: top byte 0x00 with VA[55] 1 */
    r = mmu_translate_spe_write(mem, &c, 0x00FF000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "upper tag without TBI1: %d", r.fault.type);
    c.tcr |= TCR_TBI1;
    r = mmu_translate_spe_write(mem, &c, 0x00FF000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x99999567, "upper tag with TBI1: %d",
          r.fault.type);

    /* TBI does not hide VA[55:48]: with T0SZ 16, VA[55:48] must be zero */
    r = mmu_translate_spe_write(mem, &c, 0x0001000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "VA[48] set: %d", r.fault.type);

    /* T0SZ 25: a VA with bit 39 set is out of range, level 0 (the
     * pseudocode reports level 0, not the start level). */
    c = base_cfg();
    c.tcr = (c.tcr & ~TCR_T0SZ(63)) | TCR_T0SZ(25);
    r = mmu_translate_spe_write(mem, &c, 1ull << 39);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "T0SZ 25 out of range: %d %d", r.fault.type,
          r.fault.level);

    /* EPD0/EPD1: a walk in that half is disabled, Translation fault level 0
     * (AArch64.S1Walk(), AArch64.S1EPD()); the other half is unaffected. */
    c = base_cfg();
    c.tcr |= TCR_EPD0;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "EPD0: %d %d", r.fault.type, r.fault.level);
    r = mmu_translate_spe_write(mem, &c, 0xFFFF000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EPD0, upper: %d", r.fault.type);
    c = base_cfg();
    c.tcr |= TCR_EPD1;
    r = mmu_translate_spe_write(mem, &c, 0xFFFF000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "EPD1: %d", r.fault.type);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EPD1, lower: %d", r.fault.type);

    /* T0SZ below the minimum 16 (AArch64.S1MinTxSZ() without FEAT_LVA):
     * by default the "fault" choice of AArch64.S1TxSZFaults(), Translation
     * fault level 0 (and TCR_EL1.DS says so when DS is 0). */
    c = base_cfg();
    c.tcr = (c.tcr & ~TCR_T0SZ(63)) | TCR_T0SZ(12);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "T0SZ 12: %d", r.fault.type);
    /* Without "Fault on TxSZ value below minimum", AArch64.S1Translate()
     * takes TxSZ as the minimum, 16: the walk of the 48-bit tables. */
    c.fault_txsz_below_min = false;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == (OA4K | 0x567), "T0SZ 12 as 16: %d 0x%llx",
          r.fault.type, (unsigned long long)r.pa);

    armprof_mem_destroy(mem);
}

static void test_descriptors(void)
{
    armprof_mem *mem = NULL;
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* An invalid descriptor (bit[0] 0) at each level: Translation fault at
     * that level (AArch64.S1Walk()); FSC 0b0001:level (EncodeLDFSC()). */
    for (int level = 0; level <= 3; level++) {
        fresh(&mem);
        map4k(mem, NS, page(OA4K, 6));
        static const uint64_t at[4] = {TT_L0 + 8, TT_L1 + 16, TT_L2 + 24, TT_L3 + 32};
        armprof_mem_write64(mem, NS, at[level], 0);
        r = mmu_translate_spe_write(mem, &c, VA4K);
        CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, level), "invalid at %d: %d %d", level,
              r.fault.type, r.fault.level);
        CHECK(mmu_fault_fsc(&r.fault) == 0x04 + level, "fsc 0x%x", mmu_fault_fsc(&r.fault));
        CHECK(!r.fault.secondstage, "stage 1");
    }

    /* A block (bits[1:0] 0b01) where blocks are not permitted: level 0 with
     * 4KB and DS 0, and level 3 (AArch64.DecodeDescriptorType(),
     * AArch64.BlockDescSupported()). */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, TT_L0 + 8, block(0, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "L0 block: %d %d", r.fault.type, r.fault.level);
    fresh(&mem);
    map4k(mem, NS, block(OA4K, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 3), "L3 block: %d %d", r.fault.type, r.fault.level);

    /* AP[2] 1: read-only, a privileged write faults; Permission fault
     * level 3, FSC 0b001111 (AArch64.S1DirectBasePermissions(),
     * AArch64.S1CheckPermissions()). AP[1] (EL0 access) does not matter. */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6) | D_AP2);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3), "AP[2]: %d %d", r.fault.type, r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x0F, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    CHECK(!r.fault.dirtybit, "no DBM, no dirtybit");
    map4k(mem, NS, page(OA4K, 6) | D_AP1);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "AP 0b01 writable: %d", r.fault.type);

    /* APTable[1] (bit 62) in the level 1 table descriptor: no writes below
     * it; Permission fault at the leaf's level 3. HPD0 disables APTable
     * (AArch64.S1NextWalkStateTable()). APTable 0b01 only removes EL0
     * access. */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, TT_L1 + 16, table(TT_L2) | D_APTABLE1);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3), "APTable[1]: %d %d", r.fault.type, r.fault.level);
    c.tcr |= TCR_HPD0;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "APTable with HPD0: %d", r.fault.type);
    c = base_cfg();
    c.tcr |= TCR_HPD1; /* HPD1 is for the other half */
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION, "APTable with HPD1 only: %d", r.fault.type);
    c = base_cfg();
    armprof_mem_write64(mem, NS, TT_L1 + 16, table(TT_L2) | D_APTABLE0);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "APTable 0b01: %d", r.fault.type);

    /* Access flag 0: Access flag fault level 3 (FSC 0b001011) unless
     * hardware management (TCR_EL1.HA, and the SPU managing it: PMBIDR_EL1.F)
     * sets it in memory (AArch64.S1Walk(), AArch64.SetAccessFlag()). */
    fresh(&mem);
    map4k(mem, NS, page(OA4K, 6) & ~D_AF);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ACCESS_FLAG, 3), "AF: %d %d", r.fault.type, r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x0B, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    c.tcr |= TCR_HA;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_ACCESS_FLAG, "HA without F: %d", r.fault.type);
    c.manage_af_dirty = true;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "HA: %d", r.fault.type);
    CHECK(armprof_mem_read64(mem, NS, TT_L3 + 32) == page(OA4K, 6), "AF set: 0x%llx",
          (unsigned long long)armprof_mem_read64(mem, NS, TT_L3 + 32));
    /* With HA, AF is set even when the write then takes a Permission fault:
     * AArch64.S1Translate() checks SetAccessFlag() with the fault before
     * the permission check. */
    map4k(mem, NS, (page(OA4K, 6) & ~D_AF) | D_AP2);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION, "HA + AP[2]: %d", r.fault.type);
    CHECK(armprof_mem_read64(mem, NS, TT_L3 + 32) == (page(OA4K, 6) | D_AP2),
          "AF set before the Permission fault");

    /* DBM (bit 51) with AP[2] 1: with HA and HD, writable and AP[2] cleared
     * in memory (AArch64.SetDirtyState()); with HA only, a Permission
     * fault, and fault.dirtybit stays 0: AArch64.S1CheckPermissions() sets
     * it only with the indirect permission scheme (nDirty). */
    fresh(&mem);
    c = base_cfg();
    c.manage_af_dirty = true;
    c.tcr |= TCR_HA;
    map4k(mem, NS, page(OA4K, 6) | D_AP2 | D_DBM);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3), "DBM without HD: %d", r.fault.type);
    CHECK(!r.fault.dirtybit, "dirtybit is for PIE only");
    CHECK(armprof_mem_read64(mem, NS, TT_L3 + 32) == (page(OA4K, 6) | D_AP2 | D_DBM),
          "descriptor unchanged");
    c.tcr |= TCR_HD;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "DBM with HD: %d", r.fault.type);
    CHECK(armprof_mem_read64(mem, NS, TT_L3 + 32) == (page(OA4K, 6) | D_DBM),
          "AP[2] cleared: 0x%llx", (unsigned long long)armprof_mem_read64(mem, NS, TT_L3 + 32));
    /* HD without the SPU managing dirty state: DBM is ignored (D17.8.3) */
    c.manage_af_dirty = false;
    map4k(mem, NS, page(OA4K, 6) | D_AP2 | D_DBM);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION, "HD without F: %d", r.fault.type);
    /* DBM with HD cannot override APTable */
    c.manage_af_dirty = true;
    armprof_mem_write64(mem, NS, TT_L1 + 16, table(TT_L2) | D_APTABLE1);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION, "DBM + APTable: %d", r.fault.type);
    CHECK(armprof_mem_read64(mem, NS, TT_L3 + 32) == (page(OA4K, 6) | D_AP2 | D_DBM),
          "no dirty update on a Permission fault");

    armprof_mem_destroy(mem);
}

static void test_address_size(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* IPS 0b000: 32-bit output (AArch64.PhysicalAddressSize()). A page OA
     * at 4GB: Address Size fault at the leaf level 3, FSC 0b000011. */
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(0);
    map4k(mem, NS, page(0x100000000ull, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 3), "OA above PS: %d %d", r.fault.type,
          r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x03, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* IPS 0b010 (40 bits) accepts it */
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(2);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x100000567, "OA within 40 bits: %d",
          r.fault.type);

    /* A table descriptor at level 1 whose next-level table lies above the
     * output size: Address Size fault reported at level 1, the level of the
     * descriptor (AArch64.S1Walk() checks the next descriptor address before
     * the level moves on). */
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(0);
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, TT_L1 + 16, table(0x200000000ull));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 1), "table above PS: %d %d", r.fault.type,
          r.fault.level);

    /* TTBR0 above the output size: Address Size fault level 0. */
    c.ttbr0 = 0x100000000ull;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 0), "TTBR above PS: %d %d", r.fault.type,
          r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x00, "fsc 0x%x", mmu_fault_fsc(&r.fault));

    /* IPS larger than PAMax is capped at PAMax: IPS 0b101 (48) with a
     * 40-bit PA (pa_bits 40) faults on a 41-bit OA. */
    c = base_cfg();
    c.pa_bits = 40;
    map4k(mem, NS, page(0x10000000000ull, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 3), "OA above PAMax: %d", r.fault.type);

    armprof_mem_destroy(mem);
}

static void test_attributes(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* MAIR decode (S1DecodeMemAttrs(), DecodeDevice(), DecodeLDFAttr()):
     * Attr0..3 are the four Device types; SH of Device is Outer Shareable
     * (EffectiveShareability()), whatever the descriptor says. */
    for (unsigned i = 0; i < 4; i++) {
        map4k(mem, NS, page(OA4K, i));
        r = mmu_translate_spe_write(mem, &c, VA4K);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.type == ARMPROF_MEM_DEVICE &&
                  r.attrs.device == i && r.attrs.shareability == 2,
              "Attr%u: type %d device %u sh %u", i, r.attrs.type, r.attrs.device,
              r.attrs.shareability);
    }
    /* Attr4 0x44: Normal iNC oNC, Outer Shareable in effect */
    map4k(mem, NS, page(OA4K, 4));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.type == ARMPROF_MEM_NORMAL && r.attrs.inner == 0 && r.attrs.outer == 0 &&
              r.attrs.shareability == 2,
          "Attr4: %d %u %u %u", r.attrs.type, r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    /* Attr5 0xBB: Write-Through both; SH from the descriptor (Inner) */
    map4k(mem, NS, page(OA4K, 5));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.type == ARMPROF_MEM_NORMAL && r.attrs.inner == 1 && r.attrs.outer == 1 &&
              r.attrs.shareability == 3,
          "Attr5: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    /* Attr6 0xFF: Write-Back; descriptor SH 0b00 Non-shareable kept */
    map4k(mem, NS, (page(OA4K, 6) & ~D_SH(3)) | D_SH(0));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.inner == 2 && r.attrs.outer == 2 && r.attrs.shareability == 0,
          "Attr6 NSH: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    /* Attr7 0x4F: outer Non-cacheable, inner Write-Back; SH Outer kept */
    map4k(mem, NS, (page(OA4K, 7) & ~D_SH(3)) | D_SH(2));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.inner == 2 && r.attrs.outer == 0 && r.attrs.shareability == 2, "Attr7: %u %u %u",
          r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    CHECK(!r.attrs.tagged && r.attrs.mecid == 0, "Tag Unchecked, MECID 0");

    armprof_mem_destroy(mem);
}

static void test_security(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* Secure: tables start in the Secure PAS; NS (bit 5) in the leaf takes
     * the output to Non-secure (AArch64.S1NextWalkStateLeaf()). */
    c.pas = SEC;
    map4k(mem, SEC, page(OA4K, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == SEC, "Secure: %d pas %d", r.fault.type, r.pas);
    map4k(mem, SEC, page(OA4K, 6) | D_NS);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "Secure NS: pas %d", r.pas);

    /* NSTable (bit 63) in the level 1 descriptor: the level 2 and 3 tables
     * are read from the Non-secure PAS and the output is Non-secure, NS bit
     * or not (AArch64.S1NextWalkStateTable()). The Secure copies at the same
     * addresses are invalid. */
    armprof_mem_write64(mem, SEC, TT_L1 + 16, table(TT_L2) | D_NSTABLE);
    armprof_mem_write64(mem, SEC, TT_L2 + 24, 0);
    armprof_mem_write64(mem, NS, TT_L2 + 24, table(TT_L3));
    armprof_mem_write64(mem, NS, TT_L3 + 32, page(0x77777000, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS && r.pa == 0x77777567,
          "NSTable: %d pas %d 0x%llx", r.fault.type, r.pas, (unsigned long long)r.pa);

    /* Non-secure: NS ignored */
    c.pas = NS;
    map4k(mem, NS, page(OA4K, 6) | D_NS);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "NS: pas %d", r.pas);

    /* Realm EL1&0 has no stage 1 NS bit; Realm EL2 (and EL2&0) does
     * (AArch64.S1NextWalkStateLeaf()). */
    c.pas = RLM;
    map4k(mem, RLM, page(OA4K, 6) | D_NS);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == RLM, "Realm EL1&0: pas %d", r.pas);
    c.regime = MMU_REGIME_EL2;
    c.tcr = TCR_T0SZ(16) | TCR_SH0(3) | TCR2_PS(5);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "Realm EL2 NS: pas %d", r.pas);

    armprof_mem_destroy(mem);
}

static void test_el2_regimes(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* EL2 (TCR_EL2 with E2H 0: PS bits[18:16], TBI bit 20, HPD bit 24):
     * one VA range; AP[1] is RES1, so AP 0b01 and 0b00 are both writable
     * and AP[2] read-only; APTable[0] is ignored, APTable[1] removes write
     * (AArch64.S1ApplyOutputPerms(), S1ApplyTablePerms()). */
    c.regime = MMU_REGIME_EL2;
    c.tcr = TCR_T0SZ(16) | TCR_SH0(3) | TCR2_PS(5);
    map4k(mem, NS, page(OA4K, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "EL2: %d", r.fault.type);
    map4k(mem, NS, page(OA4K, 6) | D_AP1);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EL2 AP[1]: %d", r.fault.type);
    map4k(mem, NS, page(OA4K, 6) | D_AP2);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3), "EL2 AP[2]: %d", r.fault.type);
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, TT_L0 + 8, table(TT_L1) | D_APTABLE0);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EL2 APTable[0]: %d", r.fault.type);
    armprof_mem_write64(mem, NS, TT_L0 + 8, table(TT_L1) | D_APTABLE1);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION, "EL2 APTable[1]: %d", r.fault.type);
    c.tcr |= TCR2_HPD;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EL2 HPD: %d", r.fault.type);
    armprof_mem_write64(mem, NS, TT_L0 + 8, table(TT_L1));
    /* The EL2 regime has no upper range: VA[55] set is out of range */
    r = mmu_translate_spe_write(mem, &c, 0xFFFF000000000000ull | VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0), "EL2 upper VA: %d", r.fault.type);
    /* TBI (bit 20) */
    r = mmu_translate_spe_write(mem, &c, 0xAB00000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_TRANSLATION, "EL2 tag without TBI: %d", r.fault.type);
    c.tcr |= TCR2_TBI;
    r = mmu_translate_spe_write(mem, &c, 0xAB00000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EL2 TBI: %d", r.fault.type);
    /* HA at bit 21 in this layout */
    map4k(mem, NS, page(OA4K, 6) & ~D_AF);
    c.manage_af_dirty = true;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_ACCESS_FLAG, "EL2 AF: %d", r.fault.type);
    c.tcr |= TCR2_HA;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "EL2 HA: %d", r.fault.type);
    /* HD at bit 22 */
    map4k(mem, NS, page(OA4K, 6) | D_AP2 | D_DBM);
    c.tcr |= TCR2_HD;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && !(armprof_mem_read64(mem, NS, TT_L3 + 32) & D_AP2),
          "EL2 HD: %d", r.fault.type);

    /* EL2&0 (TCR_EL2 with E2H 1, TCR_EL1 layout): TTBR1_EL2 for the upper
     * range. */
    c = base_cfg();
    c.regime = MMU_REGIME_EL20;
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_write64(mem, NS, 0x20000 + 1 * 8, table(0x21000));
    armprof_mem_write64(mem, NS, 0x21000 + 2 * 8, table(0x22000));
    armprof_mem_write64(mem, NS, 0x22000 + 3 * 8, table(0x23000));
    armprof_mem_write64(mem, NS, 0x23000 + 4 * 8, page(0x99999000, 6) | D_AP1);
    r = mmu_translate_spe_write(mem, &c, 0xFFFF000000000000ull | VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x99999567, "EL2&0 TTBR1: %d", r.fault.type);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567, "EL2&0 TTBR0: %d", r.fault.type);

    armprof_mem_destroy(mem);
}

static void test_lpa2(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* FEAT_LPA2, 4KB, DS 1, T0SZ 12 (52-bit VA), IPS 0b110 (52 bits),
     * PAMax 52: start level 3 - (51-12)/9 = -1, indexed by VA[51:48]
     * (AArch64.S1SLTTEntryAddress()). TTBR bits[5:2] are BADDR[51:48]
     * (AArch64.S1TTBaseAddress()). OA[51:50] in descriptor bits[9:8] and
     * OA[49:48] in bits[49:48] (AArch64.S1LeafBase(), NextTableBase());
     * shareability from TCR_EL1.SH0. */
    c.lpa2 = true;
    c.pa_bits = 52;
    c.oamax = 51;
    c.tcr = TCR_T0SZ(12) | TCR_TG0(0) | TCR_SH0(3) | TCR_IPS(6) | TCR_DS;
    c.ttbr0 = 0x80000;                         /* level -1 table */
    const uint64_t va = (0x9ull << 48) | VA4K; /* level -1 index 9 */
    /* the level 3 table at PA 0xA_0000_0001_3000: OA[51:48] = 0xA */
    const uint64_t l3 = 0xA000000013000ull;
    const uint64_t l3_desc = TT_L3 | (2ull << 8) | (2ull << 48) | D_TABLE | D_VALID;
    armprof_mem_write64(mem, NS, 0x80000 + 9 * 8, table(TT_L0));
    armprof_mem_write64(mem, NS, TT_L0 + 1 * 8, table(TT_L1));
    armprof_mem_write64(mem, NS, TT_L1 + 2 * 8, table(TT_L2));
    armprof_mem_write64(mem, NS, TT_L2 + 3 * 8, l3_desc);
    /* leaf OA 0xF_0000_1234_5000: bits[9:8] 0b11, bits[49:48] 0b11 */
    const uint64_t leaf = OA4K | (3ull << 8) | (3ull << 48) | D_ATTR(6) | D_AF | D_TABLE | D_VALID;
    armprof_mem_write64(mem, NS, l3 + 4 * 8, leaf);
    r = mmu_translate_spe_write(mem, &c, va);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0xF000012345567ull, "LPA2 4KB: %d %d 0x%llx",
          r.fault.type, r.fault.level, (unsigned long long)r.pa);
    CHECK(r.attrs.shareability == 3, "SH from TCR: %u", r.attrs.shareability);

    /* Invalid at level -1: Translation fault level -1, FSC 0b101011 */
    armprof_mem_write64(mem, NS, 0x80000 + 9 * 8, 0);
    r = mmu_translate_spe_write(mem, &c, va);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, -1), "level -1: %d %d", r.fault.type, r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x2B, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    armprof_mem_write64(mem, NS, 0x80000 + 9 * 8, table(TT_L0));

    /* A 52-bit OA with IPS 0b101 (48 bits): Address Size fault at level 2,
     * the descriptor pointing at the level 3 table. */
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(5);
    r = mmu_translate_spe_write(mem, &c, va);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 2), "52-bit table, IPS 48: %d %d", r.fault.type,
          r.fault.level);

    /* A block at level 0 is allowed with 4KB and DS (512GB: OA[51:39]);
     * bits[9:8] are OA[51:50] here, so no SH in them. */
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(6);
    armprof_mem_write64(mem, NS, TT_L0 + 1 * 8, 0x8000000000ull | D_ATTR(6) | D_AF | D_VALID);
    r = mmu_translate_spe_write(mem, &c, va);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x8000000000ull + (VA4K & 0x7FFFFFFFFFull),
          "L0 block with DS: %d 0x%llx", r.fault.type, (unsigned long long)r.pa);

    /* 16KB with DS: T0SZ 12, start level 3 - (51-14)/11 = 0, the level 0
     * table indexed by VA[51:47]. */
    c.tcr = TCR_T0SZ(12) | TCR_TG0(2) | TCR_SH0(3) | TCR_IPS(6) | TCR_DS;
    c.ttbr0 = 0x40000;
    {
        const uint64_t v16 = (0x13ull << 47) | (5ull << 36) | (6ull << 25) | (7ull << 14) | 0x1ABC;
        armprof_mem_write64(mem, NS, 0x40000 + 0x13 * 8, table(0x44000));
        armprof_mem_write64(mem, NS, 0x44000 + 5 * 8, table(0x48000));
        armprof_mem_write64(mem, NS, 0x48000 + 6 * 8, table(0x4C000));
        armprof_mem_write64(mem, NS, 0x4C000 + 7 * 8,
                            0x87654000 | (1ull << 8) | (1ull << 48) | D_ATTR(6) | D_AF | 3);
        r = mmu_translate_spe_write(mem, &c, v16);
        CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x5000087655ABCull, "LPA2 16KB: %d 0x%llx",
              r.fault.type, (unsigned long long)r.pa);
    }

    armprof_mem_destroy(mem);
}

/* Stage 2 set-up: VTCR_EL2 4KB, T0SZ 24 (40-bit IPA), SL0 0b01 (start
 * level 1, AArch64.S2StartLevel()), PS 0b010 (40 bits). The level 1 start
 * resolves IPA[39:30], two concatenated tables, 8KB aligned
 * (AArch64.S2SLTTEntryAddress(), S2TTBaseAddress()). IPA [0, 1GB) maps
 * 1:1 by a level 1 block at index 0; IPA 0x80123000 (index 2, then L2
 * index 0, L3 index 0x123) maps by pages to PA 0x55555000. */
#define S2_L1     0x200000ull
#define S2_L2     0x210000ull
#define S2_L3     0x211000ull
#define IPA_DATA  0x80123000ull
#define PA_DATA   0x55555000ull
#define S2_NORMAL (S2_MEMATTR(0xF) | D_SH(3) | D_AF | S2AP(3))

static void map_s2(armprof_mem *mem, int pas, uint64_t s2_leaf)
{
    armprof_mem_write64(mem, pas, S2_L1 + 0 * 8, 0 | S2_NORMAL | D_VALID);
    armprof_mem_write64(mem, pas, S2_L1 + 2 * 8, table(S2_L2));
    armprof_mem_write64(mem, pas, S2_L2 + 0 * 8, table(S2_L3));
    armprof_mem_write64(mem, pas, S2_L3 + 0x123 * 8, s2_leaf);
}

/* A stage 2 page mapping IPA_DATA to PA_DATA: S2_NORMAL with the bits in
 * extra ORed in (AArch64.S2NextWalkStateLeaf() reads them). */
static uint64_t s2_page(uint64_t extra)
{
    return PA_DATA | S2_NORMAL | extra | D_TABLE | D_VALID;
}
/* The same page with MemAttr[3:0] = memattr (S2DecodeMemAttrs(),
 * AArch64.S2ApplyFWBMemAttrs()). */
static uint64_t s2_page_memattr(unsigned memattr)
{
    return (s2_page(0) & ~S2_MEMATTR(0xF)) | S2_MEMATTR(memattr);
}

/* Stage 1 disabled (PMBLIMITR_EL1.nVM 1): the output address is the input
 * address, with the attributes PMBMAR_EL1 gives (AArch64.S1DisabledOutput():
 * attr the MAIR-format byte, sh the Shareability). */
static void s1_disabled(mmu_walk_config *c, uint8_t attr, uint8_t sh)
{
    c->s1_enabled = false;
    c->s1_disabled_attr = attr;
    c->s1_disabled_sh = sh;
}

static mmu_walk_config s2_cfg(void)
{
    mmu_walk_config c = base_cfg();
    c.s2_enabled = true;
    c.vtcr = VTCR_T0SZ(24) | VTCR_SL0(1) | VTCR_SH0(3) | VTCR_TG0(0) | VTCR_PS(2);
    c.vttbr = S2_L1;
    return c;
}

static void test_stage2(void)
{
    armprof_mem *mem = NULL;
    mmu_walk_config c = s2_cfg();
    mmu_result r;

    /* Stage 1 maps VA4K to IPA 0x80123000; stage 2 maps that to PA
     * 0x55555000; the stage 1 tables at IPA 0x10000.. are reached through
     * the 1GB identity block. */
    fresh(&mem);
    map4k(mem, NS, page(IPA_DATA, 6));
    map_s2(mem, NS, s2_page(0));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == PA_DATA + 0x567 && r.pas == NS,
          "stage 2: %d %d s2 %d 0x%llx", r.fault.type, r.fault.level, r.fault.secondstage,
          (unsigned long long)r.pa);
    /* S2CombineS1MemAttrs(): stage 1 WB ISH + stage 2 WB ISH */
    CHECK(r.attrs.type == ARMPROF_MEM_NORMAL && r.attrs.inner == 2 && r.attrs.outer == 2 &&
              r.attrs.shareability == 3,
          "combined WB: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    /* stage 2 MemAttr 0b0101 (Normal oNC iNC): the combination is
     * Non-cacheable and Outer Shareable (EffectiveShareability()) */
    map_s2(mem, NS, s2_page_memattr(5));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.inner == 0 && r.attrs.outer == 0 && r.attrs.shareability == 2,
          "combined NC: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    /* stage 2 Device-nGnRE (0b0001) wins over stage 1 Normal */
    map_s2(mem, NS, s2_page_memattr(1));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.type == ARMPROF_MEM_DEVICE && r.attrs.device == 1, "S2 Device: %d %u",
          r.attrs.type, r.attrs.device);

    /* S2AP 0b01 (read-only; S2AP[1], bit 7, is write): stage 2 Permission
     * fault at level 3 with the IPA, not on a stage 1 walk
     * (AArch64.S2DirectBasePermissions(), S2CheckPermissions()). */
    map_s2(mem, NS, PA_DATA | (S2_NORMAL & ~S2AP(3)) | S2AP(1) | D_TABLE | D_VALID);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3) && r.fault.secondstage && !r.fault.s1ptw &&
              r.fault.ipa == IPA_DATA + 0x567,
          "S2AP: %d %d s2 %d ptw %d ipa 0x%llx", r.fault.type, r.fault.level, r.fault.secondstage,
          r.fault.s1ptw, (unsigned long long)r.fault.ipa);
    CHECK(mmu_fault_fsc(&r.fault) == 0x0F, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* ... with DBM and VTCR_EL2.HD (and HA), writable, and S2AP[1] set in
     * memory (AArch64.SetDirtyState()) */
    map_s2(mem, NS, PA_DATA | (S2_NORMAL & ~S2AP(3)) | S2AP(1) | D_DBM | D_TABLE | D_VALID);
    c.manage_af_dirty = true;
    c.vtcr |= VTCR_HA | VTCR_HD;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == PA_DATA + 0x567, "S2 DBM: %d", r.fault.type);
    CHECK(armprof_mem_read64(mem, NS, S2_L3 + 0x123 * 8) == s2_page(D_DBM), "S2AP[1] set: 0x%llx",
          (unsigned long long)armprof_mem_read64(mem, NS, S2_L3 + 0x123 * 8));
    c = s2_cfg();

    /* Stage 2 Access flag: fault (secondstage) without VTCR_EL2.HA, set
     * with it. */
    map_s2(mem, NS, s2_page(0) & ~D_AF);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_ACCESS_FLAG, 3) && r.fault.secondstage, "S2 AF: %d %d",
          r.fault.type, r.fault.secondstage);
    c.manage_af_dirty = true;
    c.vtcr |= VTCR_HA;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && (armprof_mem_read64(mem, NS, S2_L3 + 0x123 * 8) & D_AF),
          "S2 HA: %d", r.fault.type);
    c = s2_cfg();

    /* Stage 2 fault on the stage 1 walk: the 1GB identity block invalid,
     * so the first stage 1 descriptor read (IPA TT_L0 + 8) takes a stage 2
     * Translation fault at level 1 with s1ptw (AArch64.S1Walk()). */
    fresh(&mem);
    map4k(mem, NS, page(IPA_DATA, 6));
    map_s2(mem, NS, s2_page(0));
    armprof_mem_write64(mem, NS, S2_L1, 0);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 1) && r.fault.secondstage && r.fault.s1ptw &&
              r.fault.ipa == TT_L0 + 8,
          "s1ptw: %d %d s2 %d ptw %d ipa 0x%llx", r.fault.type, r.fault.level, r.fault.secondstage,
          r.fault.s1ptw, (unsigned long long)r.fault.ipa);
    CHECK(mmu_fault_fsc(&r.fault) == 0x05, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* The stage 1 tables readable but not writable at stage 2 (S2AP 0b01):
     * a walk read is fine, but setting the stage 1 AF is a write of the
     * descriptor (CreateAccDescTTEUpdate()): stage 2 Permission fault with
     * s1ptw. */
    armprof_mem_write64(mem, NS, S2_L1, (S2_NORMAL & ~S2AP(3)) | S2AP(1) | D_VALID);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "s1 tables read-only at s2: %d", r.fault.type);
    map4k(mem, NS, page(IPA_DATA, 6) & ~D_AF);
    c.manage_af_dirty = true;
    c.tcr |= TCR_HA;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 1) && r.fault.secondstage && r.fault.s1ptw &&
              r.fault.ipa == TT_L3 + 32,
          "AF update through read-only s2: %d %d ptw %d ipa 0x%llx", r.fault.type, r.fault.level,
          r.fault.s1ptw, (unsigned long long)r.fault.ipa);
    /* The stage 1 tables not readable at stage 2 (S2AP 0b00) */
    c = s2_cfg();
    armprof_mem_write64(mem, NS, S2_L1, (S2_NORMAL & ~S2AP(3)) | D_VALID);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 1) && r.fault.s1ptw, "s1 tables unreadable: %d",
          r.fault.type);

    /* The IPA above the stage 2 input size (T0SZ 24: 40 bits): stage 2
     * Translation fault level 0 (AArch64.IPAIsOutOfRange()). */
    fresh(&mem);
    map4k(mem, NS, page(0x10000000000ull, 6));
    map_s2(mem, NS, s2_page(0));
    c.tcr = (c.tcr & ~TCR_IPS(7)) | TCR_IPS(5);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0) && r.fault.secondstage && !r.fault.s1ptw,
          "IPA out of range: %d %d", r.fault.type, r.fault.level);
    /* An SL0 inconsistent with T0SZ: SL0 0b00 starts at level 2, which
     * resolves at most 1*9 + 12 + 1 + 8 + 4 = 34 IPA bits, fewer than 40:
     * stage 2 Translation fault level 0 (AArch64.S2InconsistentSL()), here
     * on the first stage 1 table read. */
    c = s2_cfg();
    c.vtcr = (c.vtcr & ~VTCR_SL0(3)) | VTCR_SL0(0);
    map4k(mem, NS, page(IPA_DATA, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_TRANSLATION, 0) && r.fault.secondstage && r.fault.s1ptw,
          "inconsistent SL0: %d %d", r.fault.type, r.fault.level);

    /* Stage 1 disabled (PMBLIMITR_EL1.nVM 1) and stage 2: the IPA is the
     * VA. */
    c = s2_cfg();
    s1_disabled(&c, 0xFF, 3);
    r = mmu_translate_spe_write(mem, &c, IPA_DATA + 0x567);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == PA_DATA + 0x567, "nVM + s2: %d", r.fault.type);

    armprof_mem_destroy(mem);
}

static void test_assuredonly_fwb(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = s2_cfg();
    mmu_result r;

    /* Example D17-7 / RWWYDL: with stage 1 disabled (nVM 1) the IPA is
     * never "assured", so a stage 2 page with AssuredOnly (bit 58, with
     * FEAT_THE and VTCR_EL2.AssuredOnly 1) gives a stage 2 Permission fault
     * with fault.assuredonly (AArch64.S2NextWalkStateLeaf(),
     * S2CheckPermissions()). */
    s1_disabled(&c, 0xFF, 3);
    map_s2(mem, NS, s2_page(D_AO));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.fault.type == MMU_FAULT_NONE, "AO bit without FEAT_THE: %d", r.fault.type);
    c.the = true;
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.fault.type == MMU_FAULT_NONE, "AO bit without VTCR_EL2.AssuredOnly: %d", r.fault.type);
    c.vtcr |= VTCR_AO;
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 3) && r.fault.secondstage && r.fault.assuredonly &&
              !r.fault.s1ptw,
          "AssuredOnly: %d %d ao %d", r.fault.type, r.fault.level, r.fault.assuredonly);
    /* The same with stage 1 enabled: no stage 1 assured translation is
     * modelled (VTCR_EL2.TL0/TL1), so the page still faults. */
    c.s1_enabled = true;
    map4k(mem, NS, page(IPA_DATA, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_PERMISSION && r.fault.assuredonly, "AO, s1 on: %d",
          r.fault.type);
    /* AssuredOnly on the page that holds the stage 1 tables: the walk's
     * read faults, s1ptw (the TTW branch of AArch64.S2CheckPermissions()) */
    map_s2(mem, NS, s2_page(0));
    armprof_mem_write64(mem, NS, S2_L1, S2_NORMAL | D_AO | D_VALID);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_PERMISSION, 1) && r.fault.assuredonly && r.fault.s1ptw,
          "AO on s1 tables: %d %d", r.fault.type, r.fault.level);

    /* FWB (AArch64.S2ApplyFWBMemAttrs()): stage 1 (nVM, PMBMAR-style attr)
     * Normal NC; stage 2 MemAttr 0b0110 forces Write-Back; 0b0111 keeps
     * stage 1's; 0b0101 Non-cacheable; 0b0001 Device-nGnRE. */
    c = s2_cfg();
    c.fwb = true;
    s1_disabled(&c, 0x44, 0);
    map_s2(mem, NS, s2_page_memattr(6));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.type == ARMPROF_MEM_NORMAL &&
              r.attrs.inner == 2 && r.attrs.outer == 2,
          "FWB forced WB: %d %u %u", r.fault.type, r.attrs.inner, r.attrs.outer);
    /* shareability: S2CombineS1Shareability(OSH (stage 1 NC is Outer in
     * effect), ISH) = OSH */
    CHECK(r.attrs.shareability == 2, "FWB sh %u", r.attrs.shareability);
    map_s2(mem, NS, s2_page_memattr(7));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.attrs.inner == 0 && r.attrs.outer == 0, "FWB stage 1 attrs: %u %u", r.attrs.inner,
          r.attrs.outer);
    s1_disabled(&c, 0xFF, 3);
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.attrs.inner == 2 && r.attrs.outer == 2 && r.attrs.shareability == 3,
          "FWB stage 1 WB: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    map_s2(mem, NS, s2_page_memattr(5));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.attrs.type == ARMPROF_MEM_NORMAL && r.attrs.inner == 0 && r.attrs.outer == 0 &&
              r.attrs.shareability == 2,
          "FWB NC: %u %u %u", r.attrs.inner, r.attrs.outer, r.attrs.shareability);
    map_s2(mem, NS, s2_page_memattr(1));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.attrs.type == ARMPROF_MEM_DEVICE && r.attrs.device == 1, "FWB Device: %d %u",
          r.attrs.type, r.attrs.device);
    /* Without FWB the same 0b0110 is Normal, outer (MemAttr[3:2] 0b01)
     * Non-cacheable, inner (MemAttr[1:0] 0b10) Write-Through; combined with
     * stage 1 Write-Back: oNC iWT (S2DecodeMemAttrs(),
     * S2CombineS1AttrHints()). */
    c.fwb = false;
    map_s2(mem, NS, s2_page_memattr(6));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.attrs.inner == 1 && r.attrs.outer == 0, "no FWB: %u %u", r.attrs.inner, r.attrs.outer);

    /* Realm stage 2: the NS bit (55) of the stage 2 leaf gives the
     * Non-secure PAS (AArch64.S2NextWalkStateLeaf()). */
    armprof_mem_destroy(mem);
    mem = armprof_mem_create();
    c = s2_cfg();
    c.pas = RLM;
    s1_disabled(&c, 0xFF, 0);
    map_s2(mem, RLM, s2_page(0));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == RLM, "Realm s2: %d pas %d", r.fault.type,
          r.pas);
    map_s2(mem, RLM, s2_page(1ull << 55));
    r = mmu_translate_spe_write(mem, &c, IPA_DATA);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "Realm s2 NS: pas %d", r.pas);

    armprof_mem_destroy(mem);
}

static void test_s1_disabled(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;

    /* AArch64.S1DisabledOutput(): the PA is the VA; attributes from
     * PMBMAR_EL1 (here Normal WB, Inner Shareable). */
    s1_disabled(&c, 0xFF, 3);
    c.pa_bits = 40;
    c.oamax = 47;
    r = mmu_translate_spe_write(mem, &c, 0x12345678);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345678 && r.pas == NS, "s1 off: %d 0x%llx",
          r.fault.type, (unsigned long long)r.pa);
    CHECK(r.attrs.type == ARMPROF_MEM_NORMAL && r.attrs.inner == 2 && r.attrs.shareability == 3,
          "PMBMAR attrs");
    /* Device from PMBMAR: SH is ignored (Outer) */
    s1_disabled(&c, 0x04, 0);
    r = mmu_translate_spe_write(mem, &c, 0x12345678);
    CHECK(r.attrs.type == ARMPROF_MEM_DEVICE && r.attrs.device == 1 && r.attrs.shareability == 2,
          "PMBMAR Device: %d %u %u", r.attrs.type, r.attrs.device, r.attrs.shareability);

    /* RQJNFT: VA[OAMax:PAMax] nonzero, here bit 44 with PAMax 40 and
     * OAMax 47: stage 1 Address Size fault, level 0 (FSC 0b000000). */
    r = mmu_translate_spe_write(mem, &c, 1ull << 44);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 0) && !r.fault.secondstage, "RQJNFT: %d %d",
          r.fault.type, r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x00, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* ... whatever s1_disabled_ignore_top says */
    c.s1_disabled_ignore_top = true;
    r = mmu_translate_spe_write(mem, &c, 1ull << 44);
    CHECK(r.fault.type == MMU_FAULT_ADDRESS_SIZE, "RQJNFT ignore_top: %d", r.fault.type);

    /* RXBFCM: VA[63:OAMax+1] nonzero, here bit 50: Address Size fault, or
     * with ignore_top the bits are taken as zero. */
    c.s1_disabled_ignore_top = false;
    r = mmu_translate_spe_write(mem, &c, (1ull << 50) | 0x1000);
    CHECK(fault_is(&r, MMU_FAULT_ADDRESS_SIZE, 0), "RXBFCM fault: %d", r.fault.type);
    c.s1_disabled_ignore_top = true;
    r = mmu_translate_spe_write(mem, &c, (1ull << 50) | 0x1000);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x1000, "RXBFCM ignore: %d 0x%llx",
          r.fault.type, (unsigned long long)r.pa);
    r = mmu_translate_spe_write(mem, &c, 0xFF00000000001000ull);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x1000, "RXBFCM ignore top byte: %d",
          r.fault.type);
    /* In the fault choice, TCR_EL1.TBI0 hides VA[63:56] as the pseudocode's
     * AArch64.AddrTop() says */
    c.s1_disabled_ignore_top = false;
    r = mmu_translate_spe_write(mem, &c, 0xFF00000000001000ull);
    CHECK(r.fault.type == MMU_FAULT_ADDRESS_SIZE, "top byte, TBI0 0: %d", r.fault.type);
    c.tcr |= TCR_TBI0;
    r = mmu_translate_spe_write(mem, &c, 0x5500000000001000ull);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x1000, "top byte, TBI0 1: %d", r.fault.type);

    /* The PAS of the owning Security state */
    c.pas = SEC;
    r = mmu_translate_spe_write(mem, &c, 0x1000);
    CHECK(r.pas == SEC, "Secure s1 off: %d", r.pas);

    armprof_mem_destroy(mem);
}

/* Secure stage 2 (FEAT_SEL2): AArch64.SS2TTWParams() takes TG0, T0SZ and
 * SL0 of the Secure IPA space from VSTCR_EL2 and AArch64.SS2InitialTTWState()
 * its table base from VSTTBR_EL2, in the PA space VSTCR_EL2.SW gives ('0'
 * Secure); AArch64.SS2OutputPASpace(): a Secure IPA goes to the Secure PA
 * space when VSTCR_EL2.<SW,SA> == '00', otherwise Non-secure. The Secure
 * regime's stage 1 output here is Secure (c.pas), so the stage 1 table reads
 * and the data write are Secure IPAs. */
#define SS2_L1 0x300000ull
static void map_s2_at(armprof_mem *mem, int pas, uint64_t l1, uint64_t s2_leaf)
{
    armprof_mem_write64(mem, pas, l1 + 0 * 8, 0 | S2_NORMAL | D_VALID);
    armprof_mem_write64(mem, pas, l1 + 2 * 8, table(l1 + 0x10000));
    armprof_mem_write64(mem, pas, l1 + 0x10000, table(l1 + 0x11000));
    armprof_mem_write64(mem, pas, l1 + 0x11000 + 0x123 * 8, s2_leaf);
}

static void test_secure_stage2(void)
{
    armprof_mem *mem = NULL;
    mmu_walk_config c = s2_cfg();
    mmu_result r;
    c.pas = SEC;
    c.vstcr = VTCR_T0SZ(24) | VTCR_SL0(1) | VTCR_TG0(0);
    c.vsttbr = SS2_L1;

    /* Stage 1 tables and the Secure stage 2 tables in the Secure PA space:
     * PA_DATA in Secure. */
    fresh(&mem);
    map4k(mem, SEC, page(IPA_DATA, 6));
    map_s2_at(mem, SEC, SS2_L1, s2_page(0));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == PA_DATA + 0x567 && r.pas == SEC,
          "Secure stage 2: %d %d 0x%llx pas %d", r.fault.type, r.fault.level,
          (unsigned long long)r.pa, r.pas);
    /* The Non-secure stage 2 tables (VTTBR_EL2) are not the ones walked: with
     * only them present, stage 2 faults at its start level 1 (SL0 1). */
    fresh(&mem);
    map4k(mem, SEC, page(IPA_DATA, 6));
    map_s2(mem, SEC, s2_page(0));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_TRANSLATION && r.fault.secondstage && r.fault.level == 1,
          "VTTBR_EL2 is not the Secure IPA space's: %d s2 %d level %d", r.fault.type,
          r.fault.secondstage, r.fault.level);
    /* VSTCR_EL2.SA = 1: the output (table reads of stage 1 included) goes to
     * the Non-secure PA space. */
    fresh(&mem);
    map4k(mem, NS, page(IPA_DATA, 6));
    map_s2_at(mem, SEC, SS2_L1, s2_page(0));
    c.vstcr |= VTCR_NSA;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "VSTCR_EL2.SA 1: %d pas %d", r.fault.type,
          r.pas);
    /* VSTCR_EL2.SW = 1: the Secure stage 2 tables are read from the
     * Non-secure PA space, and the output is Non-secure too (<SW,SA> != 00). */
    fresh(&mem);
    map4k(mem, NS, page(IPA_DATA, 6));
    map_s2_at(mem, NS, SS2_L1, s2_page(0));
    c.vstcr = (c.vstcr & ~VTCR_NSA) | VTCR_NSW;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pas == NS, "VSTCR_EL2.SW 1: %d pas %d", r.fault.type,
          r.pas);
    c.vstcr &= ~VTCR_NSW; /* SW 0: the tables are looked for in Secure, where there are none */
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_TRANSLATION && r.fault.secondstage,
          "VSTCR_EL2.SW 0, tables in Non-secure only: %d s2 %d", r.fault.type, r.fault.secondstage);
    armprof_mem_destroy(mem);
}

/* The output MECID (FEAT_MEC, D17.7.10 RDFFVT): AArch64.S1OutputMECID()
 * (descriptor<63> is AMEC with 64-bit descriptors): EL2 P0/A0; EL1&0
 * VMECID_P_EL2; AArch64.S2OutputMECID(): VMECID_P/A_EL2 by the stage 2
 * descriptor's AMEC; AArch64.S1DisabledOutputMECID(): MECID_P0_EL2 (EL2),
 * VMECID_P_EL2 (EL1&0). DEFAULT_MECID (0) unless walkparams.emec and the
 * output is in the Realm PA space. */
static void test_mecid(void)
{
    armprof_mem *mem = NULL;
    mmu_walk_config c = base_cfg();
    mmu_result r;
    c.emec = true;
    c.mecid_p0 = 0x10;
    c.mecid_a0 = 0x1a;
    c.mecid_p1 = 0x20;
    c.mecid_a1 = 0x2a;
    c.vmecid_p = 0x30;
    c.vmecid_a = 0x3a;
    c.pas = RLM;
    fresh(&mem);
    /* EL2 regime, one range. */
    c.regime = MMU_REGIME_EL2;
    c.tcr = TCR_T0SZ(16) | TCR_SH0(3) | TCR2_PS(5);
    map4k(mem, RLM, page(OA4K, 6));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x10, "EL2 P0: %d 0x%x", r.fault.type,
          r.attrs.mecid);
    map4k(mem, RLM, page(OA4K, 6) | 1ull << 63);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x1a, "EL2 AMEC 1 -> A0: 0x%x",
          r.attrs.mecid);
    c.emec = false;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.attrs.mecid == 0, "EMEC 0 -> DEFAULT_MECID: 0x%x", r.attrs.mecid);
    c.emec = true;
    /* Not Realm: DEFAULT_MECID. */
    c.pas = NS;
    map4k(mem, NS, page(OA4K, 6) | 1ull << 63);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0, "Non-secure: 0x%x", r.attrs.mecid);
    c.pas = RLM;
    /* Stage 1 disabled: MECID_P0_EL2 (EL2), VMECID_P_EL2 (EL1&0). */
    c.s1_enabled = false;
    r = mmu_translate_spe_write(mem, &c, 0x1000);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x10, "EL2 s1 off: 0x%x",
          r.attrs.mecid);
    armprof_mem_destroy(mem);
    mem = NULL;

    /* EL1&0 with stage 2: the stage 2 output MECID, by its descriptor's AMEC. */
    c = s2_cfg();
    c.emec = true;
    c.vmecid_p = 0x30;
    c.vmecid_a = 0x3a;
    c.pas = RLM;
    fresh(&mem);
    map4k(mem, RLM, page(IPA_DATA, 6));
    map_s2(mem, RLM, s2_page(0));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x30, "S2 AMEC 0 -> VMECID_P: %d 0x%x",
          r.fault.type, r.attrs.mecid);
    map_s2(mem, RLM, s2_page(1ull << 63));
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x3a, "S2 AMEC 1 -> VMECID_A: 0x%x",
          r.attrs.mecid);
    /* Without stage 2, EL1&0's stage 1 output is VMECID_P_EL2, whatever AMEC. */
    c.s2_enabled = false;
    map4k(mem, RLM, page(OA4K, 6) | 1ull << 63);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.attrs.mecid == 0x30, "EL1&0 s1: 0x%x", r.attrs.mecid);
    armprof_mem_destroy(mem);
}

static void test_external_and_gpc(void)
{
    armprof_mem *mem = armprof_mem_create();
    mmu_walk_config c = base_cfg();
    mmu_result r;
    char err[128];

    /* A synchronous External abort on the level 2 table read:
     * Fault_SyncExternalOnWalk at level 2, FSC 0b010110 (EncodeLDFSC():
     * 0b0101:level). Without fault_on_walk the region's fault hits only
     * the data write, not the walk. */
    map4k(mem, NS, page(OA4K, 6));
    armprof_mem_region reg;
    memset(&reg, 0, sizeof reg);
    reg.base = TT_L2;
    reg.size = 0x1000;
    reg.pas = -1;
    reg.fault = ARMPROF_MEM_FAULT_SYNC_EXTERNAL;
    reg.shareability = 3;
    reg.cacheability = 2;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "no fault_on_walk: %d", r.fault.type);
    armprof_mem_clear_regions(mem);
    reg.fault_on_walk = true;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_SYNC_EXTERNAL_WALK, 2), "SEA on walk: %d %d", r.fault.type,
          r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x16, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* an asynchronous one: the walk goes on, the caller is told */
    armprof_mem_clear_regions(mem);
    reg.fault = ARMPROF_MEM_FAULT_ASYNC_EXTERNAL;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && r.pa == 0x12345567 && r.async_abort_on_walk,
          "async on walk: %d %d", r.fault.type, r.async_abort_on_walk);
    /* External aborts on the output are the caller's */
    armprof_mem_clear_regions(mem);
    reg.base = OA4K;
    reg.fault = ARMPROF_MEM_FAULT_SYNC_EXTERNAL;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE && !r.async_abort_on_walk, "SEA on output: %d",
          r.fault.type);

    /* GPC (FEAT_RME): the level 3 table in a granule only the Secure PAS
     * may access: a GPF on the walk, Fault_GPCFOnWalk level 3, FSC
     * 0b100111 (0b1001:level). Without gpc, no check. */
    armprof_mem_clear_regions(mem);
    memset(&reg, 0, sizeof reg);
    reg.base = TT_L3;
    reg.size = 0x1000;
    reg.pas = -1;
    reg.gpi = ARMPROF_GPI_SECURE;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_NONE, "no gpc: %d", r.fault.type);
    c.gpc = true;
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_GPC, 3) && r.fault.walk && r.fault.gpf, "GPF on walk: %d %d",
          r.fault.type, r.fault.level);
    CHECK(mmu_fault_fsc(&r.fault) == 0x27, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* The same granule as the output: Fault_GPCFOnOutput, FSC 0b101000 */
    armprof_mem_clear_regions(mem);
    reg.base = OA4K;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_GPC && !r.fault.walk && r.fault.gpf, "GPF on output: %d",
          r.fault.type);
    CHECK(mmu_fault_fsc(&r.fault) == 0x28, "fsc 0x%x", mmu_fault_fsc(&r.fault));
    /* A GPT walk fault (other GPC fault) on the output */
    armprof_mem_clear_regions(mem);
    reg.gpi = 0;
    reg.fault = ARMPROF_MEM_FAULT_GPT_WALK;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(r.fault.type == MMU_FAULT_GPC && !r.fault.walk && !r.fault.gpf, "GPT walk: %d",
          r.fault.type);
    /* ... and on the level 0 table read: FSC 0b100100 */
    armprof_mem_clear_regions(mem);
    reg.base = TT_L0;
    CHECK(armprof_mem_add_region(mem, &reg, err, sizeof err), "%s", err);
    r = mmu_translate_spe_write(mem, &c, VA4K);
    CHECK(fault_is(&r, MMU_FAULT_GPC, 0) && r.fault.walk && !r.fault.gpf, "GPT walk on walk: %d",
          r.fault.type);
    CHECK(mmu_fault_fsc(&r.fault) == 0x24, "fsc 0x%x", mmu_fault_fsc(&r.fault));

    armprof_mem_destroy(mem);
}

/* EncodeLDFSC() for each fault type and level (J1.3). */
static void test_fsc(void)
{
    mmu_fault f;
    memset(&f, 0, sizeof f);
    for (int level = 0; level <= 3; level++) {
        f.level = level;
        f.type = MMU_FAULT_ADDRESS_SIZE; /* 0b0000:level */
        CHECK(mmu_fault_fsc(&f) == level, "AS %d", level);
        f.type = MMU_FAULT_TRANSLATION; /* 0b0001:level */
        CHECK(mmu_fault_fsc(&f) == (0x04 | level), "T %d", level);
        f.type = MMU_FAULT_ACCESS_FLAG; /* 0b0010:level */
        CHECK(mmu_fault_fsc(&f) == (0x08 | level), "AF %d", level);
        f.type = MMU_FAULT_PERMISSION; /* 0b0011:level */
        CHECK(mmu_fault_fsc(&f) == (0x0C | level), "P %d", level);
        f.type = MMU_FAULT_SYNC_EXTERNAL_WALK; /* 0b0101:level */
        CHECK(mmu_fault_fsc(&f) == (0x14 | level), "SEA walk %d", level);
        f.type = MMU_FAULT_GPC; /* Fault_GPCFOnWalk 0b1001:level */
        f.walk = true;
        CHECK(mmu_fault_fsc(&f) == (0x24 | level), "GPC walk %d", level);
        f.walk = false; /* Fault_GPCFOnOutput 0b101000 */
        CHECK(mmu_fault_fsc(&f) == 0x28, "GPC output");
    }
    /* level -1 (FEAT_LPA2) */
    f.level = -1;
    f.type = MMU_FAULT_ADDRESS_SIZE;
    CHECK(mmu_fault_fsc(&f) == 0x29, "AS -1: 0x%x", mmu_fault_fsc(&f)); /* 0b101001 */
    f.type = MMU_FAULT_TRANSLATION;
    CHECK(mmu_fault_fsc(&f) == 0x2B, "T -1"); /* 0b101011 */
    f.type = MMU_FAULT_SYNC_EXTERNAL_WALK;
    CHECK(mmu_fault_fsc(&f) == 0x13, "SEA -1"); /* 0b010011 */
    f.type = MMU_FAULT_GPC;
    f.walk = true;
    CHECK(mmu_fault_fsc(&f) == 0x23, "GPC walk -1"); /* 0b100011 */
    f.type = MMU_FAULT_ALIGNMENT;
    f.level = 0;
    CHECK(mmu_fault_fsc(&f) == 0x21, "Alignment"); /* 0b100001 */
}

int main(void)
{
    test_granules();
    test_ranges();
    test_descriptors();
    test_address_size();
    test_attributes();
    test_security();
    test_el2_regimes();
    test_lpa2();
    test_stage2();
    test_assuredonly_fwb();
    test_s1_disabled();
    test_secure_stage2();
    test_mecid();
    test_external_and_gpc();
    test_fsc();
    return check_summary();
}
