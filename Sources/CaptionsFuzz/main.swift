// The `CaptionsFuzz` executable. Built by Scripts/fuzz.sh with `-D CAPTIONS_LIBFUZZER` and
// sanitizer coverage, it is a libFuzzer binary:
//     CaptionsFuzz TARGET [libFuzzer flags] [CORPUS...]   (or CAPTIONS_FUZZ_TARGET=TARGET)
// Built plainly (`swift build`), it replays inputs through the same checks once each:
//     CaptionsFuzz TARGET FILE_OR_FOLDER...
// and exits 1 when any input gives a finding. In both builds `CaptionsFuzz list` prints the
// targets and `CaptionsFuzz dict TARGET` a libFuzzer dictionary for one.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "list" {
    for target in FuzzTarget.allCases { print(target.rawValue) }
    exit(0)
}
if arguments.count == 3, arguments[1] == "dict", let target = FuzzTarget(name: arguments[2]) {
    print(target.dictionaryFile, terminator: "")
    exit(0)
}
#if CAPTIONS_LIBFUZZER
exit(LibFuzzerEntry.run(arguments: arguments))
#else
exit(ReplayDriver.run(arguments: arguments))
#endif
