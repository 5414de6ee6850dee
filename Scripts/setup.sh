#!/usr/bin/env bash
# Installs what Captions needs on Debian 12 (run as root or with sudo), then builds the release CLI.
#   Scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(pkg-config ffmpeg espeak-ng libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libxml2-dev libuchardet-dev)
command -v node >/dev/null 2>&1 || packages+=(nodejs)

export DEBIAN_FRONTEND=noninteractive
sudo_if_needed apt-get update
sudo_if_needed apt-get install -y --no-install-recommends "${packages[@]}"

Scripts/build.sh
echo "setup: built $(pwd)/.build/release/captions"
