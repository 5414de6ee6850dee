#!/usr/bin/env bash
# Builds the fuzz targets (Sources/CaptionsFuzz) with libFuzzer and AddressSanitizer, then runs
# each for SECONDS (default 60). Exits 1 when any target found something (a crash, a timeout, an
# out-of-memory, or a harness finding such as a round-trip difference), 0 otherwise; 0 with a
# note when the toolchain has no libFuzzer (it ships with the Linux toolchains only).
#   Scripts/fuzz.sh [SECONDS] [TARGET...]       targets: `.build-fuzz/release/CaptionsFuzz list`
# Environment:
#   FUZZ_MAX_LEN=4096   largest input libFuzzer makes, in bytes
#   FUZZ_TIMEOUT=10     seconds one input may take before it counts as a timeout
#   FUZZ_FLAGS=...      more libFuzzer flags, e.g. "-jobs=2 -workers=2" or "-fork=2 -ignore_crashes=1"
# Everything goes under .build-fuzz/: seeds/TARGET (rebuilt from the fixtures, Samples/,
# Tests/CaptionsFuzzTests/Regressions and ../shared each run), corpus/TARGET (kept between runs),
# artifacts/TARGET (crash-*, timeout-*, oom-* inputs) and logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=.build-fuzz
max_len=${FUZZ_MAX_LEN:-4096}
timeout=${FUZZ_TIMEOUT:-10}

if [ "$(uname -s)" != Linux ]; then
  echo "== fuzzing skipped: libFuzzer comes with the Linux Swift toolchain only"
  exit 0
fi
swiftc=$(readlink -f "$(command -v swiftc)")
libfuzzer=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -1 || true)
if [ -z "$libfuzzer" ]; then
  echo "== fuzzing skipped: no libclang_rt.fuzzer_no_main in the toolchain at $(dirname "$swiftc")/.."
  exit 0
fi

# SwiftPM links an executable with `--defsym main=CaptionsFuzz_main`, which clashes with the
# `main` of -sanitize=fuzzer's libFuzzer; so compile with the same instrumentation as
# -sanitize=fuzzer (ASan + sanitizer coverage) and link libFuzzer without its main. main.swift
# then calls LLVMFuzzerRunDriver (CAPTIONS_LIBFUZZER).
echo "== building the fuzz targets ($build)"
swift build -c release --build-path "$build" --product CaptionsFuzz \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table \
  -Xswiftc -DCAPTIONS_LIBFUZZER \
  -Xlinker "$libfuzzer" -Xlinker -lstdc++
fuzzer=$build/release/CaptionsFuzz

if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <("$fuzzer" list); fi

# Seeds: every file of the target's kinds in the fixtures, the samples, the regression corpus and
# ../shared (when it exists), copied under their content hash so names never collide.
seed_sources=(Tests/CaptionsFormatsTests/Fixtures Tests/CaptionsCommandsTests Tests/CaptionsFuzzTests/Regressions/a53 Samples ../shared/realworld ../shared/conformance)
seed_patterns() {
  case $1 in
    webvtt) echo "*.vtt *.webvtt" ;;
    a53) echo "*.a53" ;;
    srt) echo "*.srt" ;;
    ttml) echo "*.ttml *.dfxp *.xml" ;;
    podcast-json | description-json) echo "*.json" ;;
    scc) echo "*.scc" ;;
    stl) echo "*.stl" ;;
    sami) echo "*.smi *.sami" ;;
    ass) echo "*.ass *.ssa" ;;
    sbv) echo "*.sbv *.sub" ;;
    microdvd) echo "*.sub" ;;
    description-csv) echo "*.csv" ;;
    description-text) echo "*.txt" ;;
  esac
}
make_seeds() {
  local target=$1 dir=$build/seeds/$1 pattern file sources=()
  rm -rf "$dir" && mkdir -p "$dir"
  for source in "${seed_sources[@]}"; do [ -d "$source" ] && sources+=("$source"); done
  for pattern in $(seed_patterns "$target"); do
    find "${sources[@]}" -type f -iname "$pattern" -size -256k -print0 2>/dev/null
  done | while IFS= read -r -d '' file; do
    cp "$file" "$dir/$(sha1sum "$file" | cut -c1-16)"
  done
  [ -d "Tests/CaptionsFuzzTests/Regressions/$target" ] && \
    find "Tests/CaptionsFuzzTests/Regressions/$target" -type f -exec cp {} "$dir/" \;
  true
}

failed=()
for target in "${targets[@]}"; do
  make_seeds "$target"
  corpus=$build/corpus/$target artifacts=$build/artifacts/$target log=$build/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  "$fuzzer" dict "$target" > "$build/seeds/$target.dict"
  echo "== fuzzing $target for ${seconds}s ($(ls "$build/seeds/$target" | wc -l) seeds, $(ls "$corpus" | wc -l) in the corpus)"
  status=0
  # The Swift backtracer would hold a crash for many seconds; libFuzzer reports it instead.
  # shellcheck disable=SC2086
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
    "$fuzzer" "$target" -max_total_time="$seconds" -timeout="$timeout" -max_len="$max_len" \
    -rss_limit_mb=2048 -dict="$build/seeds/$target.dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 ${FUZZ_FLAGS:-} "$corpus" "$build/seeds/$target" > "$log" 2>&1 || status=$?
  grep -E '^#[0-9]+ +(DONE|INITED)' "$log" | tail -2 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | tr '\n' ' ' && echo
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "!! $target: libFuzzer exited $status; see $log"
    grep -E '==CaptionsFuzz== FINDING|ERROR: (libFuzzer|AddressSanitizer)|^SUMMARY|Test unit written to|Fatal error' "$log" | head -8 || true
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "== fuzzing found problems in: ${failed[*]}"
  echo "   replay one: swift build --product CaptionsFuzz && .build/debug/CaptionsFuzz TARGET $build/artifacts/TARGET/crash-…"
  exit 1
fi
echo "== fuzzing: nothing found in ${targets[*]}"
