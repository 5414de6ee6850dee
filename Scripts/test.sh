#!/usr/bin/env bash
# Runs every test: the Swift test suites, the shared conformance checkers against the release CLI,
# then each fuzz target for a few seconds. Exits non-zero when anything fails.
#   Scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/build.sh
swift test

shared=../shared/conformance
if [ -f "$shared/webvtt/check-webvtt.mjs" ]; then
  echo "== WebVTT conformance (web-platform-tests)"
  node "$shared/webvtt/check-webvtt.mjs" --cmd '.build/release/captions convert {in} --to json'
else
  echo "== WebVTT conformance skipped: $shared/webvtt not found"
fi
if [ -f "$shared/ttml/check-ttml.py" ]; then
  echo "== TTML conformance (W3C IMSC tests)"
  python3 "$shared/ttml/check-ttml.py" --cmd '.build/release/captions convert {in} --to json'
else
  echo "== TTML conformance skipped: $shared/ttml not found"
fi

# Every fuzz target for 15 s (libFuzzer + ASan; about 5 minutes with the build). Longer runs:
# Scripts/fuzz.sh SECONDS, see README "Fuzzing".
Scripts/fuzz.sh 15
