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
#             hang classes among them; fuzz_api_fixed --write-corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target: scenario, decode or api}
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
  *)
    echo "fuzz-seeds.sh: unknown target $target (scenario, decode or api)" >&2
    exit 2
    ;;
esac
