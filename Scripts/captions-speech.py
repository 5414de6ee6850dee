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

Segments come in batches, in time order within each (the Swift side sorts them). A stretch of
speech in which the first pass heard no word is listened to again on its own; its segments come
after the others, with `"retried": true`.

Errors go to standard error with a non-zero exit. Nothing is fetched from the network.
"""
import argparse
import collections
import inspect
import itertools
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
        chunks = get_speech_timestamps(audio, VadOptions(
            min_silence_duration_ms=500, max_speech_duration_s=WINDOW_SECONDS - PAUSE_SECONDS), sampling_rate=rate)
    speech = numpy.concatenate(collect_chunks(audio, chunks)[0]) if chunks else audio
    recognition = WindowedRecognition(model, speech, options, settings, rate)
    if chunks:
        segments = restore_speech_timestamps(recognition.segments(*plan_windows(chunks, speech, rate)), chunks, rate)
    elif options.no_vad:
        segments = recognition.segments([(0, len(speech))], pauses=set())
    else:
        segments = iter(())  # no speech at all
    first = next(segments, None)  # the first windows heard tell the language
    emit({"type": "info", "language": recognition.language, "languageProbability": recognition.probability,
          "duration": len(audio) / rate})
    heard = []
    for segment in itertools.chain([first] if first else [], segments):
        heard.extend((w.start, w.end) for w in (segment.words or []))
        emit_segment(segment, 0)
    # Whisper hears the same sentence said again after a pause as one it has written already, and
    # leaves it out: a stretch of speech where no word was heard is listened to again on its own,
    # when the voice detector is sure of at least 0.4 s of speech in it (music it was unsure of is
    # not worth a second listen), once, without sampling, its tokens capped by its length, and
    # what it gives is kept only when Whisper is sure of it.
    for chunk in chunks:
        start, end = chunk["start"] / rate, chunk["end"] / rate
        if any(w_start < end and w_end > start for w_start, w_end in heard):
            continue
        piece = audio[chunk["start"]:chunk["end"]]
        if sure_speech_seconds(piece) < 0.4:
            continue
        again, _ = model.transcribe(
            piece, language=recognition.language, vad_filter=False, temperature=0.0,
            max_new_tokens=int(6 * (end - start)) + 10, **settings)
        for segment in again:
            if segment.no_speech_prob < 0.6 and segment.avg_logprob > -1 and segment.compression_ratio <= 2.4:
                emit_segment(segment, start, retried=True)
    emit({"type": "done"})
    return 0


WINDOW_SECONDS = 30  # what Whisper hears at once
PAUSE_SECONDS = 0.5  # the pause put back after a window that ends at one
BATCH = 8  # windows decoded together with greedy decoding (8 // N with a beam of N)


def plan_windows(chunks, speech, rate: int):
    """Cuts the stretches of speech, as joined, into windows of up to 29.5 s: (windows, pauses).

    Each window is (start, end) in samples of the joined speech. A window ends at the last join
    (where the voice detector cut out a pause) that leaves it at least three quarters full, else
    at the quietest tenth of a second of its last quarter (a pause between words, too short for
    the detector), so that windows are full and fewer: each costs an encoding, 0.8 s on two cores.
    `pauses` are the joins, and the cuts 20 dB quieter than their window's median, after which a
    window is heard with a pause (``PAUSE_SECONDS``).
    """
    import numpy

    limit = int((WINDOW_SECONDS - PAUSE_SECONDS) * rate)
    pauses, position = set(), 0
    for chunk in chunks:
        position += chunk["end"] - chunk["start"]
        pauses.add(position)
    frame = rate // 50  # 20 ms
    energy = numpy.square(speech[:len(speech) // frame * frame].reshape(-1, frame)).sum(axis=1)
    quiet = numpy.convolve(energy, numpy.ones(5), mode="same")  # over 100 ms
    windows, start = [], 0
    while len(speech) - start > limit:
        end = max((p for p in pauses if start + limit * 3 // 4 <= p <= start + limit), default=None)
        if end is None:
            first, last = (start + limit * 3 // 4) // frame, (start + limit) // frame
            at = first + int(numpy.argmin(quiet[first:last])) if last > first else None
            end = at * frame if at is not None else start + limit
            if at is not None and quiet[at] < 0.01 * numpy.median(quiet[start // frame:last]):
                pauses.add(end)  # 20 dB under the window's median: a pause, heard as one
        windows.append((start, end))
        start = end
    windows.append((start, len(speech)))
    return windows, pauses


class WindowedRecognition:
    """Whisper over windows of speech, several decoded at a time.

    Whisper's decoder reads all its weights for every token, so decoding eight windows together
    costs little more than one: on two cores greedy decoding took about half the time it takes
    one window after another (4.9 s against 8.9 s on the bench file). Each window is heard as
    faster-whisper hears its windows in turn (the same prompt, thresholds and word timing, without
    the previous text), followed by half a second of silence where it ends at a pause: the voice
    detector cut the pause out, and without it Whisper often takes the last words for cut off.
    Where Whisper stops before the end of a window (its last segment left open, or a stretch of
    speech longer than 30 s), the rest is heard again from there, with the next window when the
    two are one stretch; a window it is unsure of (compression ratio over 2.4, mean log
    probability under -1) is heard again by faster-whisper alone, which falls back to sampling.
    """

    def __init__(self, model, speech, options, settings, rate: int):
        self.model, self.speech, self.options, self.settings, self.rate = model, speech, options, settings, rate
        self.language = options.language
        self.probability = 1.0 if options.language else 0.0
        if not model.model.is_multilingual:
            self.language, self.probability = "en", 1.0
        self.tokenizer = None
        self.last_speech = 0.0
        self.limit = WINDOW_SECONDS * rate
        self.pauses = set()
        # faster-whisper's own punctuation defaults for word timing, not a copy of them.
        defaults = inspect.signature(model.transcribe).parameters
        self.punctuations = (defaults["prepend_punctuations"].default, defaults["append_punctuations"].default)

    def segments(self, windows, pauses):
        """The segments of `windows` ((start, end) in samples), times in the joined speech;
        a window ending at one of `pauses` is heard with a pause after it."""
        self.pauses = pauses
        queue = collections.deque(windows)
        batch_size = max(1, BATCH // max(1, self.options.beam))
        while queue:
            batch = [queue.popleft() for _ in range(min(batch_size, len(queue)))]
            found, left = self.hear(batch)
            for start, end in reversed(left):
                if queue and queue[0][0] == end:
                    queue[0] = (start, queue[0][1])
                else:
                    queue.appendleft((start, end))
            yield from sorted(found, key=lambda segment: segment.start)

    def hear(self, batch):
        """Decodes the first 30 s of each window of `batch` together: (segments, what is left)."""
        import ctranslate2
        import numpy
        from faster_whisper.tokenizer import Tokenizer
        from faster_whisper.transcribe import get_compression_ratio, get_suppressed_tokens, pad_or_trim

        model, extractor, rate = self.model, self.model.feature_extractor, self.rate
        pause = numpy.zeros(int(PAUSE_SECONDS * rate), dtype=numpy.float32)
        features = [extractor(numpy.concatenate([self.speech[s:e], pause]) if e in self.pauses and e - s + len(pause) <= self.limit
                              else self.speech[s:min(e, s + self.limit)])[..., :-1] for s, e in batch]
        encoded = [numpy.ascontiguousarray(model.encode(pad_or_trim(f))) for f in features]
        if self.language is None:
            token, self.probability = model.model.detect_language(ctranslate2.StorageView.from_array(encoded[0]))[0][0]
            self.language = token[2:-2]
        if self.tokenizer is None:
            self.tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe",
                                       language=self.language)
        tokenizer = self.tokenizer
        results = model.model.generate(
            ctranslate2.StorageView.from_array(numpy.concatenate(encoded)), [model.get_prompt(tokenizer, [])] * len(batch),
            beam_size=self.options.beam, patience=1, length_penalty=1, max_length=model.max_length,
            return_scores=True, return_no_speech_prob=True, suppress_blank=True,
            suppress_tokens=get_suppressed_tokens(tokenizer, [-1]),
            max_initial_timestamp_index=int(round(1.0 / model.time_precision)))
        found, left = [], []
        for (s, e), feature, output, result in zip(batch, features, encoded, results):
            tokens = result.sequences_ids[0]
            average = result.scores[0] * len(tokens) / (len(tokens) + 1)
            ratio = get_compression_ratio(tokenizer.decode(tokens).strip())
            frames = feature.shape[-1]
            seek = s // extractor.hop_length
            if result.no_speech_prob > 0.6 and average < -1:  # silence, skipped as faster-whisper does
                if e > s + self.limit:
                    left.append((s + self.limit, e))
                continue
            pieces, reached, _ = model._split_segments_by_timestamps(
                tokenizer=tokenizer, tokens=tokens, time_offset=seek * extractor.time_per_frame, segment_size=frames,
                segment_duration=frames * extractor.time_per_frame, seek=seek)
            if ratio > 2.4 or average < -1 or reached <= seek:
                found.extend(self.alone(s, e))
                continue
            rest = s + (reached - seek) * extractor.hop_length
            if rest < e - rate // 10:
                left.append((rest, e))
            if not any(t < tokenizer.eot for piece in pieces for t in piece["tokens"]):
                continue
            # One window at a time: aligning eight together took a quarter more memory, no less time.
            self.last_speech = model.add_word_timestamps(
                [pieces], tokenizer, ctranslate2.StorageView.from_array(output), [frames], *self.punctuations,
                self.last_speech)
            found.extend(self.segment(piece, result, average, ratio, e / rate) for piece in pieces
                         if piece["start"] != piece["end"] and tokenizer.decode(piece["tokens"]).strip())
        return found, left

    def segment(self, piece, result, average, ratio, end: float):
        """A faster-whisper segment of a piece of a window's tokens, its times up to `end` (not
        into the pause after it)."""
        from faster_whisper.transcribe import Segment, Word

        words = [Word(word=w["word"], start=min(w["start"], end), end=min(w["end"], end), probability=w["probability"])
                 for w in piece.get("words", [])]
        return Segment(
            id=0, seek=piece["seek"], start=min(piece["start"], end), end=min(piece["end"], end),
            text=self.tokenizer.decode(piece["tokens"]), tokens=piece["tokens"], temperature=0.0,
            avg_logprob=average, compression_ratio=ratio, no_speech_prob=result.no_speech_prob, words=words)

    def alone(self, start, end):
        """The window heard by faster-whisper on its own, its times moved on by its start."""
        heard, info = self.model.transcribe(
            self.speech[start:end], language=self.language, vad_filter=False, **self.settings)
        offset = start / self.rate
        for segment in heard:
            segment.start += offset
            segment.end += offset
            for word in segment.words or []:
                word.start += offset
                word.end += offset
            yield segment
        if self.language is None:
            self.language, self.probability = info.language, info.language_probability


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
