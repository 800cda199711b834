#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The seed inputs of a libFuzzer target, copied into a working corpus
# directory: what .ci/run and tools/fuzz.sh both start from.
#
#   tools/fuzz-seeds.sh TARGET DIR [ROUNDTRIP]
#
#   scenario  the conformance scenarios and the parser error cases
#             (tests/conformance, tests/parser_errors): every statement of
#             the language, valid and not;
#   decode    record files the model wrote (ROUNDTRIP, the test_spe_roundtrip
#             binary, run with ARMPROF_SPE_CORPUS=DIR: each buffer of its
#             configurations) and the record files of tests/data;
#   api       tests/fuzz/corpus/api, hand-made call sequences (the issue 15
#             hang classes among them; fuzz_api_fixed --write-corpus);
#   perfdata  perf.data files of the record files of tests/data, in both
#             arm_spe metadata versions (ARMPROF, the armprof binary, writes
#             them; build/armprof by default).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target: scenario, decode, api or perfdata}
dir=${2:?working corpus directory}
mkdir -p "$dir"
case "$target" in
  scenario)
    cp tests/conformance/*.aps tests/parser_errors/*.aps "$dir"/
    ;;
  decode)
    roundtrip=${3:-build/tests/test_spe_roundtrip}
    ARMPROF_SPE_CORPUS="$dir" "$roundtrip" >/dev/null
    cp tests/data/*.spe tests/data/*.bin "$dir"/
    ;;
  api)
    cp tests/fuzz/corpus/api/* "$dir"/
    ;;
  perfdata)
    armprof=${3:-build/armprof}
    for f in tests/data/*.spe; do
      name=$(basename "$f" .spe)
      # a malformed record file makes no perf.data: it is skipped
      "$armprof" perf-data "$f" -o "$dir/$name-v2.data" >/dev/null 2>&1 || continue
      "$armprof" perf-data "$f" --perf-version 6.1 --comm 1=seed -o "$dir/$name-v1.data" >/dev/null
    done
    ;;
  *)
    echo "fuzz-seeds.sh: unknown target $target (scenario, decode, api or perfdata)" >&2
    exit 2
    ;;
esac
