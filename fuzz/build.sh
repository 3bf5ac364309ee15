#!/bin/sh
# Builds the libFuzzer targets with clang-14 and libFuzzer + ASan + UBSan,
# straight from the core sources (the main CMake build uses g++ and is not involved).
#
#   fuzz/build.sh [TARGET]            -> build-fuzz/TARGET (default: all four)
#   fuzz/build.sh run TARGET [ARGS]   -> also fuzzes TARGET with libFuzzer ARGS
#                                        (default -max_total_time=300) on a
#                                        scratch copy of its seed corpus
# Targets:
#   parser_fuzzer    the text format (seeds fuzz/corpus, dictionary fuzz/relay.dict)
#   metadata_fuzzer  TVM's #[metadata] JSON (seeds fuzz/corpus-metadata)
#   onnx_fuzzer      the ONNX importer (seeds: the ONNX backend tests' models)
#   pipeline_fuzzer  the pipeline spec (seeds fuzz/corpus-pipeline: the suite's pipelines and every option kind)
#   tvmscript_fuzzer the TVMScript loader and printer (seeds tests/tvmscript/*.py)
#   repl_fuzzer      REPL command sessions (fuzz/repl_session.h; no seeds: bytes
#                    steer the generator). Compiles the whole product (passes,
#                    REPL, LLVM code generation): the slowest target to build.
#
# Crashers are written to build-fuzz/crashes/; add each one as a regression
# test (tests/bad/ for text, tests/frontend/test_fuzz_regressions.cpp for the others) once fixed.
set -eu
cd "$(dirname "$0")/.."
OUT="${OUT:-build-fuzz}"
# Absolute: repl_fuzzer runs its sessions in a scratch directory (it changes
# the working directory), and libFuzzer writes the corpus and crashers as it goes.
case "$OUT" in /*) ;; *) OUT="$(pwd)/$OUT" ;; esac
JOBS="${JOBS:-2}"
CXX="${CXX:-clang++-14}"
FLAGS="-std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I. -DONNX_ML=1 -DONNX_NAMESPACE=onnx"
mkdir -p "$OUT/obj" "$OUT/crashes"

# compile SRC...: objects into $OUT/obj, echoing their paths into $objects.
compile() {
  objects=""
  running=0
  for src in "$@"; do
    obj="$OUT/obj/$(echo "$src" | tr / _).o"
    objects="$objects $obj"
    if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find core -name '*.h' -newer "$obj" | head -1)" ]; then
      # At most $JOBS compilers at once (`jobs` cannot count them in a POSIX
      # sh command substitution, so wait for each batch).
      if [ "$running" -ge "$JOBS" ]; then
        wait
        running=0
      fi
      echo "compile $src"
      $CXX $FLAGS -c "$src" -o "$obj" &
      running=$((running + 1))
    fi
  done
  wait
}

build() {
  case "$1" in
    parser_fuzzer|metadata_fuzzer|tvmscript_fuzzer)
      compile core/support/*.cpp core/ir/*.cpp core/text/*.cpp core/analysis/*.cpp "fuzz/$1.cpp"
      $CXX -fsanitize=fuzzer,address,undefined $objects -o "$OUT/$1" ;;
    pipeline_fuzzer)
      compile core/support/*.cpp core/ir/*.cpp core/text/*.cpp core/analysis/*.cpp core/interp/*.cpp core/pass/*.cpp core/trace/*.cpp "fuzz/$1.cpp"
      $CXX -fsanitize=fuzzer,address,undefined $objects -lpthread -o "$OUT/$1" ;;
    onnx_fuzzer)
      compile core/support/*.cpp core/ir/*.cpp core/text/*.cpp core/analysis/*.cpp core/interp/*.cpp core/frontend/*.cpp fuzz/onnx_fuzzer.cpp
      $CXX -fsanitize=fuzzer,address,undefined $objects -lonnx_proto -lprotobuf -lpthread -o "$OUT/$1" ;;
    repl_fuzzer)
      FLAGS="$FLAGS -isystem /usr/lib/llvm-14/include -DPASSLAB_CODEGEN_SOURCE_DIR=\"$(pwd)/codegen\""
      compile core/*/*.cpp passes/*.cpp $(ls repl/*.cpp | grep -v repl/main.cpp) codegen/*.cpp report/*.cpp graph/*.cpp fuzz/repl_fuzzer.cpp
      # graph/graphviz_layout.cpp links Graphviz's dot-layout and core plugins
      # in (as the CMake build does); they live in Graphviz's own library folder.
      gvdir="$(pkg-config --variable=libdir libgvc)/graphviz"
      $CXX -fsanitize=fuzzer,address,undefined $objects -L/usr/lib/llvm-14/lib -lLLVM-14 -lonnx_proto -lprotobuf -lgvc -lcgraph \
        -L"$gvdir" -Wl,-rpath,"$gvdir" -lgvplugin_dot_layout -lgvplugin_core -ledit -lpthread -o "$OUT/$1" ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
  esac
  echo "built $OUT/$1"
}

if [ "${1:-}" = "run" ]; then
  target="${2:?fuzz/build.sh run TARGET}"
  shift 2
  build "$target"
  work="$OUT/corpus-$target"
  mkdir -p "$work"
  extra=""
  case "$target" in
    parser_fuzzer) cp fuzz/corpus/* "$work"/; extra="-dict=fuzz/relay.dict -max_len=65536" ;;
    metadata_fuzzer) cp fuzz/corpus-metadata/* "$work"/; extra="-max_len=65536" ;;
    pipeline_fuzzer) cp fuzz/corpus-pipeline/* "$work"/; extra="-max_len=65536" ;;
    tvmscript_fuzzer) cp tests/tvmscript/*.py "$work"/; extra="-max_len=65536" ;;
    repl_fuzzer) extra="-max_len=512" ;;
    onnx_fuzzer)
      # The backend tests' models (small, every op), under unique names.
      for m in $(find /usr/share -path '*onnx*' -name model.onnx 2>/dev/null); do
        cp "$m" "$work/$(echo "$m" | md5sum | cut -c1-16).onnx"
      done
      extra="-max_len=262144" ;;
  esac
  [ $# -eq 0 ] && set -- -max_total_time=300
  # The suite's suppressions (third-party libraries only: Graphviz keeps a
  # process-wide context whose allocations LeakSanitizer reports at exit).
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" LSAN_OPTIONS="suppressions=$(pwd)/scripts/lsan.supp" \
    "$OUT/$target" $extra -timeout=20 -rss_limit_mb=4096 -artifact_prefix="$OUT/crashes/$target-" -print_final_stats=1 "$@" "$work"
  exit $?
fi

if [ $# -eq 0 ]; then
  for t in parser_fuzzer metadata_fuzzer onnx_fuzzer pipeline_fuzzer tvmscript_fuzzer; do build "$t"; done
else
  build "$1"
fi
