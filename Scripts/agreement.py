#!/usr/bin/env python3
r"""Measure how often the caption reader of `captions` agrees with peer readers.

For every caption file of a corpus (default ../shared/realworld beside the checkout) the script reads
the cues twice:

  * ours:  `captions convert FILE --to json -o -` (the model dump; the tool picks the
           format by extension/content; SCC on its default channel CC1), and
  * peers: ttconv, pycaption and/or pysubs2, run by the peers' Python (default
           .build/peers/bin/python, from Scripts/setup.sh): one long-lived worker per job imports the
           libraries once and reads each file in a forked child with a timeout.

and compares the two cue lists: same number of cues; after sorting both lists by
(start, end, text), every cue's start and end within 1 ms and its text equal once runs
of whitespace (line breaks included) are collapsed to one space and the ends stripped.
Cues whose text is empty after that are dropped on both sides; files with no cues on
both sides agree; a "no cues" refusal (error code *.cues.none) counts as zero cues, on
our side as on pycaption's (CaptionReadNoCaptions).

Per format it prints
    FORMAT: A of B files agree with PEER (C the peer cannot read, D we cannot read)
for the best peer (most agreements; where a format has several) and the same figures
for the others, and with --list one line per disagreeing / unreadable file with the
reason. --show FILE prints the compared cue lists of one file. Exit status: always 0.

Comparison pitfalls handled (see the functions named):
  * ttconv's SRT/VTT writers merge all concurrent paragraphs into one cue and cut cues
    at every screen change: cues are rebuilt per <p> from ttconv's own ISD sequence
    instead (_ttconv_model_cues), so region association, timing and whitespace are
    ttconv's; whitespace-only changes do not split a cue; ruby <rp> is not text.
  * ttconv shows nothing for a cue that ends when it starts: such cues of ours are left
    out when comparing with ttconv; touching cues with the same text are merged on both
    sides alike (COMPARE_OPTS).
  * ttconv's SCC reader wants a TAB after the time code: spaces are turned into one.
  * pycaption keeps state between reads in one process (its SCC reader returns nothing
    for every file after the first): each read runs in a fresh fork (_run_isolated).
  * pycaption ends a caption the file never ends at start + 4 s (SAMI, SCC): our open
    end matches that. pycaption's SRT reader keeps <i>/<b>/<u>/<s>/<font> as text: they
    are taken out. pysubs2's "plaintext" turns \N and \n into line breaks and \h into
    a space and drops {override} blocks.
  * pysubs2 reads from a string: line ends are normalised first (a CR-only file is
    otherwise one line); non-UTF-8 text is decoded with chardet's guess (peer_text).
  * MicroDVD: `captions` reads 23.976 as 24000/1001 (3.7 ms apart after an hour), so
    pysubs2 is given that exact rate (and a {1}{1}fps line is taken out of its input).
  * SBV/SubViewer: pysubs2 has no reader; its SRT parser matches the time lines, and
    SubViewer's [br] is read as a line break.
  * `captions` writes an unbounded TTML end as null or as 31536000 s: both match a
    peer's open end.
  * pysubs2 ignores ASS/SSA Format lines (fixed column order): scripts with other columns
    are rewritten in the standard order for it (ass_standard_columns).
  * A cue that ends before it starts is compared as ending when it starts (never shown
    either way; pysubs2 keeps the inverted end, `captions` clamps it).
  * ttconv's STL text-field reader keeps a space only between two printable characters
    (runs of spaces, spaces next to control codes vanish): where ttconv's text is ours
    with spaces deleted, the texts agree (peer_drops_spaces).

Usage:
    python3 agreement.py [--captions BIN] [--corpus DIR] [--formats scc,stl,...]
                         [--jobs N] [--timeout S] [--peers-python PY] [--list]
                         [--show FILE]
"""

import argparse
import concurrent.futures
import json
import os
import re
import select
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the checkout
DEFAULT_CAPTIONS = os.path.join(ROOT, ".build/release/captions")
DEFAULT_CORPUS = os.path.join(os.path.dirname(ROOT), "shared/realworld")
DEFAULT_PEERS_PY = os.path.join(ROOT, ".build/peers/bin/python")
ALL_FORMATS = ["scc", "stl", "sami", "ass", "ssa", "sbv", "sub", "srt", "vtt", "ttml"]
FORMAT_LABEL = {"sbv": "sbv/subviewer", "sub": "sub (MicroDVD)"}

# Peers per format, in order of preference (the first wins ties).
PEERS = {
    "scc": ["ttconv", "pycaption"],
    "stl": ["ttconv"],
    "sami": ["pycaption"],
    "ass": ["pysubs2"],
    "ssa": ["pysubs2"],
    "sub": ["pysubs2"],
    "sbv": ["pysubs2"],   # pysubs2 has no SBV/SubViewer reader: its SRT parser is used
    "srt": ["pysubs2", "ttconv", "pycaption"],
    "vtt": ["pysubs2", "ttconv", "pycaption"],
    "ttml": ["ttconv", "pycaption"],
}
PEER_MODULES = {"ttconv": "ttconv", "pycaption": "pycaption", "pysubs2": "pysubs2"}

TOLERANCE = 0.001 + 1e-9      # seconds
MICRODVD_DEFAULT_FPS = 24000 / 1001  # what `captions` assumes ("23.976") without a {1}{1}fps line

IGNORED_EXT = {".md", ".txt", ".rtf", ".docx", ".csv", ".bin", ".lrc", ".mkv", ".mp4",
               ".mks", ".json", ".py", ".js", ".html", ".htm", ".png", ".jpg", ".gz",
               ".zip", ".pdf"}
IGNORED_NAMES = re.compile(r"^(licen[cs]e|notice|readme|copying|authors|sources|changelog)",
                           re.I)


# --------------------------------------------------------------------------------------
# Text decoding shared by both sides
# --------------------------------------------------------------------------------------

def decode_bytes(data):
    """Decode caption text: BOM first, then UTF-8, then cp1252 (latin-1 as last resort)."""
    boms = [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32-le"),
            (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
            (b"\xfe\xff", "utf-16-be")]
    for bom, enc in boms:
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace")
    # UTF-16 without BOM (many NULs at alternating positions)
    if len(data) >= 4 and data.count(b"\x00") > len(data) // 4:
        enc = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return data.decode(enc, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return data.decode("latin-1")


# --------------------------------------------------------------------------------------
# Format identification (extension + content sniff)
# --------------------------------------------------------------------------------------

MICRODVD_LINE = re.compile(r"^\s*\{\d+\}\{\d+\}", re.M)
SUBVIEWER_TIME = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}[.,]\d{1,3}\s*,\s*\d{1,2}:\d{2}:\d{2}[.,]\d{1,3}\s*$",
                            re.M)
SRT_TIME = re.compile(r"\d+:\d{2}:\d{2}[,.]\d{1,3}\s*-->")
VTT_TIME = re.compile(r"(\d+:)?\d{2}:\d{2}\.\d{3}\s*-->")


def sniff_text_format(text):
    t = text.lstrip("\ufeff \t\r\n")
    head = t[:4000]
    if head.startswith("WEBVTT"):
        return "vtt"
    if head.startswith("Scenarist_SCC"):
        return "scc"
    if re.search(r"<sami", head, re.I):
        return "sami"
    if re.search(r"<tt[\s>]|http://www\.w3\.org/ns/ttml|http://www\.w3\.org/2006/10/ttaf1", head):
        return "ttml"
    if re.search(r"^\[Script Info\]|^\[V4\+? Styles\]|^\[Events\]|^Dialogue:", head, re.I | re.M):
        if re.search(r"ScriptType:\s*v4\.00\+|\[V4\+ Styles\]", head, re.I):
            return "ass"
        return "ssa"
    if MICRODVD_LINE.search(head):
        return "sub"
    if "[INFORMATION]" in head or SUBVIEWER_TIME.search(head):
        return "sbv"
    if SRT_TIME.search(head) or VTT_TIME.search(head):
        return "srt"          # cue times without a WEBVTT signature
    return None


def identify(path):
    """Return the format key of a file, or None to ignore it."""
    name = os.path.basename(path)
    if IGNORED_NAMES.match(name):
        return None
    root, ext = os.path.splitext(name)
    ext = ext.lower()
    if ext in IGNORED_EXT:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(65536)
    except OSError:
        return None
    # EBU STL: a 1024-byte GSI block whose bytes 3-10 read like "850STL25.01"
    if ext == ".stl" or (not ext and re.match(rb"\d{3}STL\d{2}\.\d{2}", data[3:14])):
        return "stl"
    text = decode_bytes(data)
    if ext == ".scc":
        return "scc"
    if ext in (".smi", ".sami"):
        return "sami"
    if ext in (".ass",):
        return "ass"
    if ext in (".ssa",):
        return "ssa"
    if ext == ".sbv":
        return "sbv"
    if ext == ".srt":
        return "srt"
    if ext in (".vtt", ".webvtt"):
        return "vtt"
    if ext in (".ttml", ".dfxp", ".xml", ".itt"):
        s = sniff_text_format(text)
        return "ttml" if s == "ttml" or ext in (".ttml", ".dfxp") else None
    if ext == ".sub":
        s = sniff_text_format(text)
        if s == "sbv":
            return "sbv"
        return "sub"          # MicroDVD (also an empty .sub)
    if ext == "":
        s = sniff_text_format(text)
        if s:
            return s
        # empty or unrecognisable: let the folder name decide (e.g. ExoPlayer's .../ssa/empty)
        parent = os.path.basename(os.path.dirname(path)).lower()
        return {"ssa": "ssa", "ass": "ass", "subrip": "srt", "srt": "srt", "webvtt": "vtt",
                "vtt": "vtt", "ttml": "ttml", "scc": "scc", "sami": "sami"}.get(parent)
    return None


# --------------------------------------------------------------------------------------
# Our side: captions convert --to json
# --------------------------------------------------------------------------------------

def flatten_nodes(nodes):
    out = []
    for n in nodes:
        t = n.get("type")
        if t == "text":
            out.append(n.get("text", ""))
        elif t == "timestamp":
            continue
        elif t == "br":
            out.append("\n")
        else:
            out.append(flatten_nodes(n.get("children", [])))
    return "".join(out)


EMPTY_CODES = re.compile(r"\[[a-z0-9]+\.(cues\.none|empty)\]")


def read_ours(binary, path, timeout):
    """Return (cues, language, error)."""
    try:
        p = subprocess.run([binary, "convert", path, "--to", "json", "-o", "-", "-q"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"timeout after {timeout:g} s"
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode != 0:
        errors = [l for l in err.splitlines() if ": error:" in l]
        # "no cues" refusals are a reading with zero cues, not an unreadable file
        if errors and all(EMPTY_CODES.search(l) for l in errors):
            return [], None, None
        first = errors[0] if errors else (err.splitlines()[0] if err else f"exit {p.returncode}")
        first = re.sub(r"^.*?: error: ", "", first)
        return None, None, first
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        return None, None, f"unparsable JSON output: {e}"
    cues = []
    for c in doc.get("cues", []):
        cues.append((float(c["startTime"]), None if c.get("endTime") is None else float(c["endTime"]),
                     flatten_nodes(c.get("nodes", []))))
    return cues, doc.get("language"), None


# --------------------------------------------------------------------------------------
# Peer side (runs inside the peers' Python): worker loop and readers
# --------------------------------------------------------------------------------------

def _ttconv_model_cues(doc):
    """Cue list of a ttconv ContentDocument.

    ttconv's SRT/WebVTT writers are not used: they are ISD-based and merge every paragraph
    shown at the same time into one cue (RegionsMerging/ParagraphsMerging filters) and cut
    cues at every change of the screen. Instead every <p> of the model is tagged with a
    unique id, ttconv's own ISD sequence is computed (so region association, timing,
    whitespace handling and display are ttconv's), and each paragraph becomes one cue per
    stretch of time during which its presented text does not change."""
    from ttconv import model
    from ttconv.isd import ISD

    body = doc.get_body()
    if body is None:
        return []
    n = 0
    for el in body.dfs_iterator():
        if isinstance(el, model.P):
            n += 1
            el.set_id(f"agreement-p{n}")
    if n == 0:
        return []

    def text_of(el, out):
        for child in el:
            if isinstance(child, model.Rp):
                continue     # ruby delimiters (rp) only show where ruby is not rendered
            if isinstance(child, model.Text):
                out.append(child.get_text())
            elif isinstance(child, model.Br):
                out.append("\n")
            else:
                text_of(child, out)

    seq = list(ISD.generate_isd_sequence(doc))
    open_cues = {}   # pid -> [begin, end, text]
    order = []
    cues = []
    for i, (begin, isd) in enumerate(seq):
        end = seq[i + 1][0] if i + 1 < len(seq) else None
        shown = {}
        for region in isd.iter_regions():
            for el in region.dfs_iterator():
                if isinstance(el, model.P):
                    parts = []
                    text_of(el, parts)
                    pid = el.get_id()
                    shown[pid] = shown.get(pid, "") + ("\n" if pid in shown else "") + "".join(parts)
        for pid, cue in list(open_cues.items()):
            # a change of whitespace only (e.g. preserved spaces appended by a timed span)
            # does not start a new cue: the comparison ignores whitespace runs anyway
            if pid not in shown or norm_text(shown[pid]) != norm_text(cue[2]) or cue[1] != begin:
                cues.append(tuple(cue))
                del open_cues[pid]
        for pid, txt in shown.items():
            if pid in open_cues:
                open_cues[pid][1] = end
            else:
                open_cues[pid] = [begin, end, txt]
    cues.extend(tuple(c) for c in open_cues.values())
    return [(float(b), None if e is None else float(e), t) for b, e, t in cues]


def _pycaption_cues(caption_set, lang=None):
    langs = caption_set.get_languages()
    if not langs:
        return []
    chosen = langs[0]
    if lang:
        for l in langs:
            if l.lower() == str(lang).lower():
                chosen = l
    out = []
    for c in caption_set.get_captions(chosen):
        out.append((c.start / 1e6, c.end / 1e6, "".join(c.get_text_nodes())))
    return out


def _pysubs2_cues(subs, fmt):
    out = []
    for e in subs:
        if e.is_comment:
            continue
        text = e.plaintext
        if fmt == "sbv":
            text = re.sub(r"\[br\]", "\n", text, flags=re.I)   # SubViewer line break
        if fmt == "vtt":
            text = VTT_TS_TAG.sub("", text)   # pysubs2 keeps timestamp tags as text
        out.append((e.start / 1000.0, e.end / 1000.0, text))
    return out


def peer_text(path):
    """Decode a text caption file for a peer: BOM, UTF-8, else chardet's guess, else cp1252;
    line ends normalised to LF (as Python's text-mode open() would)."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                import chardet
                enc = chardet.detect(data).get("encoding")
                if enc:
                    text = data.decode(enc, errors="replace")
                    return text.replace("\r\n", "\n").replace("\r", "\n")
            except Exception:
                pass
    return decode_bytes(data).replace("\r\n", "\n").replace("\r", "\n")


ASS_EVENT_ORDER = {"ass": ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv",
                           "effect", "text"],
                   "ssa": ["marked", "start", "end", "style", "name", "marginl", "marginr", "marginv",
                           "effect", "text"]}


def ass_standard_columns(text, fmt):
    """pysubs2 ignores the [Events] and [V4(+) Styles] Format lines and splits every Dialogue/Style
    line in the standard column order, though a script's Format line names its columns
    (SSA v4.00+ spec: "the Format line ... specifies the order of the fields"). Scripts
    with another order (ExoPlayer's "Format: Layer, Start, End, Style, Name, Text" or
    "Format: Start, End, Text") are rewritten in the standard order for pysubs2; Style lines
    under a non-standard Format line are left out (styles do not change plaintext)."""
    order = ASS_EVENT_ORDER["ass" if fmt == "ass" else "ssa"]
    out, section, ev_fields, style_std = [], "", None, True
    for line in text.split("\n"):
        st = line.strip()
        if re.match(r"^\[.*\]$", st):
            section = st.lower()
            out.append(line)
            continue
        m = re.match(r"^format\s*:(.*)$", st, re.I)
        if m and "events" in section:
            ev_fields = [f.strip().lower() for f in m.group(1).split(",")]
            out.append("Format: " + ", ".join(f.capitalize() for f in order))
            continue
        if m and "styles" in section:
            fields = [f.strip().lower() for f in m.group(1).split(",")]
            style_std = len(fields) >= 18 and fields[0] == "name"
            out.append(line)
            continue
        if st.lower().startswith("style:") and "styles" in section and not style_std:
            continue
        m = re.match(r"^(dialogue|comment)\s*:\s*(.*)$", st, re.I)
        if m and ev_fields and ev_fields != order:
            vals = m.group(2).split(",", len(ev_fields) - 1)
            d = dict(zip(ev_fields, vals))
            defaults = {"layer": "0", "marked": "Marked=0", "style": "Default", "name": "",
                        "marginl": "0", "marginr": "0", "marginv": "0", "effect": "", "text": ""}
            out.append(m.group(1).capitalize() + ": " +
                       ",".join(d.get(f, defaults.get(f, "")) for f in order))
            continue
        out.append(line)
    return "\n".join(out)


NTSC = {"23.976": 24000 / 1001, "29.97": 30000 / 1001, "59.94": 60000 / 1001,
        "47.952": 48000 / 1001, "119.88": 120000 / 1001}


VTT_TS_TAG = re.compile(r"<(?:\d+:)?\d{2}:\d{2}\.\d{3}>")


def vtt_for_ttconv(text):
    """Undo three quirks of ttconv's WebVTT reader before it reads a file (WebVTT 1, W3C CR):
      * a line holding "-->" ends the block it is in (sec. 6.1, "collect a WebVTT block": only
        the first line, or the second after an identifier, is a timing line); ttconv only ends
        a cue at a blank line and reads such lines as cue text: a blank line is put before them;
      * timestamp tags <hh:mm:ss.ttt> only mark text as past/future for styling (sec. 3.5,
        4.2.2 :past/:future); ttconv starts a timed span there, hiding the text before: they are
        taken out;
      * character references (sec. 6.4: HTML's "consume a character reference"): ttconv's
        tokenizer reads from '&' up to the next ';' whatever comes between (tags, spaces, lines)
        and hands html.unescape() that run without its ';', so only the legacy references
        decode (&amp &lt &gt &nbsp ...), &lrm; &rlm; and the like stay text, and an unknown
        &x; loses its ';'. Each '&' run is decoded here by html.unescape() (the HTML rules)
        and the result re-escaped as &amp; &lt; &gt; only, which ttconv does decode."""
    import html
    lines = text.split("\n")
    out = lines[:1]
    in_header, count, seen_arrow = True, 0, False
    for line in lines[1:]:
        if line == "":
            in_header, count, seen_arrow = False, 0, False
            out.append(line)
            continue
        count += 1
        if "-->" in line:
            if in_header or not (count == 1 or (count == 2 and not seen_arrow)):
                out.append("")
                in_header, count = False, 1
            seen_arrow = True
        out.append(line)
    text = VTT_TS_TAG.sub("", "\n".join(out))

    def ref(m):
        d = html.unescape(m.group(0))
        return d.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"&(?:#[0-9]+;?|#[xX][0-9A-Fa-f]+;?|[A-Za-z0-9]+;?)?", ref, text)


SRT_TIME_LINE = re.compile(r"^(\s*)(\S+)(\s*-->\s*)(\S+)(.*)$")


def srt_times_for_pysubs2(text):
    """pysubs2 matches SRT times with (\d{1,2}):(\d{1,2}):(\d{1,2})[.,](\d{1,3}) only: a time
    without hours (MM:SS,mmm, as shaka's chapters) or without a fraction (HH:MM:SS, read by
    ExoPlayer, pycaption, astisub) makes it skip the cue and glue its text to the cue before.
    Such times are written out in full for it; nothing else of the line changes."""
    def fix(t):
        if re.fullmatch(r"\d{1,2}:\d{1,2}:\d{1,2}", t):
            return t + ",000"
        if re.fullmatch(r"\d{1,2}:\d{1,2}[.,]\d{1,3}", t):
            return "00:" + t
        return t
    out = []
    for line in text.split("\n"):
        m = SRT_TIME_LINE.match(line)
        if m:
            line = m.group(1) + fix(m.group(2)) + m.group(3) + fix(m.group(4)) + m.group(5)
        out.append(line)
    return "\n".join(out)


def peer_read(peer, fmt, path, lang=None):
    import io
    if peer == "ttconv":
        if fmt == "stl":
            import ttconv.stl.reader as r
            with open(path, "rb") as f:
                doc = r.to_model(f)
        elif fmt == "scc":
            import ttconv.scc.reader as r
            # ttconv only takes a TAB between the time code and the words (as Scenarist
            # writes it); many files (pycaption's fixtures) have spaces: normalise that.
            text = re.sub(r"^(\d{2}:\d{2}:\d{2}[:;.,]\d{2})[ \t]+", "\\1\t", peer_text(path),
                          flags=re.M)
            doc = r.to_model(text)
        elif fmt == "ttml":
            import xml.etree.ElementTree as et
            import ttconv.imsc.reader as r
            doc = r.to_model(et.parse(path))
        elif fmt == "srt":
            import ttconv.srt.reader as r
            doc = r.to_model(io.StringIO(peer_text(path)))
        elif fmt == "vtt":
            import ttconv.vtt.reader as r
            doc = r.to_model(io.StringIO(vtt_for_ttconv(peer_text(path))))
        else:
            raise ValueError(f"ttconv has no {fmt} reader")
        if doc is None:
            raise ValueError("ttconv returned no document")
        return _ttconv_model_cues(doc)
    if peer == "pycaption":
        import pycaption
        from pycaption.exceptions import CaptionReadNoCaptions
        readers = {"scc": pycaption.SCCReader, "sami": pycaption.SAMIReader,
                   "ttml": pycaption.DFXPReader, "srt": pycaption.SRTReader,
                   "vtt": pycaption.WebVTTReader}
        text = peer_text(path)
        try:
            cs = readers[fmt]().read(text)
        except CaptionReadNoCaptions:
            return []
        cues = _pycaption_cues(cs, lang)
        if fmt == "srt":
            # pycaption's SRT reader keeps SRT's markup as literal text; take out the tags
            # SRT players interpret (what pysubs2 and ttconv do), and nothing else.
            tag = re.compile(r"</?(?:i|b|u|s|font)(?:\s[^>]*)?>", re.I)
            cues = [(s, e, tag.sub("", t)) for s, e, t in cues]
        return cues
    if peer == "pysubs2":
        import pysubs2
        text = peer_text(path)
        if fmt == "srt":
            text = srt_times_for_pysubs2(text)
        fmt_id = {"ass": "ass", "ssa": "ssa", "sub": "microdvd", "sbv": "srt", "srt": "srt",
                  "vtt": "vtt"}[fmt]
        fps = None
        if fmt in ("ass", "ssa"):
            text = ass_standard_columns(text, fmt)
        if fmt == "sub":
            # `captions` reads "23.976" (its default, or a {1}{1}23.976 first line) as
            # 24000/1001; pysubs2 would take 23.976 literally (3.7 ms apart after an hour).
            # So the rate is given to pysubs2 exactly, and a {1}{1}fps line taken out.
            lines = text.split("\n")
            idx = next((i for i, l in enumerate(lines) if l.strip()), None)
            m = idx is not None and re.match(r"\s*\{1\}\{1\}\s*(\d+(?:\.\d+)?)\s*$", lines[idx])
            if m:
                fps = NTSC.get(m.group(1), float(m.group(1)))
                del lines[idx]
                text = "\n".join(lines)
            else:
                fps = MICRODVD_DEFAULT_FPS
        subs = pysubs2.SSAFile.from_string(text, format_=fmt_id, fps=fps)
        return _pysubs2_cues(subs, fmt)
    raise ValueError(f"unknown peer {peer}")


def _preload():
    for mod in ("pysubs2", "pycaption", "ttconv.isd", "ttconv.stl.reader", "ttconv.scc.reader",
                "ttconv.imsc.reader", "ttconv.srt.reader", "ttconv.vtt.reader", "chardet"):
        try:
            __import__(mod)
        except Exception:
            pass


def _run_isolated(req, timeout):
    """Read one file in a forked child of the worker: the libraries are imported once, yet
    no state survives from one file to the next (pycaption's SCC reader, for one, returns
    no captions for every file after the first when reused in one process)."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            cues = peer_read(req["peer"], req["fmt"], req["path"], req.get("lang"))
            ans = {"ok": True, "cues": cues}
        except BaseException as e:   # noqa: BLE001 - any failure is "the peer cannot read"
            msg = f"{type(e).__name__}: {e}".strip()
            ans = {"ok": False, "error": msg.splitlines()[0][:200] if msg else type(e).__name__}
        data = json.dumps(ans).encode()
        with os.fdopen(wfd, "wb") as w:
            w.write(data)
        os._exit(0)
    os.close(wfd)
    chunks = []
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        r, _, _ = select.select([rfd], [], [], left)
        if not r:
            continue
        chunk = os.read(rfd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(rfd)
    if timed_out:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"ok": False, "error": f"timeout after {timeout:g} s"}
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"ok": False, "error": f"peer process crashed (status {status})"}


def worker_main():
    """Line protocol on the original stdout: one JSON request in, one JSON answer out."""
    import logging
    import warnings
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    proto_out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                      # anything the libraries print goes to stderr
    sys.stdout = sys.stderr
    if len(sys.argv) > 2 and sys.argv[2] == "--probe":
        avail = []
        for name, mod in PEER_MODULES.items():
            try:
                __import__(mod)
                avail.append(name)
            except Exception:
                pass
        proto_out.write(json.dumps(avail) + "\n")
        return
    _preload()
    for line in sys.stdin:
        req = json.loads(line)
        ans = _run_isolated(req, float(req.get("timeout", 60)))
        proto_out.write(json.dumps(ans) + "\n")
        proto_out.flush()


class PeerWorker:
    """A long-lived peer process; killed and restarted when a request times out."""

    def __init__(self, python):
        self.python = python
        self.proc = None
        self.buf = b""

    def _start(self):
        self.proc = subprocess.Popen([self.python, "-u", os.path.abspath(__file__), "--_worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buf = b""

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def _kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def request(self, req, timeout):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            self._kill()
            return {"ok": False, "error": "peer process died"}
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill()
                return {"ok": False, "error": f"timeout after {timeout:g} s"}
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self._kill()
                return {"ok": False, "error": "peer process crashed"}
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)


# --------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------

WS = re.compile(r"\s+")


def norm_text(t):
    return WS.sub(" ", t.replace("\u00a0", " ")).strip()


def prepare(cues):
    out = []
    for s, e, t in cues:
        nt = norm_text(t)
        if e is not None and e < s:
            e = s    # a cue that ends before it starts shows for no time, however it is read
        if nt:
            out.append((s, e, nt))
    out.sort(key=lambda c: (round(c[0] * 1000), -1 if c[1] is None else round(c[1] * 1000), c[2]))
    return out


def fmt_time(t):
    if t is None:
        return "open"
    return f"{t:.3f}".rstrip("0").rstrip(".") if abs(t - round(t, 3)) < 1e-9 else f"{t:.6f}"


def shorten(t, n=40):
    t = t.replace("\n", "\\n")
    return t if len(t) <= n else t[:n - 1] + "…"


OURS_INDEFINITE = 31536000.0   # `captions` sometimes writes an unbounded TTML end as 365 days


def close_enough(a, b):
    """a: ours, b: the peer's (None: open, shown until the end)."""
    if a is None or b is None:
        return (a is None and b is None) or (b is None and a >= OURS_INDEFINITE - TOLERANCE)
    return abs(a - b) <= TOLERANCE


# Per-peer comparison options (see compare()).
COMPARE_OPTS = {
    "pycaption": {"open_end_fill": 4.0},
    "ttconv": {"drop_zero_duration": True, "merge_touching": True},
}


def merge_touching_cues(cues):
    """Join a cue to the one before when it starts as that one ends and has the same text
    once whitespace is collapsed (a cue split only by a change of whitespace, such as a
    line break appended by a timed span)."""
    out = []
    for s, e, t in sorted(cues, key=lambda c: (c[0], float("inf") if c[1] is None else c[1])):
        n = norm_text(t)
        for i in range(len(out) - 1, -1, -1):
            ps, pe, pt = out[i]
            if pe is not None and abs(pe - s) <= 1e-9 and norm_text(pt) == n:
                out[i] = (ps, e, pt)
                break
        else:
            out.append((s, e, t))
    return out


def spaces_dropped_from(ours, theirs):
    """True when `theirs` is `ours` with some spaces deleted (and nothing else changed)."""
    i = 0
    for ch in ours:
        if i < len(theirs) and theirs[i] == ch:
            i += 1
        elif ch != " ":
            return False
    return i == len(theirs)


def compare(ours, theirs, open_end_fill=None, drop_zero_duration=False, merge_touching=False,
            peer_drops_spaces=False):
    """peer_drops_spaces: ttconv's STL text-field reader (ttconv/stl/tf.py, to_model) keeps a
    space (0x20, or the space a control code stands for) only where a printable character is
    on both sides of it: a run of two spaces, or a space next to a colour/box code, vanishes
    and joins the words. Where ttconv's text is ours with spaces deleted, the texts agree."""
    reason = _compare(ours, theirs, open_end_fill, drop_zero_duration, merge_touching,
                      peer_drops_spaces)
    if reason and theirs and not any(norm_text(c[2]) for c in theirs):
        reason += f" (the peer read {len(theirs)} cue(s), all without text)"
    elif reason and ours and not any(norm_text(c[2]) for c in ours):
        reason += f" (we read {len(ours)} cue(s), all without text)"
    return reason


def _compare(ours, theirs, open_end_fill, drop_zero_duration, merge_touching,
             peer_drops_spaces=False):
    """Return None when the lists agree, else a one-line reason.

    open_end_fill: the duration a peer gives a cue that the file never ends (pycaption:
    4 s for SAMI's and SCC's last caption); our open end (null) then matches it.
    drop_zero_duration: the peer's cues come from its presentation (ttconv's ISDs), where a
    cue that ends when it starts never shows; ours such cues are left out too.
    merge_touching: the peer's cues are rebuilt from its presentation, where a paragraph
    whose text changes in whitespace only stays one cue: both sides are merged alike."""
    if drop_zero_duration:
        ours = [c for c in ours if c[1] is None or c[1] - c[0] > 1e-9]
    if merge_touching:
        ours, theirs = merge_touching_cues(ours), merge_touching_cues(theirs)
    a, b = prepare(ours), prepare(theirs)
    if open_end_fill is not None and len(a) == len(b):
        b = [(y[0], None, y[2]) if (x[1] is None and y[1] is not None and close_enough(x[0], y[0])
                                   and abs(y[1] - y[0] - open_end_fill) <= TOLERANCE) else y
             for x, y in zip(a, b)]
    if len(a) != len(b):
        reason = f"cue count differs {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if not (close_enough(x[0], y[0]) and close_enough(x[1], y[1]) and x[2] == y[2]):
                reason += (f"; first mismatch #{i + 1}: ours {fmt_time(x[0])}-{fmt_time(x[1])} "
                           f"\"{shorten(x[2], 30)}\" / peer {fmt_time(y[0])}-{fmt_time(y[1])} "
                           f"\"{shorten(y[2], 30)}\"")
                break
        else:
            extra = a[len(b)] if len(a) > len(b) else b[len(a)]
            who = "ours" if len(a) > len(b) else "peer"
            reason += (f"; extra {who} cue #{min(len(a), len(b)) + 1} {fmt_time(extra[0])}-"
                       f"{fmt_time(extra[1])} \"{shorten(extra[2], 30)}\"")
        return reason
    for i, (x, y) in enumerate(zip(a, b)):
        if not close_enough(x[0], y[0]):
            return f"cue #{i + 1} start {fmt_time(x[0])} vs {fmt_time(y[0])}"
        if not close_enough(x[1], y[1]):
            return f"cue #{i + 1} end {fmt_time(x[1])} vs {fmt_time(y[1])}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x[2] != y[2] and not (peer_drops_spaces and spaces_dropped_from(x[2], y[2])):
            return f"cue #{i + 1} text {text_window(x[2], y[2])}"
    return None


def text_window(x, y, width=40):
    """Both texts shortened around their first difference."""
    k = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    start = max(0, k - 12)
    def cut(t):
        piece = t[start:start + width]
        return ("…" if start else "") + piece.replace("\n", "\\n") + ("…" if start + width < len(t) else "")
    return f"\"{cut(x)}\" vs \"{cut(y)}\""


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------

_tls = threading.local()
_all_workers = []
_workers_lock = threading.Lock()


def get_worker(python):
    w = getattr(_tls, "worker", None)
    if w is None:
        w = PeerWorker(python)
        _tls.worker = w
        with _workers_lock:
            _all_workers.append(w)
    return w


def process_file(path, fmt, peers, args):
    ours, lang, our_err = read_ours(args.captions, path, args.timeout)
    result = {"path": path, "fmt": fmt, "our_err": our_err, "peers": {},
              "our_count": None if ours is None else len(prepare(ours))}
    worker = get_worker(args.peers_python)
    for peer in peers:
        ans = worker.request({"peer": peer, "fmt": fmt, "path": path, "lang": lang,
                              "timeout": args.timeout}, args.timeout + 30)
        if not ans.get("ok"):
            result["peers"][peer] = ("peer-fail", ans.get("error", "?"))
        elif our_err is not None:
            result["peers"][peer] = ("ours-fail", our_err)
        else:
            opts = dict(COMPARE_OPTS.get(peer, {}))
            if peer == "ttconv" and fmt == "stl":
                opts["peer_drops_spaces"] = True
            reason = compare(ours, [tuple(c) for c in ans["cues"]], **opts)
            result["peers"][peer] = ("agree", None) if reason is None else ("differ", reason)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--captions", default=DEFAULT_CAPTIONS, help="the captions binary")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="the corpus folder")
    ap.add_argument("--formats", default=",".join(ALL_FORMATS),
                    help="comma-separated formats (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per file and reader")
    ap.add_argument("--peers-python", default=DEFAULT_PEERS_PY,
                    help="Python that imports ttconv, pycaption, pysubs2")
    ap.add_argument("--list", action="store_true", help="list every disagreeing file")
    ap.add_argument("--show", metavar="FILE",
                    help="print the cue lists (as compared) of one file: ours and each peer's")
    args = ap.parse_args()

    if not os.path.isdir(args.corpus):
        print(f"agreement: corpus {args.corpus} not found; skipping")
        return 0
    if not (os.path.isfile(args.captions) and os.access(args.captions, os.X_OK)):
        print(f"agreement: captions binary {args.captions} not found; skipping")
        return 0
    if not os.path.exists(args.peers_python):
        print(f"agreement: peers' Python {args.peers_python} not found; skipping")
        return 0
    try:
        probe = subprocess.run([args.peers_python, os.path.abspath(__file__), "--_worker", "--probe"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
        available = set(json.loads(probe.stdout.decode().strip().splitlines()[-1]))
    except Exception:
        available = set()
    if not available:
        print(f"agreement: no peer library (ttconv, pycaption, pysubs2) importable by "
              f"{args.peers_python}; skipping")
        return 0

    if args.show:
        fmt = identify(args.show)
        print(f"{args.show}: format {fmt}")
        if fmt not in PEERS:
            return 0
        ours, lang, err = read_ours(args.captions, args.show, args.timeout)
        lists = [("ours", ours, err)]
        w = PeerWorker(args.peers_python)
        for peer in PEERS[fmt]:
            if peer in available:
                ans = w.request({"peer": peer, "fmt": fmt, "path": os.path.abspath(args.show),
                                 "lang": lang, "timeout": args.timeout}, args.timeout + 30)
                lists.append((peer, [tuple(c) for c in ans["cues"]] if ans.get("ok") else None,
                              ans.get("error")))
        w.close()
        for name, cues, err in lists:
            if cues is None:
                print(f"== {name}: cannot read: {err}")
                continue
            print(f"== {name}: {len(prepare(cues))} cues")
            for c in prepare(cues):
                print(f"   {fmt_time(c[0])} --> {fmt_time(c[1])}  {c[2]!r}")
            if name != "ours" and ours is not None:
                print(f"   verdict: {compare(ours, cues, **COMPARE_OPTS.get(name, {})) or 'agree'}")
        return 0

    wanted = [f.strip().lower() for f in args.formats.split(",") if f.strip()]
    aliases = {"webvtt": "vtt", "dfxp": "ttml", "smi": "sami", "microdvd": "sub",
               "subviewer": "sbv", "ebu-stl": "stl"}
    wanted = [aliases.get(f, f) for f in wanted]
    unknown = [f for f in wanted if f not in PEERS]
    if unknown:
        print(f"agreement: unknown format(s) {', '.join(unknown)}; known: {', '.join(ALL_FORMATS)}")
        wanted = [f for f in wanted if f in PEERS]

    files = []
    for dirpath, dirnames, filenames in os.walk(args.corpus):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            fmt = identify(path)
            if fmt in wanted:
                files.append((path, fmt))

    peers_for = {f: [p for p in PEERS[f] if p in available] for f in wanted}
    results = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(process_file, p, f, peers_for[f], args) for p, f in files]
        for fut in concurrent.futures.as_completed(futs):
            results.append(fut.result())
    for w in _all_workers:
        w.close()
    elapsed = time.monotonic() - t0

    rel = lambda p: os.path.relpath(p, args.corpus)
    print(f"corpus {args.corpus}: {len(files)} caption files, captions {args.captions}, "
          f"{elapsed:.0f} s with {args.jobs} jobs")
    for fmt in wanted:
        rs = sorted((r for r in results if r["fmt"] == fmt), key=lambda r: r["path"])
        label = FORMAT_LABEL.get(fmt, fmt)
        peers = peers_for[fmt]
        if not rs:
            print(f"{label}: no files")
            continue
        if not peers:
            print(f"{label}: {len(rs)} files, no peer available; skipped")
            continue
        stats = {}
        for p in peers:
            agree = sum(1 for r in rs if r["peers"][p][0] == "agree")
            pfail = sum(1 for r in rs if r["peers"][p][0] == "peer-fail")
            ofail = sum(1 for r in rs if r["our_err"] is not None)
            both = sum(1 for r in rs if r["our_err"] is not None and r["peers"][p][0] == "peer-fail")
            stats[p] = (agree, pfail, ofail, both)
        best = max(peers, key=lambda p: (stats[p][0], -peers.index(p)))

        def line(p):
            a, pf, of, both = stats[p]
            s = (f"{a} of {len(rs)} files agree with {p} ({pf} the peer cannot read, "
                 f"{of} we cannot read")
            if both:
                s += f", {both} of them neither"
            return s + ")"

        print(f"{label}: {line(best)}")
        empty = sum(1 for r in rs if r["peers"][best][0] == "agree" and r["our_count"] == 0)
        if empty:
            print(f"    ({empty} of the {stats[best][0]} agreeing files have no cue on either side)")
        for p in peers:
            if p != best:
                print(f"    other peer: {line(p)}")
        if len(peers) > 1:
            anyp = sum(1 for r in rs if any(v[0] == "agree" for v in r["peers"].values()))
            print(f"    agree with at least one peer: {anyp} of {len(rs)}")
        if args.list:
            for r in rs:
                verdict, why = r["peers"][best]
                if verdict == "agree":
                    continue
                others = [p for p in peers if p != best and r["peers"][p][0] == "agree"]
                note = f" [agrees with {', '.join(others)}]" if others else ""
                if verdict == "peer-fail" and r["our_err"] is not None:
                    msg = f"neither can read: ours: {shorten(r['our_err'], 90)}; {best}: {shorten(why, 90)}"
                elif verdict == "peer-fail":
                    msg = f"{best} cannot read: {shorten(why, 120)}"
                elif verdict == "ours-fail":
                    msg = f"we cannot read: {shorten(why, 120)}"
                else:
                    msg = why
                print(f"    {rel(r['path'])}: {msg}{note}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--_worker":
        worker_main()
        sys.exit(0)
    try:
        main()
    except KeyboardInterrupt:
        pass
    sys.exit(0)
