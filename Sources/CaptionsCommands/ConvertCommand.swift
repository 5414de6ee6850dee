import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia

/// `captions convert`: reads caption files, optionally retimes them, and writes another format.
public struct ConvertCommand: BatchCommand {
    /// Names and help.
    public static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert caption files between formats: WebVTT, SRT, TTML/IMSC/iTT, SCC, EBU STL, ASS, SBV, MicroDVD, SAMI (read), JSON.",
        discussion: """
            Formats come from the file extensions (.vtt, .srt, .ttml, .dfxp, .xml, .itt, .scc, .stl, .ass, .ssa, .sbv, .json; .smi and .sami, read only; .sub by its content) or --from/--to; '-' is standard input or output. \
            From a media file (.mkv, .mp4, .mov, .webm, .ts, …) the first text subtitle stream is read (or --stream N); \
            without one, or with --channel or --service, the closed captions carried in its video (H.264, HEVC, MPEG-2): CEA-608, or CEA-708 when 608 shows nothing. \
            What the target format cannot carry is reported as a warning; --strict makes any warning an error. \
            The output is written to a temporary file and renamed into place, never over the input.

            Examples:
              captions convert talk.srt -o talk.vtt
              captions convert news.ts -o news.vtt
              captions convert talk.vtt --to json | jq .
              cat in.vtt | captions convert - --to srt > out.srt
              captions convert pal.srt -o film.srt --fps 25:23.976 --shift -1.5s
            """
    )

    @Argument(help: "The input file, or '-' for standard input; several files or folders convert each into the -o folder.", completion: .file())
    var inputs: [String] = []

    /// The one input (the first of several).
    var input: String { inputs.first ?? "-" }

    @Option(name: .shortAndLong, help: "The output file, or '-' for standard output (the default); with several inputs, the folder to write into.", completion: .file())
    var output: String = "-"

    @Option(help: ArgumentHelp("The input format: \(ValueNames.inputFormats) (default: from the extension, else from the content)."), completion: ValueNames.completion(ValueNames.inputFormats))
    var from: String?

    @Option(help: ArgumentHelp("The input's text encoding, any name iconv knows: cp1251, iso-8859-2, shift_jis, gb18030, utf-16… (default: UTF-8 or UTF-16/32 by byte order mark, else detected).", valueName: "name"))
    var encoding: String?

    @Option(help: ArgumentHelp("For a media file: the subtitle stream to read (its number, as ffprobe shows it); default: the first text subtitle stream.", valueName: "index"))
    var stream: Int?

    @Option(name: [.customLong("to"), .customLong("format")], help: ArgumentHelp("The output format: \(CaptionFormat.writableNames) (default: from the output extension)."), completion: ValueNames.completion(CaptionFormat.writableNames))
    var to: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Move every cue by a duration, such as -1.5s, 250ms or 00:00:02.000.", valueName: "duration"))
    var shift: String?

    @Option(help: ArgumentHelp("Retime from one frame rate to another, such as 25:23.976; or, one rate, the frame rate of the frame-timed file read or written (MicroDVD, SCC, EBU STL, iTT).", valueName: "from:to"))
    var fps: String?

    @Option(help: ArgumentHelp("The frame rate of a frame-timed input (SCC, MicroDVD) when the output counts frames too: --fps is then the output's alone.", valueName: "rate"))
    var inputFps: String?

    @Flag(help: "Merge consecutive cues with identical text and settings that touch or overlap.")
    var merge = false

    @Flag(help: "Write speakers into SRT text as 'Name: ' (SRT has no voices).")
    var speakerPrefix = false

    @Option(help: ArgumentHelp("Rename speakers with a JSON map such as {\"SPEAKER_1\": \"Ann\"}.", valueName: "map.json"), completion: .file())
    var speakers: String?

    @Option(help: ArgumentHelp("Re-break plain cues into lines of N characters, at most L lines a cue (split in time beyond), such as 32x2 (default for podcast JSON: 65 for WebVTT, 32x2 for SRT).", valueName: "NxL"))
    var wrap: String?

    @Option(help: ArgumentHelp("For SCC and captions in video: the CEA-608 channel to read, 1–4 (CC1–CC4; default 1).", valueName: "n"))
    var channel: Int?

    @Option(help: ArgumentHelp("For captions in video: the CEA-708 service to read, 1–63 (default: CEA-608 CC1, or service 1 when CC1 shows nothing).", valueName: "n"))
    var service: Int?

    @Option(help: ArgumentHelp("For a SAMI file with several languages: the one to read, by code (fr-FR) or class name (default: the first).", valueName: "lang"))
    var language: String?

    @Option(help: ArgumentHelp("SCC output: pop-on (default) or roll-up.", valueName: "mode"))
    var sccMode: SCCWriter.Mode = .popOn

    @Option(help: ArgumentHelp("EBU STL output: open or teletext subtitles (default: as the STL file read, otherwise open).", valueName: "kind"))
    var stl: STLWriter.Kind?

    @Flag(help: "End SRT lines with CRLF.")
    var crlf = false

    @Option(help: "TTML profile to write: imsc1 (default), dfxp, ebu-tt-d, itt (the default for .itt files; times in frames, --fps N).")
    var ttmlProfile: TTMLWriter.Profile?

    @Flag(help: "Treat warnings as errors: fail instead of writing a lossy or repaired result.")
    var strict = false

    @OptionGroup var verbosity: Verbosity

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    static let inputKind = BatchInputKind.captions
    static let reportsToStandardOutput = false

    private var verbose: Bool { verbosity.verbose }

    /// The files named by options that are read.
    public var filesRead: [String] { speakers.map { [$0] } ?? [] }

    /// Used by ArgumentParser.
    public init() {}

    /// Runs against `io`, on one input or many; throws `ExitCode` 1 for invalid input and
    /// `ValidationError` for usage errors.
    public func execute(io: CommandIO) throws {
        try executeOneOrMany(io: verbosity.filtered(io, keepingWarnings: strict))
    }

    /// `--to` by the format's own name (`webvtt`, `VTT` and `vtt` are one setting to `--resume`).
    func spelledOneWay() -> Self {
        var copy = self
        copy.to = to.map { CaptionFormat(name: $0)?.rawValue ?? $0 }
        return copy
    }

    /// The extension of each output in a folder: the `--to` format's.
    func outputExtension() throws -> String {
        guard let to else { throw ValidationError("with several inputs, give the output format with --to (\(CaptionFormat.writableNames))") }
        guard let format = CaptionFormat(name: to) else {
            throw ValidationError("unknown output format '\(to)'; choose one of \(CaptionFormat.writableNames)")
        }
        return format == .ttml && ttmlProfile == .itt ? "itt" : format.fileExtension
    }

    /// Converts the one input.
    func executeOne(io: CommandIO) throws {
        let plan = try makePlan()
        let printer = DiagnosticPrinter(path: input == "-" ? "<stdin>" : input, showNotes: verbose)
        do {
            var plan = plan
            if let speakers { plan.speakerNames = try JSONFiles.speakerNames(from: speakers, io: io) }
            var (document, _) = try read(plan, io: io)
            var diagnostics = document.diagnostics
            document = applyTransforms(plan, to: document, diagnostics: &diagnostics)
            if !diagnostics.contains(where: { $0.code == "time.outOfRange" }), let outOfRange = TimeLimits.outOfRange(in: document.cues) {
                diagnostics.append(outOfRange)
            }
            try Self.write(
                document, diagnostics: diagnostics, as: plan.outputFormat, options: plan.writerOptions, to: output,
                strict: strict, printer: printer, io: io)
            io.record("cues", .int(document.cues.count))
            io.discard(document)
        } catch let error as CaptionsError {
            printer.print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
    }

    /// Writes `document` as `format` to `output` (a temporary file renamed into place): what the
    /// format cannot carry is reduced and fitted, and reported with `diagnostics`; throws `ExitCode`
    /// 1, writing nothing, when there is an error, or a warning under `strict`.
    static func write(
        _ document: TimedTextDocument, diagnostics: [Diagnostic], as format: CaptionFormat, options: CaptionFormat.WriterOptions,
        to output: String, strict: Bool, printer: DiagnosticPrinter, io: CommandIO
    ) throws {
        var document = document, diagnostics = diagnostics
        guard let writer = format.writer(options: options) else {
            throw ValidationError("\(format.rawValue) can be read but not written")
        }
        diagnostics += CapabilityReducer(capabilities: writer.capabilities, formatName: format.displayName).reduce(&document)
        diagnostics += writer.fit(&document)
        diagnostics.sort { ($0.location ?? .start) < ($1.location ?? .start) }
        document.diagnostics = diagnostics
        printer.print(diagnostics, to: io)
        if diagnostics.contains(where: { $0.severity == .error }) {
            io.writeStandardError("\(printer.path): error: invalid input; nothing written [convert.nothingWritten]\n")
            throw ExitCode(1)
        }
        if strict, diagnostics.contains(where: { $0.severity == .warning }) {
            io.writeStandardError("\(printer.path): error: warnings are errors under --strict; nothing written [input.strict]\n")
            throw ExitCode(1)
        }
        try FileAccess.write(to: output, io: io) { emit in writer.write(document, emit: emit) }
    }

    /// Reads the input as `convert` would (format from the name, the content or `--from`; media
    /// files through their subtitle stream), printing the reader's diagnostics; throws `ExitCode` 1
    /// when it cannot be read. Other commands start from here.
    /// With `printing` false the diagnostics are left in the document, errors included, for the
    /// caller to report (`captions check`).
    func readDocument(io: CommandIO, printing: Bool = true) throws -> TimedTextDocument {
        try readDocumentAndFormat(io: io, printing: printing).document
    }

    /// ``readDocument(io:printing:)``, with the format it was read as: the reader's (`.json` for a
    /// `--to json` dump, whatever format the dump says it came from), nil for a media file.
    func readDocumentAndFormat(io: CommandIO, printing: Bool = true) throws -> (document: TimedTextDocument, format: CaptionFormat?) {
        let plan = try makePlan(requireOutputFormat: false)
        let printer = DiagnosticPrinter(path: input == "-" ? "<stdin>" : input, showNotes: verbose)
        do {
            var (document, format) = try read(plan, io: io)
            if let speakers {
                let (renamed, notes) = SpeakerRenamer(names: try JSONFiles.speakerNames(from: speakers, io: io)).apply(to: document)
                document = renamed
                document.diagnostics += notes
            }
            guard printing else { return (document, format) }
            printer.print(document.diagnostics, to: io)
            if document.diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
            return (document, format)
        } catch let error as CaptionsError {
            printer.print([error.diagnostic], to: io)
            throw ExitCode(1)
        }
    }

    /// Writes `document`, made elsewhere from this command's input (`captions fix`), to the output
    /// in the output format, as `convert` writes.
    func write(_ document: TimedTextDocument, io: CommandIO) throws {
        let plan = try makePlan()
        let printer = DiagnosticPrinter(path: input == "-" ? "<stdin>" : input, showNotes: verbose)
        try Self.write(
            document, diagnostics: [], as: plan.outputFormat, options: plan.writerOptions, to: output, strict: strict,
            printer: printer, io: io)
    }

    /// How the output holds times when it is `document`, at the frame rate its writer takes
    /// (``CaptionFormat/frameRate(writing:options:)``): the step they are written in (a frame of
    /// SCC, STL, MicroDVD or iTT, a hundredth of ASS, else a millisecond) and the latest it can
    /// hold (``CaptionFormat/latestTime(frameRate:)``).
    func writtenTimes(of document: TimedTextDocument) throws -> (step: MediaTime, latest: MediaTime?) {
        let plan = try makePlan()
        let rate = plan.outputFormat.frameRate(writing: document, options: plan.writerOptions)
        return (plan.outputFormat.timeStep(frameRate: rate, ttmlProfile: plan.writerOptions.ttmlProfile), plan.outputFormat.latestTime(frameRate: rate))
    }

    /// `document` as the output will hold it: reduced, fitted and written as ``write(_:io:)``
    /// writes it, then read back by the output format's reader (`captions fix` fixes what the
    /// format moved); nil when that format cannot be read, or its own output could not be.
    func readBack(_ document: TimedTextDocument) throws -> TimedTextDocument? {
        let plan = try makePlan()
        let options = CaptionFormat.ReaderOptions(frameRate: plan.writerOptions.frameRate)
        guard let writer = plan.outputFormat.writer(options: plan.writerOptions), let reader = plan.outputFormat.reader(options: options)
        else { return nil }
        var document = document
        _ = CapabilityReducer(capabilities: writer.capabilities, formatName: plan.outputFormat.displayName).reduce(&document)
        _ = writer.fit(&document)
        return try? reader.read(writer.write(document))
    }

    /// Reads and parses the input, and says in which format: in place from the mapped file when the reader can, else from a
    /// copy that the reader releases as soon as it can.
    private func read(_ plan: Plan, io: CommandIO) throws -> (TimedTextDocument, CaptionFormat?) {
        if plan.inputIsMedia { return (try readMediaReporting(), nil) }
        let file = try InputFile(input, io: io)
        // What the name says may be wrong (a video saved as .txt, an RTF saved as .srt): the
        // content tells, unless --from says how to read it.
        if from == nil, let foreign = file.withBytes({ ForeignContent.identify($0) }) {
            switch foreign {
            case .media(let name):
                guard input != "-" else {
                    throw CaptionsError("input.media.stdin", "standard input holds \(name): give its path instead", at: .start)
                }
                return (try readMediaReporting(), nil)
            case .document(let name, let advice):
                throw CaptionsError("input.notCaptions", "\(name), not a caption file: \(advice)", at: .start)
            }
        }
        let inputFormat = plan.inputFormat ?? file.withBytes { CaptionFormat.sniff($0) }
        if plan.fpsForBoth, inputFormat != plan.outputFormat, Self.inputsCountingFrames.contains(inputFormat), let fps {
            // An SCC read at the MicroDVD output's rate came out seconds early, without a word.
            throw ValidationError(
                "--fps \(fps) would count the frames of both the \(inputFormat.displayName) input and the \(plan.outputFormat.displayName) output: "
                    + "give the input's rate with --input-fps (\(inputFormat == .scc ? "29.97 unless the file was made otherwise" : "its {1}{1}25 header, else 23.976")); --fps is then the output's")
        }
        guard let reader = inputFormat.reader(options: plan.readerOptions) else {
            throw ValidationError("\(inputFormat.rawValue) can be written but not read")
        }
        if let encoding {
            let bytes = file.takeBytes()
            // Binary EBU STL: the encoding names the code table its text is read in, in place of
            // the one its header names (iconv over the whole file scrambled its blocks: no cue, exit 0).
            if inputFormat == .stl, STLReader.recognises(bytes[...]) {
                guard let table = STLReader.codeTable(forEncoding: encoding) else {
                    throw ValidationError(
                        "--encoding \(encoding): EBU STL's text is in one of its code tables: iso6937 (Latin), iso-8859-5 (Cyrillic), iso-8859-6 (Arabic), iso-8859-7 (Greek) or iso-8859-8 (Hebrew)")
                }
                var document = try STLReader(codeTable: table).read(bytes)
                document.diagnostics.insert(
                    Diagnostic(.note, "stl.encoding.codeTable", "text read in code table \(table) (--encoding \(encoding)), not the header's", at: .start),
                    at: 0)
                return (document, inputFormat)
            }
            return (try reader.read(Self.converting(bytes, from: encoding, lenientUTF8: ![.ttml, .json].contains(inputFormat))), inputFormat)
        }
        if let inPlace = reader as? any InPlaceTimedTextReader {
            return (try file.withBytes { bytes throws(CaptionsError) in try inPlace.read(borrowing: bytes) }, inputFormat)
        }
        return (try reader.read(file.takeBytes()), inputFormat)
    }

    /// ``readMedia()`` with its failure as a diagnostic. Damage in the file (cues that may be
    /// missing) comes back as warnings, so that it is printed and `--strict` writes nothing.
    private func readMediaReporting() throws(CaptionsError) -> TimedTextDocument {
        do { return try readMedia() } catch { throw CaptionsError(Diagnostic.Code(rawValue: error.code), error.message) }
    }

    /// What to run on media without captions.
    private var transcribeHint: String {
        "`captions transcribe \(input) -o OUT.vtt` (or .txt, .html for a transcript) makes them from its speech"
    }

    /// The captions of the media input: its text subtitle stream (`--stream`, or the first), or,
    /// with `--channel` or when it has none, the CEA-608 captions its video carries.
    private func readMedia() throws(MediaError) -> TimedTextDocument {
        if channel == nil, service == nil {
            do {
                let contents = try SubtitleStreamReader.read(path: input, stream: stream)
                return SubtitlePacketReader.document(from: contents.packets, format: "media", diagnostics: contents.diagnostics)
            } catch where error.code == "media.subtitle.none" && stream == nil {
                // No text subtitle stream: the closed captions in the video, if any.
            }
        }
        let captions: ClosedCaptionContents
        do {
            captions = try ClosedCaptionReader.read(path: input)
        } catch where error.code == "media.video.none" {
            throw MediaError(
                "media.subtitle.none", "\(input) has neither a text subtitle stream nor a video that could carry captions; \(transcribeHint)")
        }
        guard !captions.pictures.isEmpty || channel != nil || service != nil else {
            throw MediaError(
                "media.subtitle.none", "\(input) has no text subtitle stream, and its video carries no closed captions; \(transcribeHint)")
        }
        return ClosedCaptionDecoder.document(
            from: captions.pictures, end: captions.end, channel: channel ?? 1, service: service, diagnostics: captions.diagnostics)
    }

    /// `bytes` in `encoding` as UTF-8; throws naming the first byte that is not in it (but for
    /// UTF-8 named for a text format: see `lenientUTF8`).
    static func converting(_ bytes: [UInt8], from encoding: String, lenientUTF8: Bool = true) throws(CaptionsError) -> [UInt8] {
        if lenientUTF8, ["UTF8", "CSUTF8"].contains(encoding.uppercased().filter { $0.isLetter || $0.isNumber }) {
            // UTF-8 named: read as UTF-8 whatever bytes are bad (replaced by U+FFFD, with a warning
            // at the first), as a byte order mark has the text readers do; iconv would refuse the
            // file. XML and JSON parsers refuse bad bytes themselves: for them iconv names the first.
            let valid = String(validating: bytes, as: UTF8.self) != nil
            return valid || bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes : [0xEF, 0xBB, 0xBF] + bytes
        }
        // iconv takes an empty name for the locale's own encoding (ASCII here): not a name given.
        let known = encoding.allSatisfy(\.isWhitespace) ? .failure(.unknownEncoding) : Charset.convert(bytes, from: encoding)
        switch known {
        case .success(let converted):
            return converted
        case .failure(.unknownEncoding):
            throw CaptionsError(
                "input.encoding.unknown", "unknown encoding \"\(encoding)\" (see `iconv --list` for the names)", at: .start)
        case .failure(.invalidBytes(let offset)):
            let before = bytes.prefix(offset)
            let line = before.count { $0 == 0x0A } + 1
            let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            throw CaptionsError(
                "input.encoding.invalid", "byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) is not \(encoding)",
                at: SourceLocation(line: line, column: column))
        }
    }

    private struct Plan {
        var inputIsMedia = false
        var inputFormat: CaptionFormat?
        var outputFormat: CaptionFormat
        var shift: MediaTime?
        var retime: FrameRateRetime?
        var speakerNames: [String: String]?
        var wrapper: CueLineWrapper?
        var writerOptions = CaptionFormat.WriterOptions()
        var readerOptions = CaptionFormat.ReaderOptions()
        /// `--fps` as one rate would be read by the input and written by the output.
        var fpsForBoth = false
    }

    /// Inputs whose reader takes `--fps` (the others say their rate, or need none).
    private static let inputsCountingFrames: Set<CaptionFormat> = [.scc, .microdvd]

    /// Whether the output is named iTT, by `--to itt` or an `.itt` file name (TTML with Apple's
    /// profile unless `--ttml-profile` says otherwise).
    private var writesITTByName: Bool {
        to.map { $0.lowercased() == "itt" } ?? output.lowercased().hasSuffix(".itt")
    }

    /// Checks the options and works out formats and transforms; throws usage errors.
    private func makePlan(requireOutputFormat: Bool = true) throws -> Plan {
        let inputFormat: CaptionFormat?
        let inputIsMedia = from?.lowercased() == "media" || (from == nil && Self.isMediaFile(input))
        if inputIsMedia {
            guard input != "-" else { throw ValidationError("subtitles are read from a media file, not standard input") }
            inputFormat = nil
        } else if let from {
            guard let format = CaptionFormat(name: from) else { throw ValidationError("unknown input format '\(from)'; choose one of \(ValueNames.inputFormats)") }
            inputFormat = format
        } else {
            inputFormat = input == "-" ? nil : CaptionFormat(fileExtensionOf: input)
        }
        let outputFormat: CaptionFormat
        if let to {
            guard let format = CaptionFormat(name: to) else { throw ValidationError("unknown output format '\(to)'; choose one of \(CaptionFormat.writableNames)") }
            outputFormat = format
        } else if output != "-", let format = CaptionFormat(fileExtensionOf: output) {
            outputFormat = format
        } else if requireOutputFormat, output.lowercased().hasSuffix(".sub") {
            throw ValidationError(
                "\(output): .sub names MicroDVD, SubViewer and VobSub files alike: give --to microdvd (with --fps) to write MicroDVD")
        } else if requireOutputFormat {
            try OutputName.refuseUnknownExtension(output, command: "convert", extensions: OutputName.captionExtensions) {
                CaptionFormat(fileExtensionOf: "captions." + $0) != nil
            }
            throw ValidationError(
                "cannot tell the output format from the name \(output): give --to with one of \(CaptionFormat.writableNames), "
                    + "or an output name with the format's extension")
        } else {
            outputFormat = .json
        }
        if requireOutputFormat, outputFormat.writer() == nil {
            throw ValidationError("\(outputFormat.displayName) can be read but not written; choose one of \(CaptionFormat.writableNames)")
        }
        var plan = Plan(inputIsMedia: inputIsMedia, inputFormat: inputFormat, outputFormat: outputFormat)
        if let shift {
            guard let offset = MediaTime(parsingDuration: shift) else {
                throw ValidationError("--shift '\(shift)' is not a duration such as -1.5s, 250ms or 00:00:02.000")
            }
            plan.shift = offset
        }
        if let fps {
            let rates = fps.split(separator: ":", omittingEmptySubsequences: false).map { FrameRate(parsing: String($0)) }
            if rates.count == 1, let rate = rates[0] {
                // One rate: the frame rate of a frame-timed format (MicroDVD, SCC, EBU STL, iTT) read or written.
                let frameTimed: Set<CaptionFormat> = [.microdvd, .scc, .stl]
                let writesITT = outputFormat == .ttml && (ttmlProfile == .itt || ttmlProfile == nil && writesITTByName)
                guard inputFormat == nil && !inputIsMedia || inputFormat.map(frameTimed.contains) == true || frameTimed.contains(outputFormat)
                    || writesITT
                else {
                    throw ValidationError(
                        "--fps '\(fps)': one rate is the frame rate of a MicroDVD, SCC, EBU STL or iTT file; to retime, give FROM:TO rates such as 25:23.976")
                }
                plan.readerOptions.frameRate = Double(rate.numerator) / Double(rate.denominator)
                plan.writerOptions.frameRate = Double(rate.numerator) / Double(rate.denominator)
                plan.fpsForBoth = inputFps == nil && (frameTimed.contains(outputFormat) || writesITT)
            } else {
                guard rates.count == 2, let source = rates[0], let target = rates[1] else {
                    throw ValidationError(
                        "--fps '\(fps)' must be a frame rate (for MicroDVD) or FROM:TO rates to retime, such as 25:23.976")
                }
                plan.retime = FrameRateRetime(from: source, to: target)
            }
        }
        if let inputFps {
            guard let rate = FrameRate(parsing: inputFps) else { throw ValidationError("--input-fps '\(inputFps)' must be a frame rate such as 29.97 or 25") }
            plan.readerOptions.frameRate = Double(rate.numerator) / Double(rate.denominator)
        }
        if let wrap {
            let parts = wrap.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard (1...2).contains(parts.count), let length = parts[0], length > 0, parts.count == 1 || (parts[1] ?? 0) > 0 else {
                throw ValidationError("--wrap '\(wrap)' must be a line length, optionally with a line count, such as 65 or 32x2")
            }
            plan.wrapper = CueLineWrapper(lineLength: length, maxLines: parts.count == 2 ? parts[1]! : .max)
        }
        if let channel {
            guard (1...4).contains(channel) else { throw ValidationError("--channel \(channel): CEA-608 channels are 1 to 4 (CC1–CC4)") }
            plan.readerOptions.channel = channel
        }
        if let service, !(1...63).contains(service) {
            throw ValidationError("--service \(service): CEA-708 services are 1 to 63")
        }
        if service != nil, channel != nil { throw ValidationError("give --channel (CEA-608) or --service (CEA-708), not both") }
        plan.readerOptions.language = language
        plan.writerOptions.crlf = crlf
        plan.writerOptions.ttmlProfile = ttmlProfile ?? (writesITTByName ? .itt : .imsc1)
        plan.writerOptions.sccMode = sccMode
        plan.writerOptions.stlKind = stl
        return plan
    }

    /// Containers whose subtitle streams `convert` reads through FFmpeg.
    private static func isMediaFile(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        // Files with other names are recognised by their content (``ForeignContent``).
        let media: Set = [
            "mkv", "mka", "mks", "mp4", "m4v", "m4a", "mov", "webm", "ts", "m2ts", "mts", "avi", "nut", "mpg", "mpeg",
            "vob", "mxf", "flv", "wmv", "asf", "3gp", "ogv", "ogg", "opus", "mp3", "wav", "flac", "aac",
        ]
        return media.contains(path[path.index(after: dot)...].lowercased())
    }

    private func applyTransforms(_ plan: Plan, to input: TimedTextDocument, diagnostics: inout [Diagnostic]) -> TimedTextDocument {
        var document = input
        if let retime = plan.retime { document = retime.apply(to: document) }
        if let offset = plan.shift {
            let (shifted, notes) = TimeShift(offset: offset).apply(to: document)
            document = shifted
            diagnostics += notes
        }
        if merge {
            let (merged, notes) = IdenticalCueMerger().apply(to: document)
            document = merged
            diagnostics += notes
        }
        if plan.outputFormat == .podcastJSON { document = SpeakerPrefixParser().apply(to: document) }
        if let names = plan.speakerNames {
            let (renamed, notes) = SpeakerRenamer(names: names).apply(to: document)
            document = renamed
            diagnostics += notes
        }
        let isPodcast = input.sourceFormat == "podcast-json"
        if speakerPrefix || (isPodcast && plan.outputFormat == .srt) { document = SpeakerPrefixer().apply(to: document) }
        if let wrapper = plan.wrapper ?? (isPodcast ? Self.podcastWrapper(for: plan.outputFormat) : nil) {
            document = wrapper.apply(to: document)
        }
        return document
    }

    /// Podcast caption shapes: WebVTT lines of at most 65 characters; SRT at most two lines of 32.
    private static func podcastWrapper(for format: CaptionFormat) -> CueLineWrapper? {
        switch format {
        case .webvtt: CueLineWrapper(lineLength: 65)
        case .srt: CueLineWrapper(lineLength: 32, maxLines: 2)
        default: nil
        }
    }
}
extension TTMLWriter.Profile: ExpressibleByArgument {}
extension SCCWriter.Mode: ExpressibleByArgument {}
extension STLWriter.Kind: ExpressibleByArgument {}
