#!/usr/bin/env bash
# Benchmarks `captions` against its peer, in the same run, on generated input.
#   Scripts/bench.sh            # build release, then every benchmark
#   Scripts/bench.sh captions   # only the caption formats (SRT, TTML, SCC, STL)
#   Scripts/bench.sh flash      # only the flash scan and dim
#   Scripts/bench.sh quality    # only captions check (100,000 cues; shot changes of a 60 s 1080p clip)
#   Scripts/bench.sh speech     # only transcribe (needs Scripts/install-speech.sh, pocketsphinx-testdata)
#   Scripts/bench.sh batch      # many files at once: 1,000 SRT files; 8 clips with --jobs 2
#   WITH_TTCONV=1 Scripts/bench.sh captions   # also ttconv on the 10k files (minutes)
# Prints the best wall time (runs alternate between the tools) and peak memory of each, and the
# ratios the project's targets use.
set -euo pipefail
cd "$(dirname "$0")/.."

sections=${*:-captions flash quality speech batch}
want() { [[ " $sections " == *" $1 "* ]]; }
# The peers Scripts/setup.sh installs (ttconv) come first.
[ -d .build/peers/bin ] && PATH="$(pwd)/.build/peers/bin:$PATH"

Scripts/build.sh >/dev/null
captions="$(pwd)/.build/release/captions"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall time of one run of a command, in seconds to the millisecond.
seconds() {
  local start=$EPOCHREALTIME
  "$@" >/dev/null 2>"$work/stderr" || [ $? -eq 2 ] || { cat "$work/stderr"; return 1; }
  awk "BEGIN{printf \"%.3f\", $EPOCHREALTIME - $start}"
}

# Peak RSS in KB of one run of a command.
peak_kb() {
  /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>&1 || true
  cat "$work/rss"
}

# The lower of two times.
best() { if [ -z "$1" ] || awk "BEGIN{exit !($2 < $1)}"; then echo "$2"; else echo "$1"; fi; }

# versus ROUNDS: runs the commands in the arrays `ours` and `peer` in alternation (so that a
# machine that slows down or speeds up affects both alike) and prints "ours_s ours_kb peer_s
# peer_kb": best wall times and peak memory. An empty `peer` gives "0 0" for it.
versus() {
  local rounds=$1 best_ours="" best_peer=""
  for _ in $(seq "$rounds"); do
    best_ours=$(best "$best_ours" "$(seconds "${ours[@]}")")
    if [ ${#peer[@]} -gt 0 ]; then best_peer=$(best "$best_peer" "$(seconds "${peer[@]}")"); fi
  done
  local peer_kb=0
  [ ${#peer[@]} -gt 0 ] && peer_kb=$(peak_kb "${peer[@]}")
  echo "$best_ours $(peak_kb "${ours[@]}") ${best_peer:-0} $peer_kb"
}

ratio() { awk "BEGIN{ if ($2 == 0) print \"n/a\"; else printf \"%.4g\", $1 / $2 }"; }

if want captions; then
echo "== SRT -> WebVTT (seeded generator, Scripts/make-big-srt.py)"
python3 Scripts/make-big-srt.py 100000 "$work/big.srt" 2026
python3 Scripts/make-big-srt.py 10000 "$work/big10k.srt" 2026
printf '   input: 100,000 cues, %s bytes\n' "$(stat -c %s "$work/big.srt")"
peer=()
if command -v ffmpeg >/dev/null; then
  peer=(ffmpeg -v error -y -i "$work/big.srt" "$work/big_ffmpeg.vtt")
else
  echo "   ffmpeg not found: no peer"
fi
ours=("$captions" convert "$work/big.srt" -o "$work/big.vtt")
read -r ours_s ours_rss peer_s peer_rss < <(versus 7)
ours=("$captions" convert "$work/big10k.srt" -o "$work/big10k.vtt")
peer=()
read -r ours10k_s _ _ _ < <(versus 7)
printf '   captions 100k: %6.3f s  %7d KB peak\n' "$ours_s" "$ours_rss"
printf '   ffmpeg   100k: %6.3f s  %7d KB peak\n' "$peer_s" "$peer_rss"
printf '   captions 10k:  %6.3f s\n' "$ours10k_s"
printf '   ratio captions/ffmpeg wall: %s (target <= 0.1)\n' "$(ratio "$ours_s" "$peer_s")"
printf '   peak RSS: %d KB (target <= 65536)\n' "$ours_rss"
printf '   scaling 100k/10k: %s (target <= 12)\n' "$(ratio "$ours_s" "$ours10k_s")"

echo
echo "== TTML -> WebVTT (the same seeded cues, written as IMSC1 by captions)"
"$captions" convert "$work/big10k.srt" -o "$work/big10k.ttml" 2>/dev/null
"$captions" convert "$work/big.srt" -o "$work/big.ttml" 2>/dev/null
printf '   input: 10,000 cues %s bytes; 100,000 cues %s bytes\n' "$(stat -c %s "$work/big10k.ttml")" "$(stat -c %s "$work/big.ttml")"
peer=()
ours=("$captions" convert "$work/big10k.ttml" -o "$work/ttml10k.vtt")
read -r ttml10k_s ttml10k_rss _ _ < <(versus 5)
ours=("$captions" convert "$work/big.ttml" -o "$work/ttml100k.vtt")
read -r ttml100k_s ttml100k_rss _ _ < <(versus 3)
printf '   captions 10k:  %6.3f s  %7d KB peak (target <= 0.2 s)\n' "$ttml10k_s" "$ttml10k_rss"
printf '   captions 100k: %6.3f s  %7d KB peak (target: RSS <= %d KB)\n' "$ttml100k_s" "$ttml100k_rss" \
  "$(( $(stat -c %s "$work/big.ttml") * 10 / 1024 + 32768 ))"
printf '   scaling 100k/10k: %s (target <= 12)\n' "$(ratio "$ttml100k_s" "$ttml10k_s")"
if command -v tt >/dev/null && [ -n "${WITH_TTCONV:-}" ]; then
  ttconv_s=$(seconds tt convert -i "$work/big10k.ttml" -o "$work/ttconv10k.vtt")
  printf '   ttconv 10k:    %6.3f s (peer, one run)\n' "$ttconv_s"
  printf '   ratio captions/ttconv 10k: %s\n' "$(ratio "$ttml10k_s" "$ttconv_s")"
else
  echo "   peer: WITH_TTCONV=1 (after pip install ttconv) also times ttconv on the 10k file (minutes)"
fi

echo
echo "== SCC and EBU STL -> WebVTT (the same 10,000 seeded cues, written as SCC and STL by captions)"
"$captions" convert "$work/big10k.srt" -o "$work/big10k.scc" 2>/dev/null
"$captions" convert "$work/big10k.srt" -o "$work/big10k.stl" 2>/dev/null
printf '   input: SCC %s bytes; STL %s bytes\n' "$(stat -c %s "$work/big10k.scc")" "$(stat -c %s "$work/big10k.stl")"
for format in scc stl; do
  ours=("$captions" convert "$work/big10k.$format" -o "$work/$format.vtt")
  peer=()
  read -r format_s format_rss _ _ < <(versus 5)
  printf '   captions %s 10k: %6.3f s  %7d KB peak\n' "$format" "$format_s" "$format_rss"
  if command -v tt >/dev/null && [ -n "${WITH_TTCONV:-}" ]; then
    peer_s=$(seconds tt convert -i "$work/big10k.$format" -o "$work/ttconv-$format.vtt")
    printf '   ttconv   %s 10k: %6.3f s (peer, one run)\n' "$format" "$peer_s"
    printf '   ratio ttconv/captions %s: %s (target >= 20)\n' "$format" "$(ratio "$peer_s" "$format_s")"
  fi
done
[ -n "${WITH_TTCONV:-}" ] || echo "   peer: WITH_TTCONV=1 (ttconv from Scripts/setup.sh) also times ttconv on both files (minutes)"
fi

# scan_versus_decode CLIP ROUNDS: times `captions flashes` against ffmpeg decoding the same clip
# (2 threads, no output), in alternation; sets scan, scan_rss, decode, decode_rss.
scan_versus_decode() {
  ours=("$captions" flashes -q "$1")
  peer=(ffmpeg -v error -threads 2 -i "$1" -f null -)
  read -r scan scan_rss decode decode_rss < <(versus "$2")
}

# print_scan_versus_decode TARGET: the lines for the last scan_versus_decode.
print_scan_versus_decode() {
  printf '   captions flashes: %6.2f s  %7d KB peak\n' "$scan" "$scan_rss"
  printf '   ffmpeg decode:    %6.2f s  %7d KB peak\n' "$decode" "$decode_rss"
  printf '   ratio scan/decode wall: %s (target <= %s)\n' "$(ratio "$scan" "$decode")" "$1"
}

if want flash; then
echo
echo "== Flash scan vs decoding alone (60 s, 1920x1080, 30 fps, H.264 testsrc2)"
if command -v ffmpeg >/dev/null; then
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30:d=60 -c:v libx264 -preset veryfast -pix_fmt yuv420p "$work/clip.mp4"
  scan_versus_decode "$work/clip.mp4" 3
  print_scan_versus_decode 1.00
  printf '   peak RSS: %d KB (target <= 307200)\n' "$scan_rss"
  ours=("$captions" flashes -q --fast "$work/clip.mp4")
  peer=()
  read -r fast _ _ _ < <(versus 1)
  printf '   captions flashes --fast (deblocking skipped): %6.2f s, ratio %s\n' "$fast" "$(ratio "$fast" "$decode")"
  # What Apple's model adds: the same scan with and without it, in alternation.
  ours=("$captions" flashes -q "$work/clip.mp4")
  peer=("$captions" flashes -q --bench-without-dfl "$work/clip.mp4")
  read -r with_dfl _ without_dfl _ < <(versus 3)
  printf '   Dim Flashing Lights cost: %6.2f s with, %6.2f s without; ratio %s (target <= 1.03)\n' \
    "$with_dfl" "$without_dfl" "$(ratio "$with_dfl" "$without_dfl")"

  echo
  echo "== Flash scan vs decoding alone (20 s, 1280x720, 30 fps, H.264 testsrc2: cells not a whole number of pixels)"
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1280x720:r=30:d=20 -c:v libx264 -preset veryfast -pix_fmt yuv420p "$work/clip720.mp4"
  scan_versus_decode "$work/clip720.mp4" 3
  printf '   captions flashes: %6.2f s  %7d KB peak\n' "$scan" "$scan_rss"
  printf '   ffmpeg decode:    %6.2f s  %7d KB peak\n' "$decode" "$decode_rss"
  printf '   ratio scan/decode wall: %s (no target; the 60 s 1080p clip above is the goal)\n' "$(ratio "$scan" "$decode")"

  echo
  echo "== Flash scan vs decoding alone (20 s, 1920x1080, 30 fps, HEVC 10-bit PQ testsrc2)"
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30:d=20 -c:v libx265 -preset ultrafast \
    -x265-params log-level=error -pix_fmt yuv420p10le -color_primaries bt2020 -color_trc smpte2084 \
    -colorspace bt2020nc "$work/hdr.mkv"
  scan_versus_decode "$work/hdr.mkv" 3
  print_scan_versus_decode 1.10

  echo
  echo "== Flash scan on rolling credits vs decoding alone (10 s, 1920x1080, 30 fps, dense text rolling 240 px/s:"
  echo "   every cell near flashing, each change asked whether it is motion)"
  text='lt(mod(Y\,42)\,28)*gt(mod(abs(sin(floor(X/4)*12.9898+floor(Y/4)*78.233))*43758.5453\,1)\,0.62)'
  ffmpeg -v error -y -f lavfi -i "nullsrc=s=1920x3600:d=1,geq=lum='255*$text':cb=128:cr=128,format=gray" -frames:v 1 "$work/credits.png"
  ffmpeg -v error -y -loop 1 -framerate 30 -i "$work/credits.png" -vf "crop=1920:1080:0:'8*n',format=yuv420p" -t 10 \
    -c:v libx264 -preset veryfast -crf 18 "$work/credits.mp4"
  scan_versus_decode "$work/credits.mp4" 3
  printf '   captions flashes: %6.2f s  %7d KB peak\n' "$scan" "$scan_rss"
  printf '   ffmpeg decode:    %6.2f s  %7d KB peak\n' "$decode" "$decode_rss"
  printf '   ratio scan/decode wall: %s (no target; the 60 s clip above is the goal)\n' "$(ratio "$scan" "$decode")"

  echo
  echo "== captions dim (Apple's Dim Flashing Lights) vs ffmpeg re-encoding alone (the 60 s 1080p clip, libx264 veryfast, crf 18)"
  ours=("$captions" dim -q --preset veryfast --crf 18 "$work/clip.mp4" -o "$work/dimmed.mp4")
  peer=(ffmpeg -v error -y -i "$work/clip.mp4" -c:v libx264 -preset veryfast -crf 18 "$work/reencoded.mp4")
  read -r dim dim_rss encode encode_rss < <(versus 1)
  printf '   captions dim:   %6.2f s  %7d KB peak\n' "$dim" "$dim_rss"
  printf '   ffmpeg encode:  %6.2f s  %7d KB peak\n' "$encode" "$encode_rss"
  printf '   ratio dim/encode wall: %s (target <= 1.2)\n' "$(ratio "$dim" "$encode")"

  echo
  echo "== Flash scan memory at 2160p (5 s, 3840x2160, 30 fps, H.264 and HEVC 10-bit)"
  ffmpeg -v error -y -f lavfi -i testsrc2=s=3840x2160:r=30:d=5 -c:v libx264 -preset ultrafast "$work/uhd.mp4"
  ffmpeg -v error -y -f lavfi -i testsrc2=s=3840x2160:r=30:d=5 -c:v libx265 -preset ultrafast \
    -x265-params log-level=error -pix_fmt yuv420p10le "$work/uhd10.mkv"
  for clip in uhd.mp4 uhd10.mkv; do
    scan_versus_decode "$work/$clip" 1
    printf '   %-9s captions %6.2f s %7d KB peak; ffmpeg %6.2f s %7d KB (target: captions <= 307200 KB)\n' \
      "$clip" "$scan" "$scan_rss" "$decode" "$decode_rss"
  done
else
  echo "   ffmpeg not found: skipped"
fi
fi

if want quality; then
echo
echo "== captions check (netflix profile) on 100,000 seeded cues, the same cues after captions fix, and 100,000 cues that pass"
python3 Scripts/make-big-srt.py 100000 "$work/qc.srt" 2026
"$captions" fix "$work/qc.srt" -o "$work/qc-fixed.srt" 2>/dev/null || true
python3 - "$work/qc-clean.srt" <<'PY'
import sys
stamp = lambda ms: "%02d:%02d:%02d,%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
with open(sys.argv[1], "w") as out:
    for i in range(100000):
        start = i * 3500
        out.write("%d\n%s --> %s\nHello there, my friend.\nHow are you today?\n\n" % (i + 1, stamp(start), stamp(start + 3000)))
PY
peer=()
for file in qc qc-fixed qc-clean; do
  ours=(sh -c "\"$captions\" check \"$work/$file.srt\" -o \"$work/$file.txt\"; true")
  read -r check_s check_rss _ _ < <(versus 5)
  printf '   %-9s %s\n' "$file:" "$(tail -1 "$work/$file.txt" | sed 's/.*: //')"
  printf '   check:    %6.3f s  %7d KB peak (target <= 0.2 s)\n' "$check_s" "$check_rss"
done
ours=("$captions" convert "$work/qc.srt" -o "$work/qc.vtt")
read -r read_s _ _ _ < <(versus 5)
printf '   (reading and writing the same file as WebVTT: %6.3f s)\n' "$read_s"
# No peer repairs captions: the fix is timed beside reading and writing the same file.
ours=(sh -c "\"$captions\" fix \"$work/qc.srt\" -o \"$work/qc-fixed.srt\" 2>/dev/null; true")
read -r fix_s fix_rss _ _ < <(versus 3)
printf '   fix:      %6.3f s  %7d KB peak (%s times reading and writing it)\n' "$fix_s" "$fix_rss" "$(ratio "$fix_s" "$read_s")"
if command -v ffmpeg >/dev/null; then
  echo
  echo "== captions check --media (shot changes) vs ffmpeg decoding alone (60 s, 1920x1080, 30 fps, H.264 testsrc2)"
  [ -f "$work/clip.mp4" ] || ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30:d=60 -c:v libx264 -preset veryfast -pix_fmt yuv420p "$work/clip.mp4"
  printf '1\n00:00:01,000 --> 00:00:03,000\nHello.\n' > "$work/one.srt"
  ours=(sh -c "\"$captions\" check \"$work/one.srt\" --media \"$work/clip.mp4\" --no-cache -q >/dev/null; true")
  peer=(ffmpeg -v error -threads 2 -i "$work/clip.mp4" -f null -)
  read -r shots_s shots_rss decode_s decode_rss < <(versus 3)
  printf '   captions check --media: %6.2f s  %7d KB peak\n' "$shots_s" "$shots_rss"
  printf '   ffmpeg decode:          %6.2f s  %7d KB peak\n' "$decode_s" "$decode_rss"
  printf '   ratio check/decode wall: %s (target <= 1.1)\n' "$(ratio "$shots_s" "$decode_s")"
fi
fi

if want speech; then
echo
echo "== transcribe vs faster-whisper alone (LibriVox read speech from pocketsphinx-testdata, 8 rounds of its 5 utterances)"
librivox=/usr/share/pocketsphinx/test/data/librivox
if [ -x .build/speech/bin/python ] && [ -d "$librivox" ] && command -v ffmpeg >/dev/null; then
  for _ in 1 2 3 4 5 6 7 8; do for f in "$librivox"/*.wav; do echo "file '$f'"; done; done > "$work/speech.txt"
  ffmpeg -v error -y -f concat -safe 0 -i "$work/speech.txt" "$work/speech.wav"
  length=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/speech.wav")
  printf '   input: %.1f s of speech\n' "$length"
  for beam in 5 1; do
    ours=("$captions" transcribe -q --beam "$beam" "$work/speech.wav" -o "$work/speech.vtt")
    peer=(.build/speech/bin/python -c "import sys; from faster_whisper import WhisperModel
m = WhisperModel('.build/speech/models/base', device='cpu', compute_type='int8', cpu_threads=$(nproc))
segments, _ = m.transcribe(sys.argv[1], beam_size=$beam, vad_filter=True, word_timestamps=True, condition_on_previous_text=False)
list(segments)" "$work/speech.wav")
    read -r ours_s ours_kb peer_s peer_kb < <(versus 1)
    target=$([ "$beam" = 5 ] && echo 0.15 || echo 0.08)
    printf '   beam %s: captions %6.2f s (real-time factor %s, target <= %s) %7d KB peak; faster-whisper alone %6.2f s (%s) %7d KB\n' \
      "$beam" "$ours_s" "$(ratio "$ours_s" "$length")" "$target" "$ours_kb" "$peer_s" "$(ratio "$peer_s" "$length")" "$peer_kb"
  done
else
  echo "   skipped: needs Scripts/install-speech.sh, pocketsphinx-testdata and ffmpeg"
fi
fi

if want batch; then
echo
echo "== batch: 1,000 small SRT files (seeded) converted as one batch vs 1,000 captions processes"
mkdir -p "$work/many"
python3 - "$work/many" <<'PY'
import random, sys
random.seed(2026)
words = "the a caption reads quickly while people watch and listen to every word said".split()
for n in range(1000):
    t, cues = 0, []
    for i in range(1, 31):
        start, t = t, t + random.randint(800, 3000)
        stamp = lambda ms: "%02d:%02d:%02d,%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
        cues.append("%d\n%s --> %s\n%s\n" % (i, stamp(start), stamp(t), " ".join(random.choice(words) for _ in range(7))))
        t += random.randint(0, 400)
    open("%s/f%04d.srt" % (sys.argv[1], n), "w").write("\n".join(cues))
PY
ours=("$captions" convert "$work/many" -o "$work/many-out" --to vtt -q)
peer=(sh -c "for f in \"$work\"/many/*.srt; do \"$captions\" convert \"\$f\" -o \"$work/many-one/\$(basename \"\$f\" .srt).vtt\" -q || exit 1; done")
mkdir -p "$work/many-one"
read -r batch_s batch_kb single_s _ < <(versus 3)
printf '   one batch:        %6.3f s  %7d KB peak\n' "$batch_s" "$batch_kb"
printf '   1,000 processes:  %6.3f s\n' "$single_s"
printf '   speed-up: %s (target >= 10)\n' "$(ratio "$single_s" "$batch_s")"
if command -v ffmpeg >/dev/null; then
  echo
  echo "== batch: 8 short clips (10 s, 640x360, 25 fps, H.264), captions flashes --jobs 2 vs one after another (--jobs 1)"
  mkdir -p "$work/clips"
  for n in 1 2 3 4 5 6 7 8; do
    ffmpeg -v error -y -f lavfi -i "testsrc2=s=640x360:r=25:d=10,hue=h=$((n * 40))" -c:v libx264 -preset veryfast -pix_fmt yuv420p "$work/clips/c$n.mp4"
  done
  ours=("$captions" flashes "$work/clips" --jobs 2 -q)
  peer=("$captions" flashes "$work/clips" --jobs 1 -q)
  read -r jobs2_s jobs2_kb jobs1_s jobs1_kb < <(versus 3)
  printf '   --jobs 2: %6.2f s  %7d KB peak\n' "$jobs2_s" "$jobs2_kb"
  printf '   --jobs 1: %6.2f s  %7d KB peak\n' "$jobs1_s" "$jobs1_kb"
  printf '   speed-up: %s (target >= 1.6)\n' "$(ratio "$jobs1_s" "$jobs2_s")"
fi
fi

