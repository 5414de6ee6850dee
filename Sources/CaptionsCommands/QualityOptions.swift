import ArgumentParser
import CaptionsCore
import CaptionsFormats
import CaptionsMedia
import CaptionsQuality

extension QualityReportFormat: ExpressibleByArgument {
    /// The format `--to` names, in any case, with the names its files take (`txt`, `htm`), as
    /// every command's `--to` reads them.
    public init?(argument: String) { self.init(extension: argument) }
}

/// The options `check` and `fix` share: the profile, the language, the frame rate and the video
/// shot changes come from.
struct QualityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The delivery profile: \(ProfileCatalog.names), or a profile JSON file (start from --print-profile).", valueName: "name|file"), completion: ValueNames.profiles)
    var profile: String = "netflix"

    @Option(help: ArgumentHelp("The language whose limits apply (BCP 47, such as en, ja, pt-BR; default: the file's, when it says).", valueName: "tag"))
    var language: String?

    @Option(help: ArgumentHelp("The frame rate frame counts are measured in (default: the video's with --media, else the profile's), such as 25 or 23.976.", valueName: "rate"))
    var fps: String?

    @Option(help: ArgumentHelp("The video the captions belong to: cue edges are checked against its shot changes.", valueName: "video"), completion: .file())
    var media: String?

    @Option(help: ArgumentHelp("The score (0–100) a picture change must reach to be a shot change.", valueName: "score"))
    var shotThreshold: Double = ShotChangeDetector.defaultThreshold

    @Flag(help: "Find the shot changes again instead of using the ones cached for this video.")
    var noCache = false

    /// A profile name that is none of the shipped profiles is refused once, before any file (a
    /// batch said it again for every file, each a usage error of its own).
    func validate() throws {
        guard !(profile.hasSuffix(".json") || profile.contains("/")) else { return }
        do { _ = try ProfileCatalog.profile(named: profile) } catch {
            throw ValidationError("--profile \(profile): \(error.message)")
        }
    }

    /// The files these options name that are read: a profile file and the video.
    var filesRead: [String] { (profile.hasSuffix(".json") || profile.contains("/") ? [profile] : []) + (media.map { [$0] } ?? []) }

    /// The step times are written in by the format named `format` (a `sourceFormat`, or a name
    /// people give): limits are met within it.
    static func timeStep(of format: String?) -> MediaTime {
        (format.flatMap(CaptionFormat.init(name:)) ?? .srt).timeStep(ttmlProfile: format == "itt" ? .itt : nil)
    }

    /// The step the times of `document` are in: its source's own (an iTT file's frame), else its
    /// format's.
    static func timeStep(of document: TimedTextDocument) -> MediaTime {
        document.sourceTimeStep ?? timeStep(of: document.sourceFormat)
    }

    /// The checker the options describe, the video's shot changes found (or taken from the cache).
    func checker(io: CommandIO, progress: ProgressStyle? = nil) throws -> (checker: QualityChecker, shots: ShotChanges?) {
        let loaded: QualityProfile
        do {
            if profile.hasSuffix(".json") || profile.contains("/") {
                loaded = try ProfileCatalog.decode(try FileAccess.read(profile, io: io), source: profile)
            } else {
                loaded = try ProfileCatalog.profile(named: profile)
            }
        } catch {
            io.writeStandardError("\(profile): error: \(error.message) [\(error.code)]\n")
            // A name that is none of the shipped profiles is a usage error, as any bad choice.
            throw ExitCode(error.code == "check.profile.unknown" ? 64 : 1)
        }
        var checker = QualityChecker(profile: loaded, language: language)
        if let fps {
            guard let rate = FrameRate(parsing: fps) else { throw ValidationError("--fps '\(fps)' is not a frame rate such as 25, 23.976 or 24000/1001") }
            checker.frameRate = rate
        }
        guard (0...100).contains(shotThreshold) else { throw ValidationError("--shot-threshold must be between 0 and 100") }
        guard let media else { return (checker, nil) }
        let shots: ShotChanges
        do {
            shots = try ShotChangeCache.shots(of: media, threshold: shotThreshold, refresh: noCache, io: io, progress: progress)
        } catch {
            io.writeStandardError("\(media): error: \(error.message) [\(error.code)]\n")
            throw ExitCode(1)
        }
        if let partial = shots.partialReason {
            io.writeStandardError("\(media): warning: shot changes found in part of the video only: \(partial) [check.media.partial]\n")
        }
        checker.shotChanges = shots.cuts.map(\.time)
        // The measured average to three decimals names the exact rate: 23.976 is 24000/1001.
        if fps == nil, let rate = shots.framesPerSecond.flatMap({ FrameRate(parsing: NumberFormatting.shortest(($0 * 1000).rounded() / 1000)) }) {
            checker.frameRate = rate
            checker.frameRateSource = "media"
        }
        return (checker, shots)
    }
}
