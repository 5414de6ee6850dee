// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Captions",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "captions", targets: ["CaptionsCLI"]),
        .library(name: "CaptionsCore", targets: ["CaptionsCore"]),
        .library(name: "CaptionsFormats", targets: ["CaptionsFormats"]),
    ],
    dependencies: [
        // Subcommands, options, help and usage errors (exit 64) for the `captions` CLI.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Seeded, shrinking property tests in Swift Testing (tests only).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // FFmpeg's headers; the libraries are opened with dlopen on first use (see shim.h), so
        // there is deliberately no pkgConfig here: its -lavcodec … would load ~140 libraries into
        // every run of `captions`, media or not (50 ms and 25 MB each time).
        .systemLibrary(
            name: "CCaptionsFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        // libxml2 for TTML, hardened in XMLTree.swift (no network, no DTD, no entity expansion).
        .systemLibrary(name: "CCaptionsXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // uchardet names a legacy text encoding, ICU's detector (libicu, already loaded by libxml2)
        // gives a second opinion with a confidence, glibc's iconv converts.
        .systemLibrary(name: "CCaptionsCharset", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev", "libicu-dev"])]),
        // <malloc.h> for mallopt in the executable (see Sources/CaptionsCLI/main.swift).
        .systemLibrary(name: "CCaptionsMalloc"),
        .target(name: "CaptionsCore"),
        // The per-pixel and per-cell loops of the flash analysis, in C: vectorised (AVX2 chosen at
        // run time on x86-64) and optimised in debug builds too.
        // No fused multiply-adds: the kernels give the same floats as their Swift models on every
        // processor (arm64 would fuse them by default).
        .target(
            name: "CCaptionsKernels",
            cSettings: [.unsafeFlags(["-ffp-contract=off"]), .unsafeFlags(["-O2"], .when(configuration: .debug))]),
        .target(name: "CaptionsMedia", dependencies: ["CaptionsCore", "CCaptionsFFmpeg", "CCaptionsKernels"]),
        // The flash analysis reads every pixel of every frame: optimised in debug builds too, so
        // that the test suite's scans of real clips take seconds, not a quarter of an hour.
        .target(
            name: "CaptionsFlash", dependencies: ["CaptionsCore", "CCaptionsKernels"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Speech recognition: the helper process (faster-whisper) and everything after its words.
        .target(name: "CaptionsSpeech", dependencies: ["CaptionsCore", "CaptionsMedia"]),
        .target(name: "CaptionsFormats", dependencies: ["CaptionsCore", "CCaptionsXML", "CCaptionsCharset"]),
        // Caption quality control: delivery profiles (JSON, embedded in the binary), the rules of
        // `captions check` over one engine, and the repairs of `captions fix`.
        .target(
            name: "CaptionsQuality", dependencies: ["CaptionsCore", "CaptionsFormats"],
            resources: ["netflix", "bbc", "apple-itt", "cea608", "dcmp"].map { .embedInCode("Profiles/\($0).json") }
        ),
        .target(
            name: "CaptionsCommands",
            dependencies: [
                "CaptionsCore", "CaptionsFormats", "CaptionsMedia", "CaptionsFlash", "CaptionsSpeech", "CaptionsQuality",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "CaptionsCLI", dependencies: ["CaptionsCommands", "CCaptionsMalloc"]),
        // Fuzz targets for every reader (Scripts/fuzz.sh builds it with libFuzzer and ASan); built
        // plainly, it replays inputs through the same checks (Tests/CaptionsFuzzTests).
        .executableTarget(name: "CaptionsFuzz", dependencies: ["CaptionsCore", "CaptionsFormats"]),
        .testTarget(
            name: "CaptionsCoreTests",
            dependencies: ["CaptionsCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "CaptionsFormatsTests",
            dependencies: [
                "CaptionsCore", "CaptionsFormats",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CaptionsFlashTests",
            dependencies: ["CaptionsFlash", "CaptionsCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "CaptionsQualityTests", dependencies: ["CaptionsQuality", "CaptionsCore", "CaptionsFormats"], exclude: ["Planted"]),
        .testTarget(name: "CaptionsSpeechTests", dependencies: ["CaptionsSpeech", "CaptionsCore", "CaptionsMedia", "CaptionsFormats"]),
        .testTarget(name: "CaptionsFuzzTests", dependencies: ["CaptionsFuzz", "CaptionsCore", "CaptionsFormats"], exclude: ["Regressions"]),
        .testTarget(
            name: "CaptionsCommandsTests",
            dependencies: [
                "CaptionsCommands", "CaptionsCore", "CaptionsFormats", "CaptionsFlash", "CaptionsMedia", "CCaptionsFFmpeg",
            ],
            exclude: ["Goldens"]
        ),
    ]
)
