#!/usr/bin/env python3
"""The speech recogniser `captions transcribe` runs as a helper process (faster-whisper).

Scripts/setup.sh installs it with its virtual environment into .build/speech. The Swift side
decodes the media to 16 kHz mono float32 samples and hands over the file; this reads it,
recognises it, and writes one JSON object a line to standard output:

  {"type": "info", "language": "en", "languageProbability": 0.98, "duration": 24.7}
  {"type": "segment", "start": 0.0, "end": 4.2, "text": "...", "avgLogprob": -0.2,
   "noSpeechProb": 0.01, "compressionRatio": 1.3,
   "words": [{"start": 0.0, "end": 0.3, "word": " And", "probability": 0.9}, ...]}
  {"type": "done"}

A stretch of speech in which the first pass heard no word is listened to again on its own; its
segments come after the others, with `"retried": true`.

Errors go to standard error with a non-zero exit. Nothing is fetched from the network.
"""
import argparse
import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a CTranslate2 Whisper model folder")
    parser.add_argument("--audio", required=True, help="16 kHz mono float32 little-endian samples")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--language", default=None)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--no-vad", action="store_true")
    options = parser.parse_args()

    import numpy
    from faster_whisper import WhisperModel
    from faster_whisper.transcribe import restore_speech_timestamps
    from faster_whisper.vad import VadOptions, collect_chunks, get_speech_timestamps

    rate = 16000
    audio = numpy.fromfile(options.audio, dtype="<f4")
    model = WhisperModel(options.model, device="cpu", compute_type="int8", cpu_threads=options.threads)
    settings = dict(beam_size=options.beam, word_timestamps=True, condition_on_previous_text=False)
    # Pauses of half a second or more are cut out before recognition and put back in the times
    # (Whisper times words badly across a silence it has to listen through). This is what
    # faster-whisper's own vad_filter does, done here so that the stretches of speech are known.
    chunks = []
    if not options.no_vad:
        chunks = get_speech_timestamps(audio, VadOptions(min_silence_duration_ms=500), sampling_rate=rate)
    speech = numpy.concatenate(collect_chunks(audio, chunks)[0]) if chunks else audio
    if chunks or options.no_vad:
        segments, info = model.transcribe(speech, language=options.language, vad_filter=False, **settings)
    else:
        segments, info = iter(()), None  # no speech at all
    if chunks:
        segments = restore_speech_timestamps(segments, chunks, rate)
    emit({"type": "info", "language": info.language if info else options.language,
          "languageProbability": info.language_probability if info else 0, "duration": len(audio) / rate})
    heard = []
    for segment in segments:
        heard.extend((w.start, w.end) for w in (segment.words or []))
        emit_segment(segment, 0)
    # Whisper hears the same sentence said again after a pause as one it has written already, and
    # leaves it out: a stretch of speech where no word was heard is listened to again on its own,
    # when the voice detector is sure of at least 0.4 s of speech in it (music it was unsure of is
    # not worth a second listen), once, without sampling, its tokens capped by its length, and
    # what it gives is kept only when Whisper is sure of it.
    language = info.language if info else options.language
    for chunk in chunks:
        start, end = chunk["start"] / rate, chunk["end"] / rate
        if any(w_start < end and w_end > start for w_start, w_end in heard):
            continue
        piece = audio[chunk["start"]:chunk["end"]]
        if sure_speech_seconds(piece) < 0.4:
            continue
        again, _ = model.transcribe(
            piece, language=language, vad_filter=False, temperature=0.0,
            max_new_tokens=int(6 * (end - start)) + 10, **settings)
        for segment in again:
            if segment.no_speech_prob < 0.6 and segment.avg_logprob > -1 and segment.compression_ratio <= 2.4:
                emit_segment(segment, start, retried=True)
    emit({"type": "done"})
    return 0


def sure_speech_seconds(piece) -> float:
    """How long the voice detector is sure (probability 0.9 or more) that `piece` is speech."""
    import numpy
    from faster_whisper.vad import get_vad_model

    window = 512  # the detector's step: 32 ms at 16 kHz
    padded = numpy.pad(piece, (0, -len(piece) % window))
    probabilities = get_vad_model()(padded.reshape(1, -1)).squeeze(0)
    return float((probabilities >= 0.9).sum()) * window / 16000


def emit_segment(segment, offset: float, retried: bool = False) -> None:
    """Writes a segment, its times moved on by `offset` seconds."""
    value = {
        "type": "segment", "start": round(segment.start + offset, 3), "end": round(segment.end + offset, 3),
        "text": segment.text, "avgLogprob": segment.avg_logprob, "noSpeechProb": segment.no_speech_prob,
        "compressionRatio": segment.compression_ratio,
        "words": [{"start": round(w.start + offset, 3), "end": round(w.end + offset, 3), "word": w.word,
                   "probability": w.probability} for w in (segment.words or [])],
    }
    if retried:
        value["retried"] = True
    emit(value)


def emit(value: dict) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # reported to the Swift side, which names the helper
        sys.stderr.write(f"{type(error).__name__}: {error}\n")
        sys.exit(1)
