#!/usr/bin/env bash
# Builds the libFuzzer target for the parameter-file reader with clang (AddressSanitizer + UndefinedBehaviorSanitizer)
# and runs it: first over the committed corpus (tests/fuzz/corpus, a regression run), then for FUZZ_SECONDS
# (default 30) of new inputs in a scratch copy of the corpus. Exits non-zero on any crash, sanitizer report, leak
# or broken invariant; the input that broke it is left in build-fuzz/. Idempotent (the fuzzer is compiled again only
# when its sources changed; FUZZ_BUILD_ONLY=1 only compiles it).
#   bash ci/fuzz.sh            (after ci/install-deps.sh; clang and libclang-rt come from Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
out=build-fuzz
mkdir -p "$out"
sources="lib/model/ParameterText.cpp tests/fuzz/fuzz_parameter_text.cpp lib/model/ParameterText.hpp lib/model/MaterialParameters.hpp"
if [ ! -x "$out/fuzz_parameter_text" ] || [ -n "$(find $sources -newer "$out/fuzz_parameter_text")" ]; then
  clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ilib \
    lib/model/ParameterText.cpp tests/fuzz/fuzz_parameter_text.cpp -o "$out/fuzz_parameter_text"
fi
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0 # ci/checks.sh build: compiled, run later
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "ci/fuzz.sh: corpus regression ($(ls tests/fuzz/corpus | wc -l) inputs)"
"$out/fuzz_parameter_text" -runs=0 tests/fuzz/corpus >"$out/regression.log" 2>&1 || { tail -30 "$out/regression.log"; exit 1; }
rm -rf "$out/corpus" && cp -r tests/fuzz/corpus "$out/corpus"
echo "ci/fuzz.sh: fuzzing for ${seconds} s"
(cd "$out" && ./fuzz_parameter_text -max_total_time="$seconds" -max_len=8192 -timeout=60 -print_final_stats=1 corpus >fuzz.log 2>&1) || { tail -40 "$out/fuzz.log"; exit 1; }
grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/fuzz.log" | sed 's/^/  /'
echo "ci/fuzz.sh: no crash, no sanitizer report, no broken invariant"
