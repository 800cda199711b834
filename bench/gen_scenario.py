#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A large scenario that measures how fast `armprof run` reads and
dispatches statements (issue 42, part 3): every statement the PE runs
after the configuration, round after round, each round checking what it
did so the run passes:

  gen_scenario.py N OUT   about N statements

Time it with `armprof run --quiet OUT` (the summary is the only output)."""
import sys

ROUND = """\
el 3
set PMSELR_EL0 3
expect PMSELR_EL0 == 3
mrs PMSELR_EL0 => 3
msr PMSELR_EL0 5 => done
expect PMSELR_EL0.SEL == 5
cycles 10
event INST_RETIRED 2
event 0x11
retire other pc 0x1000
retire load pc 0x1004 va 0x2000 pa 0x2000 x4
dispatch branch pc 0x1008
retire dispatched
counter 1234
isb
dsb sy
pstate.pm 0
snapshot-request
psb csync
memory write 0x9000 0102
expect memory 0x9000 0102
expect pmuirq == 0
xread 0xe00
debug off
power on
oslock off
signal DBGEN high
security secure
el 1
# a comment, and an empty line

"""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    per_round = sum(1 for line in ROUND.splitlines() if line and not line.startswith("#"))
    with open(out, "w") as f:
        f.write("preset armv9.4-all\nvalidate => ok\n")
        for _ in range(max(1, n // per_round)):
            f.write(ROUND)


if __name__ == "__main__":
    main()
