#if CAPTIONS_LIBFUZZER
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver, from `libclang_rt.fuzzer_no_main` (linked by Scripts/fuzz.sh): parses
/// the libFuzzer flags in `argv` and calls `callback` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The target the libFuzzer callback runs; set once before the driver starts.
nonisolated(unsafe) private var currentTarget = FuzzTarget.webvtt

/// Runs libFuzzer on one target: a finding is printed and the process aborts, so that libFuzzer
/// saves the input as a crash artifact (and `-minimize_crash=1` can shrink it).
enum LibFuzzerEntry {
    /// Takes the target from `CAPTIONS_FUZZ_TARGET` or the first argument, hands the rest to
    /// libFuzzer, and returns its exit status.
    static func run(arguments: [String]) -> Int32 {
        var rest = Array(arguments.dropFirst())
        var name = getenv("CAPTIONS_FUZZ_TARGET").map { String(cString: $0) }
        if name == nil, let first = rest.first, !first.hasPrefix("-") {
            name = first
            rest.removeFirst()
        }
        guard let name, let target = FuzzTarget(name: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            writeStandardError("usage: CaptionsFuzz TARGET [libFuzzer flags] [CORPUS...]; targets: \(names)\n")
            return 64
        }
        currentTarget = target
        // libFuzzer runs itself again without our first argument (-minimize_crash, -fork, -merge).
        setenv("CAPTIONS_FUZZ_TARGET", target.rawValue, 1)
        // libFuzzer keeps argv for re-running itself (-fork, -jobs), so the strings live on.
        var pointers = ([arguments.first ?? "CaptionsFuzz"] + rest).map { strdup($0) }
        pointers.append(nil)
        var argc = Int32(pointers.count - 1)
        return pointers.withUnsafeMutableBufferPointer { buffer in
            guard var argv = buffer.baseAddress else { return 70 }
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
                let findings = FuzzHarness.fuzzOne(target: currentTarget, bytes: bytes).filter(\.isReported)
                guard findings.isEmpty else {
                    for finding in findings {
                        writeStandardError("==CaptionsFuzz== FINDING (\(currentTarget.rawValue)) \(finding)\n")
                    }
                    abort()
                }
                return 0
            }
        }
    }
}
#endif
