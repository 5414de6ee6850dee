import Foundation
import Testing

/// The container image of the README's batch section (`Dockerfile`).
@Suite struct ContainerTests {
    /// Every file the Dockerfile copies is in the repository (a build folder or Package.resolved,
    /// which git does not keep, would make the image build fail on a clean clone).
    @Test func everyFileTheImageCopiesIsInTheRepository() throws {
        let root = FlashSamples.root
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let copied = dockerfile.split(separator: "\n").filter { $0.hasPrefix("COPY ") }.flatMap { $0.split(separator: " ").dropFirst().dropLast() }
        #expect(copied.contains("Package.swift") && !copied.contains("Package.resolved"), "\(copied)")
        for source in copied { #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(String(source)).path), "\(source)") }
    }
}
