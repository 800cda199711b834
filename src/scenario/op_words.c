/* SPDX-License-Identifier: BSD-3-Clause */
/* The words of a `retire` or `dispatch` statement: an operation, as
 * armprof_op describes it (docs/scenario-language.md, "Operations"). */
#include "scenario/op_words.h"

#include <stdio.h>
#include <string.h>

/* A word that sets a flag of the operation; classes is a bit mask of the
 * operation classes it applies to. */
#define ALL        15u
#define BR         (1u << ARMPROF_OP_BRANCH)
#define MEM        (1u << ARMPROF_OP_LOAD | 1u << ARMPROF_OP_STORE)
#define OTHER      (1u << ARMPROF_OP_OTHER)
#define FLAG(name) offsetof(armprof_op, name)

static const struct {
    const char *word;
    unsigned classes;
    size_t offset;
} flags[] = {
    {"mispredict", BR, FLAG(mispredicted)},
    {"l1d", MEM, FLAG(l1d_access)},
    {"conditional", BR | OTHER, FLAG(conditional)},
    {"cond-failed", OTHER, FLAG(cond_failed)},
    {"fp", OTHER | MEM, FLAG(fp)},
    {"simd", OTHER | MEM, FLAG(simd)},
    {"acquire-release", MEM, FLAG(acquire_release)},
    {"exclusive", MEM, FLAG(exclusive)},
    {"atomic", MEM, FLAG(atomic)},
    {"predicated", OTHER | MEM, FLAG(predicated)},
    {"gather-scatter", MEM, FLAG(gather_scatter)},
    {"tbi", MEM, FLAG(tbi)},
    {"tag-checked", MEM, FLAG(tag_checked)},
    {"gcs", BR, FLAG(gcs)},
    {"misspeculated", ALL, FLAG(misspeculated)},
    {"not-arch-executed", ALL, FLAG(not_arch_executed)},
};

/* A word followed by a number. */
enum {
    V_PC,
    V_TARGET,
    V_TOTAL,
    V_ISSUE,
    V_XLAT,
    V_ALT,
    V_VA,
    V_PA,
    V_DS,
    V_EVENTS,
    V_IMPDEF,
    V_VL,
    V_TILE,
    V_TARGET_EL
};
static const struct {
    const char *word;
    unsigned classes;
    uint64_t max;
} values[] = {
    [V_PC] = {"pc", ALL, UINT64_MAX},
    [V_TARGET] = {"target", BR, UINT64_MAX},
    [V_TOTAL] = {"total", ALL, UINT32_MAX},
    [V_ISSUE] = {"issue", ALL, UINT32_MAX},
    [V_XLAT] = {"xlat", MEM | BR, UINT32_MAX},
    [V_ALT] = {"alt", ALL, UINT32_MAX},
    [V_VA] = {"va", MEM | BR, UINT64_MAX},
    [V_PA] = {"pa", MEM | BR, UINT64_MAX},
    [V_DS] = {"ds", MEM | BR, 0xffff},
    [V_EVENTS] = {"events", ALL, UINT32_MAX},
    [V_IMPDEF] = {"impdef-events", ALL, 0xffff},
    [V_VL] = {"vl", OTHER | MEM, UINT32_MAX},
    [V_TILE] = {"tile", OTHER, UINT32_MAX},
    [V_TARGET_EL] = {"target-el", BR, 3},
};

/* `kind NAME`, by class */
static const struct {
    const char *word;
    armprof_op_class cls;
    int value;
} kinds[] = {
    {"direct", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_DIRECT},
    {"indirect", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_INDIRECT},
    {"call", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_DIRECT_CALL},
    {"indirect-call", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_INDIRECT_CALL},
    {"return", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_RETURN},
    {"eret", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_ERET},
    {"exception", ARMPROF_OP_BRANCH, ARMPROF_BRANCH_EXCEPTION},
    {"general", ARMPROF_OP_LOAD, ARMPROF_LDST_GENERAL},
    {"extended", ARMPROF_OP_LOAD, ARMPROF_LDST_EXTENDED},
    {"simdfp", ARMPROF_OP_LOAD, ARMPROF_LDST_SIMDFP},
    {"sve", ARMPROF_OP_LOAD, ARMPROF_LDST_SVE_SME},
    {"unspecified", ARMPROF_OP_LOAD, ARMPROF_LDST_UNSPECIFIED},
    {"tags", ARMPROF_OP_LOAD, ARMPROF_LDST_TAGS},
    {"memcopy", ARMPROF_OP_LOAD, ARMPROF_LDST_MEMCOPY},
    {"memset", ARMPROF_OP_LOAD, ARMPROF_LDST_MEMSET},
    {"gcs", ARMPROF_OP_LOAD, ARMPROF_LDST_GCS},
    {"nv2", ARMPROF_OP_LOAD, ARMPROF_LDST_NV2},
    {"general", ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL},
    {"sve", ARMPROF_OP_OTHER, ARMPROF_OTHER_SVE},
    {"sme", ARMPROF_OP_OTHER, ARMPROF_OTHER_SME},
};

static const char *const class_names[] = {"other", "branch", "load", "store"};

static const char *const pas_names[] = {"ns", "s", "realm", "root"};

/* Whether s is a number as armprof_parse_number() reads it, whatever its
 * size: the digits of its base (0x hex, 0b binary, decimal) and '_'. When
 * armprof_parse_number() rejects such a text, it is too large. */
static bool digits_only(const char *s)
{
    const char *valid = "0123456789";
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        valid = "0123456789abcdefABCDEF";
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        valid = "01";
        s += 2;
    }
    bool any = false;
    for (; *s; s++) {
        if (*s == '_') continue;
        if (!strchr(valid, *s)) return false;
        any = true;
    }
    return any;
}

bool scenario_parse_op(char *const *w, int n, armprof_op *op, uint64_t *repeat, char *err,
                       size_t len)
{
    memset(op, 0, sizeof *op);
    op->size = (uint32_t)sizeof *op;
    *repeat = 1;
    int cls = -1;
    if (n >= 1)
        for (int i = 0; i < 4; i++)
            if (!strcmp(w[0], class_names[i])) cls = i;
    if (cls < 0) {
        snprintf(err, len, "the operation is other|branch|load|store, then its attributes");
        return false;
    }
    op->op_class = (armprof_op_class)cls;
    const unsigned bit = 1u << cls;
    for (int i = 1; i < n; i++) {
        const char *word = w[i];
        bool done = false;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0] && !done; f++)
            if (!strcmp(word, flags[f].word) && (flags[f].classes & bit)) {
                *(bool *)((char *)op + flags[f].offset) = true;
                done = true;
            }
        if (done) continue;
        if (!strcmp(word, "refill") && (bit & MEM)) {
            op->l1d_access = op->l1d_refill = true;
            continue;
        }
        if (word[0] == 'x' && word[1] >= '0' && word[1] <= '9') {
            if (armprof_parse_number(word + 1, repeat)) continue;
            if (digits_only(word + 1))
                snprintf(err, len, "repeat count '%s' is out of range: N must fit in 64 bits",
                         word);
            else
                snprintf(err, len, "'%s' is not a repeat count xN", word);
            return false;
        }
        if (!strcmp(word, "kind") && i + 1 < n) {
            const armprof_op_class kcls = cls == ARMPROF_OP_STORE ? ARMPROF_OP_LOAD : op->op_class;
            for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !done; k++)
                if (kinds[k].cls == kcls && !strcmp(w[i + 1], kinds[k].word)) {
                    if (kcls == ARMPROF_OP_BRANCH)
                        op->branch_kind = (armprof_branch_kind)kinds[k].value;
                    else if (kcls == ARMPROF_OP_LOAD)
                        op->ldst_kind = (armprof_ldst_kind)kinds[k].value;
                    else
                        op->other_kind = (armprof_other_kind)kinds[k].value;
                    done = true;
                }
            if (!done) {
                snprintf(err, len, "'%s' is not a kind of %s", w[i + 1], class_names[cls]);
                return false;
            }
            i++;
            continue;
        }
        if (!strcmp(word, "pas") && i + 1 < n && (bit & (MEM | BR))) {
            for (int p = 0; p < 4 && !done; p++)
                if (!strcmp(w[i + 1], pas_names[p])) {
                    op->pas = (armprof_pas)p;
                    done = true;
                }
            if (!done) {
                snprintf(err, len, "'%s' is not a physical address space (ns s realm root)",
                         w[i + 1]);
                return false;
            }
            i++;
            continue;
        }
        int v = -1;
        for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
            if (!strcmp(word, values[k].word) && (values[k].classes & bit)) v = (int)k;
        if (v < 0) {
            snprintf(err, len, "'%s' does not apply to %s", word, class_names[cls]);
            return false;
        }
        uint64_t x;
        if (i + 1 >= n || !armprof_parse_number(w[i + 1], &x) || x > values[v].max) {
            snprintf(err, len, "'%s' needs a number up to 0x%llx", word,
                     (unsigned long long)values[v].max);
            return false;
        }
        i++;
        switch (v) {
        case V_PC:
            op->pc = x;
            break;
        case V_TARGET:
            op->target = x;
            op->taken = true;
            break;
        case V_TOTAL:
            op->total_latency = (uint32_t)x;
            break;
        case V_ISSUE:
            op->issue_latency = (uint32_t)x;
            break;
        case V_XLAT:
            op->translation_latency = (uint32_t)x;
            break;
        case V_ALT:
            op->alt_issue_latency = (uint32_t)x;
            break;
        case V_VA:
            op->vaddr = x;
            break;
        case V_PA:
            op->paddr = x;
            break;
        case V_DS:
            op->data_source = (uint16_t)x;
            op->data_source_valid = true;
            break;
        case V_EVENTS:
            op->events = (uint32_t)x;
            break;
        case V_IMPDEF:
            op->impdef_events = (uint16_t)x;
            break;
        case V_VL:
            op->vector_length = (uint32_t)x;
            break;
        case V_TARGET_EL:
            op->target_el = (uint8_t)x;
            op->target_el_valid = true;
            break;
        default:
            op->tile_size = (uint32_t)x;
            break;
        }
    }
    return true;
}
