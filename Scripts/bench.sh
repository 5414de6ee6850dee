#!/usr/bin/env bash
# Benchmarks `captions` against its peer, in the same run, on generated input.
#   Scripts/bench.sh            # build release, then every benchmark
# Prints the best wall time (runs alternate between the tools) and peak memory of each, and the
# ratios the project's targets use.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product captions >/dev/null
captions="$(pwd)/.build/release/captions"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run of a command: "seconds kilobytes" (wall time and peak RSS).
once() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr"; return 1; }
  cat "$work/time"
}

# Runs two commands in alternation ROUNDS times (so that a machine that slows down or speeds up
# affects both alike) and prints the best wall time and the largest peak RSS of each:
# "ours_s ours_kb peer_s peer_kb". A missing peer (first word "-") gives "0 0" for it.
versus() {
  local rounds=$1 ours=$2 peer=$3
  local best_ours="" best_peer="" rss_ours=0 rss_peer=0 s kb
  for _ in $(seq "$rounds"); do
    read -r s kb < <(once bash -c "$ours")
    if [ -z "$best_ours" ] || awk "BEGIN{exit !($s < $best_ours)}"; then best_ours=$s; fi
    [ "$kb" -gt "$rss_ours" ] && rss_ours=$kb
    if [ "$peer" != "-" ]; then
      read -r s kb < <(once bash -c "$peer")
      if [ -z "$best_peer" ] || awk "BEGIN{exit !($s < $best_peer)}"; then best_peer=$s; fi
      [ "$kb" -gt "$rss_peer" ] && rss_peer=$kb
    fi
  done
  echo "$best_ours $rss_ours ${best_peer:-0} $rss_peer"
}

ratio() { awk "BEGIN{ if ($2 == 0) print \"n/a\"; else printf \"%.3f\", $1 / $2 }"; }

echo "== SRT -> WebVTT (seeded generator, Scripts/make-big-srt.py)"
python3 Scripts/make-big-srt.py 100000 "$work/big.srt" 2026
python3 Scripts/make-big-srt.py 10000 "$work/big10k.srt" 2026
printf '   input: 100,000 cues, %s bytes\n' "$(stat -c %s "$work/big.srt")"
peer_command="-"
if command -v ffmpeg >/dev/null; then
  peer_command="ffmpeg -v error -y -i '$work/big.srt' '$work/big_ffmpeg.vtt'"
else
  echo "   ffmpeg not found: no peer"
fi
read -r ours ours_rss peer peer_rss < <(versus 7 "'$captions' convert '$work/big.srt' -o '$work/big.vtt'" "$peer_command")
read -r ours10k _ _ _ < <(versus 7 "'$captions' convert '$work/big10k.srt' -o '$work/big10k.vtt'" -)
printf '   captions 100k: %6.3f s  %7d KB peak\n' "$ours" "$ours_rss"
printf '   ffmpeg   100k: %6.3f s  %7d KB peak\n' "$peer" "$peer_rss"
printf '   captions 10k:  %6.3f s\n' "$ours10k"
printf '   ratio captions/ffmpeg wall: %s (target <= 0.1)\n' "$(ratio "$ours" "$peer")"
printf '   peak RSS: %d KB (target <= 65536)\n' "$ours_rss"
printf '   scaling 100k/10k: %s (target <= 12)\n' "$(ratio "$ours" "$ours10k")"

echo
echo "== Flash scan vs decoding alone (60 s, 1920x1080, 30 fps, H.264 testsrc2)"
if command -v ffmpeg >/dev/null; then
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30:d=60 -c:v libx264 -preset veryfast -pix_fmt yuv420p "$work/clip.mp4"
  read -r scan scan_rss decode decode_rss < <(versus 3 "'$captions' flashes -q '$work/clip.mp4'; test \$? -ne 1" \
    "ffmpeg -v error -threads 2 -i '$work/clip.mp4' -f null -")
  printf '   captions flashes: %6.2f s  %7d KB peak\n' "$scan" "$scan_rss"
  printf '   ffmpeg decode:    %6.2f s  %7d KB peak\n' "$decode" "$decode_rss"
  printf '   ratio scan/decode wall: %s (target <= 1.15)\n' "$(ratio "$scan" "$decode")"
  printf '   peak RSS: %d KB (target <= 307200)\n' "$scan_rss"
else
  echo "   ffmpeg not found: skipped"
fi
