#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Rewrites the options table and the feature list of docs/configuration.md
from include/armprof/options.def, option_values.def and features.def (ctest
docs/configuration fails when the document misses one)."""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
doc_path = root / "docs" / "configuration.md"
doc = doc_path.read_text()
# features.def: the groups, each a "/* ---- topic ---- */" line, and the
# features under it.
feature_groups = []
for line in (root / "include/armprof/features.def").read_text().splitlines():
    heading = re.match(r'^/\* ---- (.+) ---- \*/$', line)
    feature = re.match(r'^FEATURE\((\w+), "([^"]+)"\)', line)
    if heading:
        feature_groups.append((heading.group(1), []))
    elif feature:
        feature_groups[-1][1].append(feature.group(2))
options = re.findall(
    r'^OPTION\((\w+), "([^"]+)", (\w+), ([^,]+), ([^,]+), ([^,]+),\s*"((?:[^"\\]|\\.)*)"\)',
    (root / "include/armprof/options.def").read_text(), re.M)
values = {}
for opt, name, value, text in re.findall(
        r'^NAMED_VALUE\((\w+), (\w+), ([^,]+),\s*"((?:[^"\\]|\\.)*)"\)',
        (root / "include/armprof/option_values.def").read_text(), re.M):
    values.setdefault(opt, []).append((name, value.strip(), text))

header = "| --- | --- | --- | --- | --- |\n"
start = doc.index(header) + len(header)
end = doc.index("\n### Why these defaults")
rows = []
for opt, name, kind, default, low, high, text in options:
    high = high.strip().replace("UINT64_MAX", "2^64-1")
    default = default.strip()
    for value_name, value, _ in values.get(opt, []):
        if value == default:
            default = f"{value_name} ({value})"
    if opt in values:
        text += ". Values: " + "; ".join(f"`{n}` ({v}): {t}" for n, v, t in values[opt])
    rows.append(f"| `{name}` | {kind} | {default} | {low.strip()}..{high} | "
                f"{text.replace('|', '/')} |")
doc = doc[:start] + "\n".join(rows) + "\n" + doc[end:]

marker = 'declares only "When FEAT_X is implemented" is RES0 without it.\n'
cut = doc.rindex(marker) + len(marker)
doc = doc[:cut] + "\n" + "".join(
    f"- {topic}: " + ", ".join(f"`{name}`" for name in names) + "\n"
    for topic, names in feature_groups)
doc_path.write_text(doc)
