import CaptionsFormats
import CaptionsMedia
import CaptionsQuality

/// What `captions --version` prints: the tool's version, the versions of the measures whose
/// results can change between releases, and the libraries doing the work on this machine.
public enum VersionInfo {
    /// The tool's version.
    public static let version = "0.2.0"

    /// The measures, each named with the version of its method; a change to one that can change
    /// a result gets a new name here (and in the caches keyed by it).
    static let algorithms: [(String, String)] = [
        ("flash analysis", "WCAG 2.3.1 (2.2 understanding) and ITU-R BT.1702-3, per 10° field, moving flashes counted, HDR in cd/m², a second grid half a cell over, cells lit from their mean and spread, vertical motion, to a fraction of a line, not counted as flashing (flash-v9)"),
        ("red flash rules", "WCAG 2.2 (R/(R+G+B) ≥ 0.8, Δu′v′ > 0.2); Harding ((R−G−B)×320 > 20)"),
        ("Dim Flashing Lights", "Apple's model, apple/VideoFlashingReduction 7357d2f"),
        ("shot changes", ShotChangeCache.detector),
        ("quality profiles", ProfileCatalog.names),
    ]

    /// The text `--version` prints.
    public static var text: String {
        var lines = ["captions \(version)"]
        for (name, value) in algorithms { lines.append("  \(name): \(value)") }
        lines.append("  FFmpeg: \(FFmpegLibraries.version ?? "not found (install it with Scripts/setup.sh)")")
        lines.append("  libxml2: \(XMLLibrary.version)")
        return lines.joined(separator: "\n") + "\n"
    }
}
