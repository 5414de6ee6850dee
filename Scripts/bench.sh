#!/usr/bin/env bash
# Benchmarks `captions` against its peer, in the same run, on generated input.
#   Scripts/bench.sh            # build release, then every benchmark
# Prints wall time and peak memory for each tool, and the ratios the project's targets use.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product captions >/dev/null
captions="$(pwd)/.build/release/captions"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Best wall time (s) and peak RSS (KB) over N runs of a command: "seconds kilobytes".
measure() {
  local runs=$1; shift
  local best="" rss=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr"; return 1; }
    read -r seconds kilobytes < "$work/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; fi
    if [ "$kilobytes" -gt "$rss" ]; then rss=$kilobytes; fi
  done
  echo "$best $rss"
}

ratio() { awk "BEGIN{ if ($2 == 0) print \"n/a\"; else printf \"%.3f\", $1 / $2 }"; }

echo "== SRT -> WebVTT (seeded generator, Scripts/make-big-srt.py)"
python3 Scripts/make-big-srt.py 100000 "$work/big.srt" 2026
python3 Scripts/make-big-srt.py 10000 "$work/big10k.srt" 2026
printf '   input: 100,000 cues, %s bytes\n' "$(stat -c %s "$work/big.srt")"
read -r ours ours_rss < <(measure 5 "$captions" convert "$work/big.srt" -o "$work/big.vtt")
read -r ours10k _ < <(measure 5 "$captions" convert "$work/big10k.srt" -o "$work/big10k.vtt")
if command -v ffmpeg >/dev/null; then
  read -r peer peer_rss < <(measure 3 ffmpeg -v error -y -i "$work/big.srt" "$work/big_ffmpeg.vtt")
else
  peer=0 peer_rss=0
  echo "   ffmpeg not found: no peer"
fi
printf '   captions 100k: %6.3f s  %7d KB peak\n' "$ours" "$ours_rss"
printf '   ffmpeg   100k: %6.3f s  %7d KB peak\n' "$peer" "$peer_rss"
printf '   captions 10k:  %6.3f s\n' "$ours10k"
printf '   ratio captions/ffmpeg wall: %s (target <= 0.1)\n' "$(ratio "$ours" "$peer")"
printf '   peak RSS: %d KB (target <= 65536)\n' "$ours_rss"
printf '   scaling 100k/10k: %s (target <= 12)\n' "$(ratio "$ours" "$ours10k")"
