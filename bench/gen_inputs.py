#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Inputs that measure how `armprof decode` and `armprof report` scale
(issue 44, part 5), written from the formats, not by armprof:

  gen_inputs.py perf-cpus N OUT   a perf.data of N AUXTRACE events, each of
                                  a CPU of its own, each holding one SPE
                                  record (an End packet and Padding)
  gen_inputs.py perf-empty N OUT  a perf.data of N AUXTRACE events without
                                  data, all of CPU 0, and one with a record
  gen_inputs.py spe-pcs N OUT     an SPE record stream of N records, each a
                                  PC packet of a PC of its own and an End

perf.data: the 104-byte PERFILE2 header (perf.data-file-format.txt) with
the data section right after it; AUXTRACE_INFO (type 70) of arm_spe (4)
with version 1 metadata (2 words); AUXTRACE (type 71): the 8-byte event
header, size 48, then size, offset, reference, idx, tid, cpu, reserved.
SPE (D18.2): an Address packet of the PC is header 0xb0 and 8 bytes; End
is 0x01; Padding 0x00."""
import struct
import sys


def perf_data(out, events):
    """events: an iterable of (cpu, data bytes)."""
    info = struct.pack("<IHHII", 70, 0, 32, 4, 0) + struct.pack("<QQ", 8, 0)
    with open(out, "wb") as f:
        f.write(b"\0" * 104)  # the header, written last
        f.write(info)
        size = len(info)
        offsets = {}
        batch = []
        for cpu, data in events:
            at = offsets.get(cpu, 0)
            offsets[cpu] = at + len(data)
            batch.append(struct.pack("<IHHQQQIIII", 71, 0, 48, len(data), at, 0, cpu, 0, cpu, 0))
            batch.append(data)
            size += 48 + len(data)
            if len(batch) >= 65536:
                f.write(b"".join(batch))
                batch = []
        f.write(b"".join(batch))
        f.seek(0)
        # magic, header size, attr size, attrs (none), data, event types,
        # feature bits (none)
        f.write(struct.pack("<8sQQQQQQQQ", b"PERFILE2", 104, 136, 104, 0, 104, size, 0, 0))


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    record = b"\x01" + b"\0" * 7  # End, then Padding to 8 bytes
    if kind == "perf-cpus":
        perf_data(out, ((cpu, record) for cpu in range(n)))
    elif kind == "perf-empty":
        perf_data(out, [(0, record)] + [(0, b"")] * n)
    elif kind == "spe-pcs":
        with open(out, "wb") as f:
            for start in range(0, n, 65536):
                f.write(b"".join(b"\xb0" + struct.pack("<Q", 0x400000 + 4 * i) + b"\x01"
                                 for i in range(start, min(n, start + 65536))))
    else:
        sys.exit("usage: gen_inputs.py perf-cpus|perf-empty|spe-pcs N OUT")


if __name__ == "__main__":
    main()
