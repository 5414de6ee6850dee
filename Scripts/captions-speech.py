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

    audio = numpy.fromfile(options.audio, dtype="<f4")
    model = WhisperModel(options.model, device="cpu", compute_type="int8", cpu_threads=options.threads)
    segments, info = model.transcribe(
        audio,
        beam_size=options.beam,
        language=options.language,
        vad_filter=not options.no_vad,
        # Pauses of half a second or more are cut out before recognition and put back in the times:
        # Whisper times words badly across a silence it has to listen through.
        vad_parameters={"min_silence_duration_ms": 500},
        word_timestamps=True,
        condition_on_previous_text=False,
    )
    emit({"type": "info", "language": info.language, "languageProbability": info.language_probability,
          "duration": info.duration})
    for segment in segments:
        emit({
            "type": "segment", "start": segment.start, "end": segment.end, "text": segment.text,
            "avgLogprob": segment.avg_logprob, "noSpeechProb": segment.no_speech_prob,
            "compressionRatio": segment.compression_ratio,
            "words": [{"start": w.start, "end": w.end, "word": w.word, "probability": w.probability}
                      for w in (segment.words or [])],
        })
    emit({"type": "done"})
    return 0


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
