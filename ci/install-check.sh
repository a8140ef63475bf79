#!/usr/bin/env bash
# The install as a user meets it (after ci/build.sh): `cmake --install build` into a temporary prefix, then
#   1. the installed tbpeta runs the quick start (options/quickstart.opts, 2 ranks) from a directory outside the
#      sources with TBPETA_DATA_DIR unset: it reads the installed parameter sets, and prints the README's 8 states;
#   2. the installed tbpeta -version names tbpeta's version and the libraries;
#   3. a user's CMake project (tests/install: find_package(tbpeta), target tbpeta::tbpeta) builds and prints the
#      nemo3d GaAs band gap from the installed data;
#   4. the same main.cpp compiled by hand through pkg-config (c++ main.cpp $(pkg-config --cflags --libs tbpeta)).
# Everything is made under one mktemp directory, removed at the end; nothing is written into the sources.
#   bash ci/install-check.sh            (callable alone; ci/test.sh runs it beside ctest)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source ci/env.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/tbpeta-install-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
note() { echo "ci/install-check.sh: $* ($SECONDS s)"; }
# Fails with the output of the step when a number is not the one expected.
expect() { # expect FILE PATTERN WHAT
  grep -qE -- "$2" "$1" || { cat "$1"; note "FAILED: $3 (expected /$2/)"; exit 1; }
}

cmake --install build --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
note "installed into a temporary prefix: $(find "$prefix" -type f | wc -l) files"

unset TBPETA_DATA_DIR
mkdir "$work/run" && cd "$work/run"
mpiexec -n 2 "$prefix/bin/tbpeta" -options_file "$root/options/quickstart.opts" -output quickstart.h5 >quickstart.log 2>&1 ||
  { cat quickstart.log; note "FAILED: the installed tbpeta on the quick start"; exit 1; }
for pair in "0 -0.29754229" "1 -0.29754229" "2 -0.27878101" "3 -0.27878101" "4 1.74870139" "5 1.74870139" \
  "6 2.35378237" "7 2.35378237"; do
  set -- $pair
  expect quickstart.log "^ +$1 +$2 " "state $1 of the quick start"
done
expect quickstart.log "parameter set nemo3d" "the quick start's parameter set"
note "the installed tbpeta ran the quick start on 2 ranks outside the sources: the README's 8 states"

"$prefix/bin/tbpeta" -version >version.log 2>&1 || { cat version.log; exit 1; }
expect version.log "^tbpeta [0-9]+\.[0-9]+\.[0-9]+, git " "the version line"
expect version.log "^  data    $prefix/share/tbpeta$" "the installed data directory"
[ "$(grep -c . version.log)" = 7 ] || { cat version.log; note "FAILED: -version prints one block of 7 lines"; exit 1; }

cmake -G Ninja -S "$root/tests/install" -B "$work/user" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$work/user.log" 2>&1 && cmake --build "$work/user" >>"$work/user.log" 2>&1 ||
  { cat "$work/user.log"; note "FAILED: the user's CMake project on find_package(tbpeta)"; exit 1; }
"$work/user/gaas_gap" >cmake.log 2>&1 || { cat cmake.log; exit 1; }
expect cmake.log "^nemo3d GaAs: band gap 1\.42421 eV$" "the band gap printed by the find_package(tbpeta) program"
note "find_package(tbpeta): $(cat cmake.log)"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
c++ -O1 "$root/tests/install/main.cpp" -o gaas_gap_pc $(pkg-config --cflags --libs tbpeta) >pc.log 2>&1 ||
  { cat pc.log; note "FAILED: main.cpp through pkg-config"; exit 1; }
./gaas_gap_pc >pc.log 2>&1 || { cat pc.log; exit 1; }
expect pc.log "^nemo3d GaAs: band gap 1\.42421 eV$" "the band gap printed by the pkg-config program"
note "pkg-config tbpeta: $(cat pc.log)"
note "passed"
