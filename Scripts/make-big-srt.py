#!/usr/bin/env python3
"""Writes a seeded, realistic SRT file of N cues for benchmarks: speaker dashes, italics, two-line
cues, the odd font colour, times that advance 1-4 s with gaps.

    python3 Scripts/make-big-srt.py 100000 big.srt [seed]
"""
import random
import sys

count = int(sys.argv[1])
path = sys.argv[2]
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
words = ("the a we you they it is was not never always here there now then what why how "
         "captions video light flash speak listen door window night morning coffee train "
         "station river bridge city music quiet loud remember forget tomorrow yesterday").split()

def stamp(ms):
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02}:{m:02}:{s:02},{ms:03}"

def sentence():
    text = " ".join(rng.choice(words) for _ in range(rng.randint(3, 8)))
    return text[0].upper() + text[1:] + rng.choice(".?!")

t = 0
with open(path, "w", encoding="utf-8", newline="\n") as out:
    for index in range(1, count + 1):
        t += rng.randint(100, 800)
        duration = rng.randint(900, 4000)
        lines = [sentence()]
        if rng.random() < 0.5:
            lines.append(sentence())
        if rng.random() < 0.1:
            lines[0] = "<i>" + lines[0] + "</i>"
        if rng.random() < 0.03:
            lines[-1] = '<font color="#ffff00">' + lines[-1] + "</font>"
        if rng.random() < 0.2 and len(lines) == 2:
            lines = ["- " + lines[0], "- " + lines[1]]
        out.write(f"{index}\n{stamp(t)} --> {stamp(t + duration)}\n" + "\n".join(lines) + "\n\n")
        t += duration
