#!/usr/bin/env bash
# Installs the man page and the bash, zsh and fish completions of `captions`, generated from the
# same ArgumentParser definitions as its help (the man page by Scripts/man-page.sh, through
# swift-argument-parser's generate-manual tool; completions by `captions --generate-completion-script`).
# As root into /usr/local, else into ~/.local; PREFIX=... to choose. Run by Scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then prefix=${PREFIX:-/usr/local}; else prefix=${PREFIX:-$HOME/.local}; fi
captions=.build/release/captions
out=.build/shell
mkdir -p "$out"

Scripts/man-page.sh "$out"
for shell in bash zsh fish; do "$captions" --generate-completion-script "$shell" > "$out/captions.$shell"; done

install -D -m 644 "$out/captions.1" "$prefix/share/man/man1/captions.1"
install -D -m 644 "$out/captions.bash" "$prefix/share/bash-completion/completions/captions"
install -D -m 644 "$out/captions.zsh" "$prefix/share/zsh/site-functions/_captions"
install -D -m 644 "$out/captions.fish" "$prefix/share/fish/vendor_completions.d/captions.fish"
echo "setup: man page and completions in $prefix/share (man captions; bash, zsh and fish complete captions)"
