/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoints: the whole state of a PE, to restore into a PE of the same
 * configuration and the same library build (the state is saved as the
 * library lays it out). What is the embedder's, not the PE's, stays with
 * the PE restored into: callbacks, sinks, hooks, the memory observer.
 *
 *   header (magic, format version, the build id, the PE state's size, the
 *   configuration, the lengths below, a checksum of what follows) | the PE
 *   state | the held records | the memory
 *
 * The PE state is restored as saved, so a changed byte in it could make any
 * field hold any value (an Exception level of 5, say): the checksum refuses
 * a checkpoint damaged in storage or in transit before anything changes,
 * and the build id one whose bytes another build lays out otherwise (two
 * builds can agree on the state's size and disagree on what is where). A
 * checkpoint made to pass these checks is not refused: it is trusted input
 * (armprof.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem/mem.h"
#include "pe/catalog.h"

/* 2: the header carries a checksum of the rest; 3: and the build id. */
#define CHECKPOINT_VERSION 3u
/* armprof_build_id(): 32 hexadecimal digits (cmake/build_id.cmake). */
#define BUILD_ID_BYTES 32
static const char checkpoint_magic[8] = {'A', 'R', 'M', 'P', 'R', 'O', 'F', 'K'};

typedef struct checkpoint_header {
    char magic[8];
    uint32_t version;
    char build_id[BUILD_ID_BYTES]; /* armprof_build_id() of the library that saved it */
    uint32_t state_size;           /* sizeof(pe_instance) */
    uint64_t held_bytes;
    uint64_t mem_bytes;
    uint64_t checksum; /* FNV-1a 64 of every byte, this field as 0 */
    armprof_config cfg;
} checkpoint_header;

/* FNV-1a, 64-bit (its offset basis and prime), over the header with the
 * checksum as 0 and then the rest. Not cryptographic: it finds damage, not
 * forgery. */
static uint64_t fnv1a(uint64_t h, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t checksum_of(const checkpoint_header *header, const uint8_t *rest, size_t n)
{
    checkpoint_header h = *header;
    h.checksum = 0;
    return fnv1a(fnv1a(0xcbf29ce484222325ull, (const uint8_t *)&h, sizeof h), rest, n);
}

/* The id of this library's build, as the header holds it: its digits, the
 * rest (if it were shorter) zero. */
static void this_build(char id[BUILD_ID_BYTES])
{
    const char *s = armprof_build_id();
    const size_t n = strlen(s);
    memset(id, 0, BUILD_ID_BYTES);
    memcpy(id, s, n < BUILD_ID_BYTES ? n : BUILD_ID_BYTES);
}

/* Whether a saved id is digits that can go in a message as they are. */
static bool printable(const char id[BUILD_ID_BYTES])
{
    for (size_t i = 0; i < BUILD_ID_BYTES; i++)
        if (!isxdigit((unsigned char)id[i])) return false;
    return true;
}

size_t armprof_checkpoint_size(const armprof_pe *pe)
{
    if (!pe) return 0;
    size_t held;
    spe_held_records(pe, &held);
    return sizeof(checkpoint_header) + sizeof(pe_instance) + held +
           mem_checkpoint_size(armprof_pe_memory((armprof_pe *)pe));
}

size_t armprof_checkpoint_save(const armprof_pe *pe, void *buf, size_t len)
{
    if (!pe || !buf) return 0;
    const size_t size = armprof_checkpoint_size(pe);
    if (len < size) return 0;
    size_t held;
    const uint8_t *held_data = spe_held_records(pe, &held);
    const armprof_mem *mem = armprof_pe_memory((armprof_pe *)pe);
    checkpoint_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, checkpoint_magic, sizeof h.magic);
    h.version = CHECKPOINT_VERSION;
    this_build(h.build_id);
    h.state_size = (uint32_t)sizeof(pe_instance);
    h.held_bytes = held;
    h.mem_bytes = mem_checkpoint_size(mem);
    h.cfg = pe->cfg;
    uint8_t *const start = buf;
    uint8_t *out = start + sizeof h;
    memcpy(out, (const pe_instance *)pe, sizeof(pe_instance));
    out += sizeof(pe_instance);
    if (held) memcpy(out, held_data, held);
    out += held;
    mem_checkpoint_save(mem, out);
    h.checksum = checksum_of(&h, start + sizeof h, size - sizeof h);
    memcpy(start, &h, sizeof h);
    return size;
}

static bool refuse(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* The first difference between two configurations, for the message. */
static void config_difference(const armprof_config *a, const armprof_config *b, char *err,
                              size_t errlen)
{
    for (unsigned f = 0; f < ARMPROF_FEAT_COUNT; f++)
        if (armprof_config_has(a, (armprof_feature)f) !=
            armprof_config_has(b, (armprof_feature)f)) {
            snprintf(err, errlen, "checkpoint of a PE with another configuration (%s is %s there)",
                     armprof_feature_name((armprof_feature)f),
                     armprof_config_has(a, (armprof_feature)f) ? "on" : "off");
            return;
        }
    for (unsigned o = 0; o < ARMPROF_OPT_COUNT; o++)
        if (a->options[o] != b->options[o]) {
            snprintf(err, errlen,
                     "checkpoint of a PE with another configuration (option %s is %llu there)",
                     armprof_option_name((armprof_option)o), (unsigned long long)a->options[o]);
            return;
        }
    snprintf(err, errlen, "checkpoint of a PE with another configuration");
}

bool armprof_checkpoint_restore(armprof_pe *pe, const void *buf, size_t len, char *err,
                                size_t errlen)
{
    checkpoint_header h;
    if (!pe) return refuse(err, errlen, "no PE to restore into (NULL)");
    if (!buf || len < sizeof h)
        return refuse(err, errlen, "checkpoint of %zu bytes is shorter than its header (%zu)", len,
                      sizeof h);
    memcpy(&h, buf, sizeof h);
    if (memcmp(h.magic, checkpoint_magic, sizeof h.magic) != 0)
        return refuse(err, errlen, "not an armprof checkpoint (its first 8 bytes)");
    if (h.version != CHECKPOINT_VERSION)
        return refuse(err, errlen, "checkpoint format version %u; this library reads %u",
                      (unsigned)h.version, CHECKPOINT_VERSION);
    char build[BUILD_ID_BYTES];
    this_build(build);
    if (memcmp(h.build_id, build, sizeof build) != 0) {
        char saved[BUILD_ID_BYTES + 1] = "(not 32 hexadecimal digits)";
        if (printable(h.build_id)) memcpy(saved, h.build_id, BUILD_ID_BYTES);
        return refuse(err, errlen,
                      "checkpoint of another library build (build id %s; this library's is "
                      "%.*s): each build lays out the PE state its own way",
                      saved, BUILD_ID_BYTES, build);
    }
    if (h.state_size != sizeof(pe_instance))
        return refuse(err, errlen,
                      "checkpoint of another library build (PE state of %u bytes; this "
                      "build's is %zu)",
                      (unsigned)h.state_size, sizeof(pe_instance));
    if (memcmp(&h.cfg, &pe->cfg, sizeof h.cfg) != 0) {
        if (err && errlen) config_difference(&h.cfg, &pe->cfg, err, errlen);
        return false;
    }
    const unsigned long long expect =
        (unsigned long long)sizeof h + sizeof(pe_instance) + h.held_bytes + h.mem_bytes;
    if (h.held_bytes > len || h.mem_bytes > len || expect != len)
        return refuse(err, errlen, "checkpoint of %zu bytes; its header says %llu", len, expect);
    if (checksum_of(&h, (const uint8_t *)buf + sizeof h, len - sizeof h) != h.checksum)
        return refuse(err, errlen, "checkpoint is damaged (its checksum does not match)");
    if (h.held_bytes > spe_held_capacity(pe))
        return refuse(err, errlen, "checkpoint holds %llu bytes of held records; the PE holds %zu",
                      (unsigned long long)h.held_bytes, spe_held_capacity(pe));
    const uint8_t *in = (const uint8_t *)buf + sizeof h;
    const uint8_t *held = in + sizeof(pe_instance);
    const uint8_t *mem = held + h.held_bytes;

    /* What stays with pe: the links to this process, the callbacks (the
     * interrupts', the register provider) and the levels its embedder was
     * last told. */
    pe_instance *inst = PE_INSTANCE(pe);
    spe_links links;
    spe_links_get(pe, &links);
    const pe_outputs out = inst->out;
    void (*after_change)(armprof_pe *) = SYSREG_LEVEL(pe)->after_change;
    const sysreg_provider provider = SYSREG_LEVEL(pe)->provider;
    if (!mem_checkpoint_restore(links.mem, mem, (size_t)h.mem_bytes))
        return refuse(err, errlen, "checkpoint's memory part (%llu bytes) is malformed",
                      (unsigned long long)h.mem_bytes);

    memcpy(inst, in, sizeof *inst);
    spe_links_set(pe, &links);
    spe_set_held_records(pe, held, (size_t)h.held_bytes);
    sysreg_level *engine = SYSREG_LEVEL(pe);
    engine->catalog = &sysreg_catalog_all;
    engine->ext_catalog = &ext_catalog_all;
    engine->after_change = after_change;
    engine->provider = provider;
    sysreg_configure(pe);
    inst->out = out;
    pe_controls_changed(pe);                   /* every cache is computed again for this PE */
    inst->out.seen_gen = pe->controls_gen - 1; /* recompute the levels */
    pe_outputs_check(pe);
    return true;
}
