#!/usr/bin/env bash
# Makes the flash-scan test clips with FFmpeg's lavfi sources (nothing is downloaded or committed).
#   Scripts/make-samples.sh [OUTPUT_FOLDER]        (default: .build/flash-samples)
# Each clip is H.264, BT.709, limited ("tv") range, 4:2:0, CRF 12; the expected verdict is in
# its name.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/flash-samples}
mkdir -p "$out"

# clip NAME SIZE RATE SECONDS R G B: an RGB picture from geq expressions, encoded as above.
clip() {
  local name=$1 size=$2 rate=$3 seconds=$4 r=$5 g=$6 b=$7
  [ -s "$out/$name.mp4" ] && return 0
  ffmpeg -v error -y -f lavfi -i "color=c=black:s=$size:r=$rate:d=$seconds" \
    -vf "format=gbrp,geq=r='$r':g='$g':b='$b',scale=out_color_matrix=bt709:out_range=tv,format=yuv420p" \
    -c:v libx264 -preset veryfast -crf 12 -colorspace bt709 -color_primaries bt709 -color_trc bt709 \
    -color_range tv -an "$out/$name.mp4.tmp.mp4"
  mv "$out/$name.mp4.tmp.mp4" "$out/$name.mp4"
}

# (a) full-screen black/white, 3 frames each at 30 fps (5 Hz), 4 s: FAIL
bw='255*lt(mod(N\,6)\,3)'
clip a-black-white-5hz-fail 1280x720 30 4 "$bw" "$bw" "$bw"
# (b) the same at 2 Hz (8 frames white, 7 black), 3 s: PASS
slow='255*lt(mod(N\,15)\,8)'
clip b-black-white-2hz-pass 1280x720 30 3 "$slow" "$slow" "$slow"
# (c) a 96x96 box flashing black/white at 5 Hz on mid grey: PASS
box='if(between(X\,592\,687)*between(Y\,312\,407)\,255*lt(mod(N\,6)\,3)\,128)'
clip c-small-box-5hz-pass 1280x720 30 3 "$box" "$box" "$box"
# (d) saturated red (255,0,0) against grey 127 at 4 Hz, 24 fps: FAIL (red only)
clip d-red-grey-4hz-fail 1280x720 24 3 'if(lt(mod(N\,6)\,3)\,255\,127)' 'if(lt(mod(N\,6)\,3)\,0\,127)' 'if(lt(mod(N\,6)\,3)\,0\,127)'
# (e) a 0.25 Hz sinusoidal fade between black and white, 8 s: PASS
fade='127.5+127.5*sin(2*PI*0.25*T)'
clip e-slow-fade-pass 1280x720 30 8 "$fade" "$fade" "$fade"
# (f) grey 150 <-> 128 every frame at 20 fps (10 Hz), a luminance change of 0.089: PASS
grey='if(mod(N\,2)\,128\,150)'
clip f-grey-10hz-pass 1280x720 20 3 "$grey" "$grey" "$grey"

echo "samples in $out"
