#!/usr/bin/env bash
# Makes the flash-scan test clips with FFmpeg's lavfi sources (nothing is downloaded or committed).
#   Scripts/make-samples.sh [OUTPUT_FOLDER]        (default: .build/flash-samples)
# The expected verdict is in each clip's name, worked out from the definitions in the comments.
# The first clips are H.264, BT.709, limited ("tv") range, 4:2:0, CRF 12; the others cover HDR,
# interlaced, RGB, spatial accuracy, stream changes and damage.
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

# make NAME.EXT FFMPEG_ARGUMENTS...: any other clip, made once.
make() {
  local file=$1; shift
  [ -s "$out/$file" ] && return 0
  ffmpeg -v error -y "$@" "$out/tmp-$file"
  mv "$out/tmp-$file" "$out/$file"
}
lavfi() { echo "color=c=black:s=$1:r=$2:d=$3"; }
flash3='lt(mod(N\,6)\,3)'   # on three frames, off three: 5 Hz at 30 fps

# --- HDR: measured in cd/m² (BT.1702 rule). Codes are 10-bit limited range for grey.
# pq CODE_A CODE_B TRC NAME: full screen alternating between two grey codes at 5 Hz, HEVC 10-bit.
hdr() {
  make "$4.mkv" -f lavfi -i "$(lavfi 640x360 30 3),format=yuv420p10le" -vf "geq=lum='if($flash3\,$1\,$2)':cb=512:cr=512" \
    -c:v libx265 -x265-params log-level=error:crf=4 -pix_fmt yuv420p10le \
    -color_primaries bt2020 -color_trc "$3" -colorspace bt2020nc
}
hdr 509 539 smpte2084 g-pq-100-140nits-fail        # 100 <-> 140 cd/m²: 40 >= 20, darker < 160
hdr 636 645 smpte2084 h-pq-400-440nits-pass        # Michelson 40/840 = 0.048 < 1/17
hdr 636 653 smpte2084 i-pq-400-480nits-fail        # Michelson 80/880 = 0.091 >= 1/17
hdr 167 355 smpte2084 j-pq-0.5-15nits-pass         # 14.5 cd/m² < 20, though the codes move by 188
hdr 616 667 arib-std-b67 k-hlg-100-140nits-fail    # HLG on a 1000 cd/m² display: 100 <-> 140 cd/m²
hdr 231 328 arib-std-b67 l-hlg-5-15nits-pass       # 5 <-> 15 cd/m²
# The first clip's flash untagged, its HDR10 mastering display only in the HEVC bitstream (SEI),
# not the container: PQ is guessed from it (FAIL; it was measured as SDR and passed).
make j2-untagged-pq-sei-fail.mkv -f lavfi -i "$(lavfi 640x360 30 2),format=yuv420p10le" \
  -vf "geq=lum='if($flash3\,509\,539)':cb=512:cr=512" -c:v libx265 -pix_fmt yuv420p10le \
  -x265-params "log-level=error:crf=4:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400"

# --- Interlaced: only one field flashes (the other is steady grey).
make m-odd-field-576i-fail.ts -f lavfi -i "$(lavfi 720x576 25 3)" \
  -vf "format=gray,geq=lum='if(mod(Y\,2)\,255*$flash3\,128)',format=yuv420p,setfield=tff" \
  -c:v mpeg2video -q:v 2 -flags +ilme+ildct -top 1
make n-even-field-1080i-fail.mp4 -f lavfi -i "$(lavfi 1920x1080 30000/1001 2)" \
  -vf "format=gray,geq=lum='if(mod(Y\,2)\,128\,255*$flash3)',format=yuv420p,setfield=bff" \
  -c:v libx264 -crf 10 -flags +ildct+ilme -x264-params interlaced=1:bff=1

# --- RGB sources, read as RGB: 5 Hz at 10 fps (every frame changes).
rgbflash="r='255*mod(N\,2)':g='255*mod(N\,2)':b='255*mod(N\,2)'"
make o-gif-fail.gif -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgb24,geq=$rgbflash"
make p-apng-fail.apng -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=255" -plays 0 -f apng
make q-apng-transparent-pass.apng -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=0" -plays 0 -f apng
# Alpha at 10 and 16 bits, packed and planar (geq kept at 8-bit RGBA: it would work in 10-bit codes): opaque flashes (were read as black), and a flash at
# alpha 25/255 over black (sRGB code 25: 0.0097 of white's luminance, below the 0.1 limit).
make q2-rgba64-png-fail.mov -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=255,format=rgba" -c:v png -pix_fmt rgba64be
make q3-gbrap10-ffv1-fail.mkv -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=255,format=rgba" -c:v ffv1 -pix_fmt gbrap10le
make q4-rgba64-faint-pass.mov -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=25,format=rgba" -c:v png -pix_fmt rgba64be
# YUV with alpha (ProRes 4444, decoded at 12 bits, FFV1 4:2:0 at 8): composited over black like RGB, so the
# opaque flash fails and the one at alpha 25/255 passes (was read as opaque: a false FAIL).
make q5-prores4444-alpha-fail.mov -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=255,format=yuva444p10le" -c:v prores_ks -profile:v 4444 -pix_fmt yuva444p10le
make q6-prores4444-faint-pass.mov -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=25,format=yuva444p10le" -c:v prores_ks -profile:v 4444 -pix_fmt yuva444p10le
make q7-yuva420p-ffv1-faint-pass.mkv -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=rgba,geq=$rgbflash:a=25,format=yuva420p" -c:v ffv1 -pix_fmt yuva420p
# VP9 with alpha (WebM keeps the alpha beside each picture; FFmpeg's own decoder drops it, libvpx's
# reads it): white whose alpha flickers at 5 Hz over black flashes (FAIL; read as steady white it
# passed), and a flash that is wholly transparent is black (PASS; it failed).
make q8-vp9-alpha-flicker-fail.webm -f lavfi -i "$(lavfi 320x240 30 3)" -vf "format=yuva420p,geq=lum=235:cb=128:cr=128:a='255*$flash3'" -c:v libvpx-vp9 -b:v 1M
make q9-vp9-transparent-flash-pass.webm -f lavfi -i "$(lavfi 320x240 30 3)" -vf "format=yuva420p,geq=lum='if($flash3\,235\,16)':cb=128:cr=128:a=0" -c:v libvpx-vp9 -b:v 1M
make r-h264rgb-fail.mkv -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=gbrp,geq=$rgbflash" -c:v libx264rgb -crf 0

# --- Spatial accuracy at 960x540 (10° field: 320 x 240 pixels; 0.1°: 3.2 pixels).
spatial() {
  make "$1.mp4" -f lavfi -i "$(lavfi 960x540 30 2)" -vf "format=gray,geq=lum='$2',format=yuv420p" \
    -c:v libx264 -crf 8 -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
}
spatial s-box-22pc-pass "if(between(X\,400\,549)*between(Y\,200\,312)\,255*$flash3\,128)"   # 150 x 113: 22.1 % of the field
spatial t-box-27pc-fail "if(between(X\,400\,549)*between(Y\,200\,337)\,255*$flash3\,128)"   # 150 x 138: 27.0 %
spatial u-checker-0.125deg-fail "255*mod(floor(X/4)+floor(Y/4)+floor(N/3)\,2)"                 # 4-pixel squares reversing
spatial v-checker-0.03deg-pass "255*mod(X+Y+floor(N/3)\,2)"                                     # 1-pixel squares: below 0.1°
# Fine texture against grey, 5 Hz, lossless, in limited-range codes (16 black, 235 white; made in
# YUV: a grey picture's codes would be read as full range and squeezed).
# texture_grey NAME PATTERN GREY [SIZE]: PATTERN on three frames, GREY on three (960x540: 2-pixel cells).
texture_grey() {
  make "$1.mp4" -f lavfi -i "$(lavfi "${4:-960x540}" 30 2)" \
    -vf "format=yuv420p,geq=lum='if($flash3\,$2\,$3)':cb=128:cr=128" \
    -c:v libx264 -preset ultrafast -qp 0 -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
}
# A 1-pixel black and white checkerboard has half of white's light. Against grey 126, its mean code
# (0.22 of white), it flashes (read as no change, it passed); against grey 177, of its own light
# (0.4997), it does not (read as 0.22 against 0.50, it failed).
texture_grey v2-checker-grey-fail "16+219*mod(X+Y\,2)" 126
texture_grey v3-checker-equal-light-pass "16+219*mod(X+Y\,2)" 177
# Skewed dithers at 1080p (4-pixel cells: every cell, on either grid, holds two periods of the 4 x 2
# pattern): one white pixel in eight on black is 0.125 of white against black, a flash (read as
# 0.014: passed); seven in eight is 0.875, the light of grey 223 (0.880: no flash; read as 0.74, and
# as 0.63 by mean ± spread: failed).
texture_grey v4-dots-eighth-fail "16+219*eq(mod(X\,4)\,0)*eq(mod(Y\,2)\,0)" 16 1920x1080
texture_grey v5-dither-seven-eighths-pass "235-219*eq(mod(X\,4)\,0)*eq(mod(Y\,2)\,0)" 223 1920x1080
# 0.125° squares (8 pixels at 1080p) with every edge through the middle of a 4-pixel cell: each
# cell half black, half white keeps its mean as the squares reverse (it read 25 % and passed).
make u2-checker-halfcell-fail.mp4 -f lavfi -i "$(lavfi 1920x1080 30 1)" \
  -vf "format=gray,geq=lum='255*mod(floor((X+2)/8)+floor((Y+2)/8)+floor(N/3)\,2)',format=yuv420p" \
  -c:v libx264 -preset ultrafast -qp 0 -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
# The same as 1080i: each field's cells are split in half across; a second grid shifted across finds it.
make u3-checker-halfcell-1080i-fail.mkv -f lavfi -i "$(lavfi 1920x1080 25 1)" \
  -vf "format=gray,geq=lum='255*mod(floor((X+2)/8)+floor((Y+2)/8)+floor(N*10/25+0.01)\,2)',format=yuv420p" \
  -c:v libx264 -preset ultrafast -qp 0 -flags +ilme+ildct -x264-params tff=1 -field_order tt
# A white bar hopping between the thirds of the screen, two frames on and two off: each third flashes 2.5
# times a second, but a flash a third of the screen wide passes 7.5 times a second (was a false PASS).
spatial s2-hopping-thirds-fail "255*eq(mod(floor(N/2)\,2)\,0)*eq(floor(X*3/960)\,floor(mod(floor(N/2)\,6)/2))"

# --- Stream changes: 720p then 360p, joined as MPEG-TS (timestamps restart); the flashing
# straddles the join (five transitions each side: only together are they over six in a second).
# seg NAME SIZE LUMA [FIELD]: 2 s at 30 fps; with FIELD (tff), coded as interlaced fields.
seg() {
  local field=${4:-}
  # shellcheck disable=SC2086  # the interlacing options are meant to split into words
  make "$1.ts" -f lavfi -i "$(lavfi "$2" 30 2)" -vf "format=gray,geq=lum='$3',format=yuv420p${field:+,setfield=$field}" \
    -c:v libx264 -crf 10 ${field:+-flags +ildct+ilme -x264-params interlaced=1:tff=1} \
    -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
}
seg w-part1 1280x720 "if(gte(N\,45)\,255*$flash3\,128)"
seg w-part2 640x360 "if(lt(N\,15)\,255*gte(mod(N\,6)\,3)\,128)"
[ -s "$out/w-joined-fail.ts" ] || cat "$out/w-part1.ts" "$out/w-part2.ts" > "$out/w-joined-fail.ts"
# The same from 320x180 to 640x360: pictures under 480 wide have a grid of their own size, so the
# analysis goes on across a change of grid (it restarted, and this clip passed).
seg w2-part1 320x180 "if(gte(N\,45)\,255*$flash3\,128)"
seg w2-part2 640x360 "if(lt(N\,15)\,255*gte(mod(N\,6)\,3)\,128)"
[ -s "$out/w2-joined-grids-fail.ts" ] || cat "$out/w2-part1.ts" "$out/w2-part2.ts" > "$out/w2-joined-grids-fail.ts"
# Progressive and interlaced joined, both ways (each field goes on from the progressive picture
# before it, and a progressive picture from the field shown last; the analysis restarted, and
# these passed).
seg w3-part1 640x360 "if(gte(N\,45)\,255*$flash3\,128)"
seg w3-part2 640x360 "if(lt(N\,15)\,255*gte(mod(N\,6)\,3)\,128)" tff
[ -s "$out/w3-progressive-interlaced-fail.ts" ] || cat "$out/w3-part1.ts" "$out/w3-part2.ts" > "$out/w3-progressive-interlaced-fail.ts"
seg w4-part1 640x360 "if(gte(N\,45)\,255*$flash3\,128)" tff
seg w4-part2 640x360 "if(lt(N\,15)\,255*gte(mod(N\,6)\,3)\,128)"
[ -s "$out/w4-interlaced-progressive-fail.ts" ] || cat "$out/w4-part1.ts" "$out/w4-part2.ts" > "$out/w4-interlaced-progressive-fail.ts"
# SDR and then HDR (PQ, 10-bit: black 64, about 200 cd/m² at 572, grey 450): the light kept is carried to
# cd/m² with SDR white at 200 cd/m², so the flash that straddles the join is counted whole (the analysis
# restarted, and this passed).
make w5-part2.ts -f lavfi -i "$(lavfi 640x360 30 2),format=yuv420p10le" \
  -vf "geq=lum='if(lt(N\,15)\,if(gte(mod(N\,6)\,3)\,572\,64)\,450)':cb=512:cr=512" -c:v libx264 -crf 10 \
  -pix_fmt yuv420p10le -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv
[ -s "$out/w5-sdr-hdr-joined-fail.ts" ] || cat "$out/w3-part1.ts" "$out/w5-part2.ts" > "$out/w5-sdr-hdr-joined-fail.ts"

# --- Damage: a tenth of a clean transport stream overwritten in the middle.
make x-clean.ts -f lavfi -i "testsrc2=s=640x360:r=25:d=6" -c:v libx264 -crf 20 -g 25 -bf 0
[ -s "$out/x-damaged-partial.ts" ] || python3 - "$out/x-clean.ts" "$out/x-damaged-partial.ts" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
start = int(len(data) * 0.45)
data[start:start + len(data) // 10] = b'\x55' * (len(data) // 10)
open(sys.argv[2], 'wb').write(data)
PY
# Damage the container marks (3,000 zero bytes: MPEG-TS continuity errors) and the decoder hides:
# 9 of 120 frames are lost without a decoding error, which used to read as variable frame rate.
make x2-clean.ts -f lavfi -i "smptebars=s=320x240:r=30:d=4" -c:v libx264 -pix_fmt yuv420p
[ -s "$out/x2-corrupt-packets-partial.ts" ] || python3 - "$out/x2-clean.ts" "$out/x2-corrupt-packets-partial.ts" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
data[len(data) // 2:len(data) // 2 + 3000] = bytes(3000)
open(sys.argv[2], 'wb').write(data)
PY

# --- Repeated timestamps: 10 pictures a second, each changing (5 Hz), muxed with every three
# pictures on one timestamp (0, 0, 0, 0.3, 0.3, 0.3, ...). Placed one frame apart they keep their
# 10 a second: FAIL (counting on from each repeat stretched the clip to 5 s, 3 flashes a second).
make y-repeats-base.mkv -f lavfi -i "$(lavfi 320x240 10 3)" -vf "format=gray,geq=lum='255*mod(N\,2)',format=yuv420p" -c:v mpeg4 -q:v 2
make y-repeated-timestamps-fail.mkv -i "$out/y-repeats-base.mkv" -c copy -bsf:v "setts=ts='floor(N/3)*3*DURATION'"

# --- Display geometry kept outside the pictures. A 100x100 box flashing at 5 Hz in 720x480 NTSC:
# with square pixels it is under 25 % of a 10° field (PASS); shown 4:3 (8:9 pixels, the MOV's
# `pasp` only, as anamorphic ProRes keeps it) it covers 26 % (FAIL; the container's aspect was ignored).
ntscbox="if(between(X\,310\,409)*between(Y\,190\,289)*lt(mod(T*10\,2)\,1)\,235\,16)"
make z-ntsc-square-pass.mp4 -f lavfi -i "$(lavfi 720x480 30000/1001 2)" -vf "format=gray,geq=lum='$ntscbox',format=yuv420p" -c:v libx264 -preset ultrafast
make z-ntsc-pasp-fail.mov -i "$out/z-ntsc-square-pass.mp4" -c copy -aspect 4:3
# A 60x60 box at 5 Hz in 640x360, turned 90° only by H.264's display orientation SEI on the first
# picture (players turn every picture): 34 % of a 10° field of the portrait picture (FAIL), 24 %
# unturned (the SEI was ignored: PASS).
make z-box-unturned.mp4 -f lavfi -i "$(lavfi 640x360 30 2)" \
  -vf "format=gray,geq=lum='if(between(X\,290\,349)*between(Y\,150\,209)*lt(mod(T*10\,2)\,1)\,235\,16)',format=yuv420p" -c:v libx264 -preset ultrafast
make z-rotation-sei-fail.mp4 -i "$out/z-box-unturned.mp4" -c copy -bsf:v h264_metadata=display_orientation=insert:rotate=90

# --- OpenEXR holds linear light: 0.2 <-> 0.02 of white at 5 Hz is a change of 0.18 (FAIL); read as
# sRGB codes it looked like 0.033 <-> 0.002 (a false PASS).
# (geq runs on 8-bit RGB in the source graph: given float pictures it would write 51.0, not 0.2.)
exrflash="if(lt(mod(T*10\,2)\,1)\,51\,5)"
make z2-exr-linear-fail.mov -f lavfi -i "nullsrc=s=320x240:r=30:d=2,format=rgb24,geq=r='$exrflash':g='$exrflash':b='$exrflash'" \
  -pix_fmt gbrpf32le -c:v exr -compression zip1

# --- A Matroska file whose clock starts at 5 s (FFmpeg writes its duration as 15 s, where it ends):
# 10 s of steady pictures, whole (PASS; it was read as truncated at 10 s of 15, partial).
make z3-offset-start-pass.mkv -i "$out/z-ntsc-square-pass.mp4" -c copy -output_ts_offset 5
# --- A 1920x100 strip flashing at 5 Hz from edge to edge: 1.56° tall, a fifth of a 10° × 7.5°
# field (PASS; the field was cut to the picture's height and the strip read as all of it).
make z4-wide-strip-pass.mp4 -f lavfi -i "$(lavfi 1920x100 30 2)" -vf "format=gray,geq=lum='if($flash3\,235\,16)',format=yuv420p" -c:v libx264 -preset ultrafast

# --- Motion at 1080p30 (4-pixel cells). "Credits": lines of 28 pixels every 42, of random 4-pixel
# blocks, a third of them white, rolling up 8 pixels a frame (240 px/s). Each cell sees strokes pass
# nine times a second or more, but the eye follows the text and what it follows does not change:
# motion, not a flash (PASS; it failed with 48 % of a field). The same text over a background
# flashing black <-> grey 140 at 5 Hz still flashes (FAIL). Stripes 8 pixels tall drifting 4 pixels a
# frame flash 7.5 times a second at every point; moved half a period either way they look the same,
# so they are not taken for motion (FAIL).
text='lt(mod(Y\,42)\,28)*gt(mod(abs(sin(floor(X/4)*12.9898+floor(Y/4)*78.233))*43758.5453\,1)\,0.62)'
make credits-text.png -f lavfi -i "nullsrc=s=1920x2400:d=1,geq=lum='255*$text':cb=128:cr=128,format=gray" -frames:v 1
roll="crop=1920:1080:0:'8*n'"
make v6-credits-rolling-pass.mp4 -loop 1 -framerate 30 -i "$out/credits-text.png" -vf "$roll,format=yuv420p" -t 4 \
  -c:v libx264 -preset veryfast -crf 18
make v7-credits-over-flash-fail.mp4 -loop 1 -framerate 30 -i "$out/credits-text.png" \
  -f lavfi -i "$(lavfi 1920x1080 30 4),format=gray,geq=lum='140*$flash3'" \
  -filter_complex "[0]$roll,format=gray[text];[1][text]blend=all_mode=lighten,format=yuv420p" -t 4 -c:v libx264 -preset veryfast -crf 18
# The same text shaken up and down 8 pixels every frame: each shift explains its change, but no eye
# follows a 15 Hz shake and every point flickers (FAIL; the first motion rule passed it).
make v9-credits-shaking-fail.mp4 -loop 1 -framerate 30 -i "$out/credits-text.png" \
  -vf "crop=1920:1080:0:'200+8*mod(n\,2)',format=yuv420p" -t 3 -c:v libx264 -preset veryfast -crf 18
# Saturated green <-> a grey of the same luma at 5 Hz (0.57 <-> 0.34 of white) behind a line texture
# rolling up 4 lines a frame, in which every 4-line cell holds two light and two dark lines: luma
# moves and every cell's luma stays, so the luma strips explain each change by the shift; the
# colour does not move (FAIL; the first motion rule passed it: an attack found it).
# (each cell's two light lines are one of the six choices, picked by a hash of the cell: no period).
pick='floor(mod(abs(sin(floor((Y+4*N)/4)*12.9898))*43758.5453\,1)*6)'
choice="if(lt($pick\,1)\,3\,if(lt($pick\,2)\,5\,if(lt($pick\,3)\,6\,if(lt($pick\,4)\,9\,if(lt($pick\,5)\,10\,12)))))"
lines_tex="if(mod(floor($choice/pow(2\,mod(Y+4*N\,4)))\,2)\,160\,140)"
make v10-colour-flash-behind-motion-fail.mp4 -f lavfi -i "$(lavfi 1920x1080 30 3)" \
  -vf "format=yuv420p,geq=lum='$lines_tex':cb='if($flash3\,44\,128)':cr='if($flash3\,21\,128)'" \
  -c:v libx264 -preset veryfast -crf 12 -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
# Lines of "text" (white, of uneven spacing) rolling up 2 lines a frame at 540p over a background
# that turns at 5 Hz between a checkerboard of single pixels and flat grey of its mean (0.50 <->
# 0.22 of white): no line's mean changes, so the text's motion explained every change (FAIL; it
# passed: an attack found it). The same text drawn as a checkerboard, rolling over black, is
# motion, texture and all (PASS). Lossless, so that the encoder keeps the single pixels.
scroll_text="lt(mod(floor((Y+2*N)/4)*37\,23)\,9)*lt(mod(floor(X/8)*7+floor((Y+2*N)/4)*3\,5)\,3)"
make v11-checker-flash-behind-text-fail.mp4 -f lavfi -i "nullsrc=s=960x540:r=30:d=2,format=yuv420p" \
  -vf "geq=lum='if($scroll_text\,235\,if($flash3\,16+219*mod(X+Y\,2)\,126))':cb=128:cr=128" -c:v libx264 -preset medium -qp 0
make v12-checker-text-rolling-pass.mp4 -f lavfi -i "nullsrc=s=960x540:r=30:d=2,format=yuv420p" \
  -vf "geq=lum='if($scroll_text\,16+219*mod(X+Y+2*N\,2)\,16)':cb=128:cr=128" -c:v libx264 -preset medium -qp 0
make v8-stripes-drifting-fail.mp4 -f lavfi -i "$(lavfi 1920x1080 30 3)" \
  -vf "format=gray,geq=lum='255*lt(mod(Y+4*N\,16)\,8)',format=yuv420p" -c:v libx264 -preset veryfast -crf 18
# Moves of a fraction of a line: the same credits scaled to 720p roll 5.33 lines a frame, and at
# 1080p from a 1.5x larger picture 4.67 (PASS; both failed, 83 % and 92 % of a field: the straight
# mix of the two lines a move falls between left more than scaling does). The stripes scaled to
# 720p drift 2.67 lines of 10.67 a frame: moved 8 lines back they match, and as well 2.67 on, found
# only between whole lines (FAIL; a first version of the rule passed them).
make v13-credits-720p-subpixel-pass.mp4 -loop 1 -framerate 30 -i "$out/credits-text.png" \
  -vf "$roll,scale=1280:720,format=yuv420p" -t 3 -c:v libx264 -preset veryfast -crf 18
make v14-credits-1080p-subpixel-pass.mp4 -loop 1 -framerate 30 -i "$out/credits-text.png" \
  -vf "scale=2880:3600,crop=2880:1620:0:'7*n',scale=1920:1080,format=yuv420p" -t 3 -c:v libx264 -preset veryfast -crf 18
make v15-stripes-drifting-720p-fail.mp4 -f lavfi -i "$(lavfi 1920x1080 30 3)" \
  -vf "format=gray,geq=lum='255*lt(mod(Y+4*N\,16)\,8)',scale=1280:720,format=yuv420p" -c:v libx264 -preset veryfast -crf 18

echo "samples in $out"
