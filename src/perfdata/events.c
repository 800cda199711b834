/* SPDX-License-Identifier: BSD-3-Clause */
/* The sample events of a perf.data file without AUX data
 * (armprof_perf_read_events(), armprof/perfdata.h): the attributes' sample
 * type says which fields a sample event holds, in
 * perf_event_sample_format's order (include/uapi/linux/perf_event.h):
 * IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD; the fields
 * after PERIOD are not read (the event's size says where the next one
 * starts). */
#define _POSIX_C_SOURCE   200809L
#define _FILE_OFFSET_BITS 64
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/perfdata.h"
#include "perfdata/format.h"
#include "perfdata/message.h"
#include "perfdata/reader.h"

/* The largest event: perf_event_header.size is 16 bits. */
enum { MAX_EVENT = 65536 };

typedef struct reading {
    armprof_perf_file *f;
    perf_file_sections sec;
    char *msg; /* the file's message buffer */
    size_t msglen;
    uint64_t sample_type;
    bool typed; /* sample_type read (at the first sample event: a file of
                 * AUX data, whose attributes may differ, is told first) */
} reading;

static bool say(reading *r, uint64_t offset, const char *what)
{
    snprintf(r->msg, r->msglen, "%s: offset 0x%llx: %s", perf_file_path(r->f),
             (unsigned long long)offset, what);
    return false;
}

/* A read of n bytes at offset, or false with the reason: the read error
 * perf_file_read_at() gave, or what ends past the file. */
static bool read_or_say(reading *r, uint64_t offset, void *buf, size_t n, const char *what)
{
    r->msg[0] = 0;
    if (perf_file_read_at(r->f, offset, buf, n)) return true;
    if (r->msg[0]) return false;
    char text[96];
    snprintf(text, sizeof text, "%s truncated by the end of the file", what);
    return say(r, offset, text);
}

/* Every attribute's sample type: they must agree (one layout for every
 * sample event). */
static bool sample_type(reading *r)
{
    const perf_file_sections *s = &r->sec;
    if (s->attr_size < PERF_ATTR_SAMPLE_TYPE + 8 + 16 || s->attrs_size < s->attr_size)
        return say(r, s->attrs_at, "no event attribute");
    for (uint64_t at = 0; at + s->attr_size <= s->attrs_size; at += s->attr_size) {
        uint8_t b[8];
        if (!read_or_say(r, s->attrs_at + at + PERF_ATTR_SAMPLE_TYPE, b, 8, "attribute"))
            return false;
        const uint64_t t = get_le64(b);
        if (at == 0)
            r->sample_type = t;
        else if (t != r->sample_type)
            return say(r, s->attrs_at + at,
                       "events of different sample types (one event's samples are read)");
    }
    if (!(r->sample_type & PERF_SAMPLE_IP))
        return say(r, s->attrs_at, "the samples carry no IP (sample_type without IP)");
    return true;
}

/* The fields of a sample event's body (after its header), n bytes. */
static bool parse_sample(reading *r, const uint8_t *p, size_t n, armprof_perf_sample *s,
                         uint64_t offset)
{
    const uint64_t t = r->sample_type;
    static const uint64_t order[] = {PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,   PERF_SAMPLE_TID,
                                     PERF_SAMPLE_TIME,       PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
                                     PERF_SAMPLE_STREAM_ID,  PERF_SAMPLE_CPU,  PERF_SAMPLE_PERIOD};
    s->period = 1;
    size_t at = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!(t & order[i])) continue;
        if (at + 8 > n) return say(r, offset, "sample event shorter than its sample type");
        const uint8_t *q = p + at;
        at += 8;
        switch (order[i]) {
        case PERF_SAMPLE_IP:
            s->ip = get_le64(q);
            break;
        case PERF_SAMPLE_TID:
            s->pid = get_le32(q);
            s->tid = get_le32(q + 4);
            break;
        case PERF_SAMPLE_TIME:
            s->time = get_le64(q);
            break;
        case PERF_SAMPLE_CPU:
            s->cpu = get_le32(q);
            break;
        case PERF_SAMPLE_PERIOD:
            s->period = get_le64(q);
            break;
        default:
            break;
        }
    }
    return true;
}

/* A NUL-terminated string within the n bytes at p, or false. */
static bool terminated(const uint8_t *p, size_t n)
{
    return memchr(p, 0, n) != NULL;
}

static bool one_event(reading *r, uint32_t type, const uint8_t *e, size_t size, uint64_t offset,
                      armprof_perf_event *ev)
{
    memset(ev, 0, sizeof *ev);
    const uint8_t *p = e + PERF_EVENT_HEADER_SIZE;
    const size_t n = size - PERF_EVENT_HEADER_SIZE;
    ev->sample.cpumode = get_le16(e + 4) & PERF_RECORD_MISC_CPUMODE_MASK;
    switch (type) {
    case PERF_RECORD_SAMPLE:
        ev->kind = ARMPROF_PERF_EVENT_SAMPLE;
        if (!r->typed && !sample_type(r)) return false;
        r->typed = true;
        return parse_sample(r, p, n, &ev->sample, offset);
    case PERF_RECORD_COMM:
        ev->kind = ARMPROF_PERF_EVENT_COMM;
        if (n < 9 || !terminated(p + 8, n - 8)) return say(r, offset, "COMM event without a name");
        ev->name = (const char *)p + 8;
        break;
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2: {
        /* MMAP: pid, tid, addr, len, pgoff, then the name; MMAP2 has 32
         * more bytes (device, inode or build id, prot, flags) before it */
        const size_t fixed = type == PERF_RECORD_MMAP ? 32 : 64;
        ev->kind = ARMPROF_PERF_EVENT_MMAP;
        if (n < fixed + 1 || !terminated(p + fixed, n - fixed))
            return say(r, offset, "MMAP event without a file name");
        ev->addr = get_le64(p + 8);
        ev->len = get_le64(p + 16);
        ev->pgoff = get_le64(p + 24);
        ev->name = (const char *)p + fixed;
        break;
    }
    default:
        return true;
    }
    ev->sample.pid = get_le32(p);
    ev->sample.tid = get_le32(p + 4);
    return true;
}

static bool read_all(reading *r, armprof_perf_event_fn fn, void *ctx, bool *aux)
{
    uint8_t *e = malloc(MAX_EVENT);
    if (!e) return say(r, 0, "out of memory");
    bool ok = true;
    uint64_t pos = r->sec.data_at;
    const uint64_t end = r->sec.data_at + r->sec.data_size;
    while (ok && pos < end) {
        if (end - pos < PERF_EVENT_HEADER_SIZE ||
            !read_or_say(r, pos, e, PERF_EVENT_HEADER_SIZE, "event header")) {
            ok = r->msg[0] ? false : say(r, pos, "event header truncated");
            break;
        }
        const uint32_t type = get_le32(e);
        const uint16_t size = get_le16(e + 6);
        if (size < PERF_EVENT_HEADER_SIZE) {
            ok = say(r, pos, "event smaller than its header");
            break;
        }
        if (size > end - pos) {
            ok = say(r, pos, "event truncated by the end of the data section");
            break;
        }
        if (type == PERF_RECORD_AUXTRACE_INFO) {
            if (aux) *aux = true;
            ok = say(r, pos, "AUX data (AUXTRACE_INFO): a file of SPE data, not of samples");
            break;
        }
        if (type == PERF_RECORD_COMPRESSED) {
            ok = say(r, pos,
                     "compressed events (perf record -z) are not supported; decompress with "
                     "perf inject -i FILE -o OUT");
            break;
        }
        if (type == PERF_RECORD_SAMPLE || type == PERF_RECORD_COMM || type == PERF_RECORD_MMAP ||
            type == PERF_RECORD_MMAP2) {
            armprof_perf_event ev;
            ok = read_or_say(r, pos, e, size, "event") && one_event(r, type, e, size, pos, &ev);
            if (ok && !fn(&ev, ctx)) ok = say(r, pos, "stopped");
        }
        pos += size;
    }
    free(e);
    return ok;
}

bool armprof_perf_read_events(const char *path, armprof_perf_event_fn fn, void *ctx, bool *aux,
                              char *err, size_t errlen)
{
    if (aux) *aux = false;
    if (!path || !fn) {
        perf_message(err, errlen, "no file or no function (NULL)");
        return false;
    }
    reading r = {0};
    r.f = perf_file_open_header(path, &r.sec, err, errlen);
    if (!r.f) return false;
    r.msg = perf_file_error_buffer(r.f, &r.msglen);
    const bool ok = read_all(&r, fn, ctx, aux);
    if (!ok) perf_message(err, errlen, "%s", r.msg);
    armprof_perf_close(r.f);
    return ok;
}
