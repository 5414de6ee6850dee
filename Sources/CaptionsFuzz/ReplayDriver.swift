#if !CAPTIONS_LIBFUZZER
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs each given file (or each file in a given folder) once through a target's checks and
/// prints the findings: how a crash artifact or the committed regression corpus is replayed
/// without the sanitizer build.
enum ReplayDriver {
    /// `CaptionsFuzz TARGET PATH...`; returns 0 when nothing was found,
    /// 1 when something was, 64 for a usage error.
    static func run(arguments: [String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        guard rest.count >= 2, let target = FuzzTarget(name: rest[0]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            writeStandardError("usage: CaptionsFuzz TARGET FILE_OR_FOLDER...; targets: \(names)\n")
            return 64
        }
        var files = 0
        var failed = 0
        for path in rest.dropFirst() {
            for file in expand(path) {
                files += 1
                guard let bytes = contents(of: file) else {
                    writeStandardError("\(file): cannot read\n")
                    failed += 1
                    continue
                }
                let findings = FuzzHarness.fuzzOne(target: target, bytes: bytes).filter(\.isReported)
                for finding in findings { print("\(file): FINDING (\(target.rawValue)) \(finding)") }
                if !findings.isEmpty { failed += 1 }
            }
        }
        print("\(target.rawValue): \(files) inputs, \(failed) with findings")
        return failed == 0 ? 0 : 1
    }

    /// The files in a folder and its subfolders (sorted, dot files skipped); a file as itself.
    static func expand(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().flatMap { expand(path.hasSuffix("/") ? path + $0 : path + "/" + $0) }
    }

    /// The whole file, or `nil` when it cannot be opened.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
#endif
