#!/bin/sh
# Builds the parser fuzzer with clang-14 and libFuzzer + ASan + UBSan, straight
# from the core sources (the main CMake build uses g++ and is not involved).
#
#   fuzz/build.sh                 -> build-fuzz/parser_fuzzer
#   fuzz/build.sh run [SECONDS]   -> also fuzzes for SECONDS (default 300) on a
#                                    scratch copy of fuzz/corpus, with fuzz/relay.dict
#
# Crashers are written to build-fuzz/crashes/; add each one to tests/bad/ as a
# regression case once fixed.
set -eu
cd "$(dirname "$0")/.."
OUT="${OUT:-build-fuzz}"
JOBS="${JOBS:-2}"
CXX="${CXX:-clang++-14}"
FLAGS="-std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I."
mkdir -p "$OUT/obj" "$OUT/crashes"

objects=""
for src in core/ir/*.cpp core/text/*.cpp core/analysis/*.cpp fuzz/parser_fuzzer.cpp; do
  obj="$OUT/obj/$(echo "$src" | tr / _).o"
  objects="$objects $obj"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find core/ir core/text core/analysis -name '*.h' -newer "$obj" | head -1)" ]; then
    while [ "$(jobs -p | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
    echo "compile $src"
    $CXX $FLAGS -c "$src" -o "$obj" &
  fi
done
wait
$CXX -fsanitize=fuzzer,address,undefined $objects -o "$OUT/parser_fuzzer"
echo "built $OUT/parser_fuzzer"

if [ "${1:-}" = "run" ]; then
  seconds="${2:-300}"
  work="$OUT/corpus"
  mkdir -p "$work"
  cp fuzz/corpus/* "$work"/
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
    "$OUT/parser_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
    -dict=fuzz/relay.dict -artifact_prefix="$OUT/crashes/" -print_final_stats=1 "$work"
fi
