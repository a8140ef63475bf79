#!/usr/bin/env bash
# The layout of the sources: C++ by clang-format (.clang-format), Python by black (pyproject.toml: 120 columns).
#   bash ci/format.sh           rewrites every file that is not laid out so
#   bash ci/format.sh --check   changes nothing; fails, naming the files, when one would change
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(find lib app tests benchmarks -name '*.cpp' -o -name '*.hpp' -o -name '*.h' | sort)
mapfile -t py < <(find app tests benchmarks -name '*.py' | sort)
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${cpp[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  mapfile -t badpy < <(black --check "${py[@]}" 2>&1 | sed -n 's/^would reformat //p')
  bad+=("${badpy[@]}")
  if [ ${#bad[@]} -gt 0 ]; then
    echo "ci/format.sh: ${#bad[@]} file(s) not laid out as .clang-format or pyproject.toml say (bash ci/format.sh rewrites them):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "ci/format.sh: ${#cpp[@]} C++ and ${#py[@]} Python files laid out"
else
  clang-format -i "${cpp[@]}"
  black --quiet "${py[@]}"
  echo "ci/format.sh: ${#cpp[@]} C++ and ${#py[@]} Python files rewritten where needed"
fi
