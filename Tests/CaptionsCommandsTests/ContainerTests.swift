import Foundation
import Testing

/// The container image of the README's batch section (`Dockerfile`).
@Suite struct ContainerTests {
    /// The image builds the versions the repository was tested with: the Dockerfile copies
    /// Package.resolved beside Package.swift (it copied Package.swift alone, so each build took
    /// whatever versions were newest), and Package.resolved pins every dependency Package.swift
    /// names. Every file the Dockerfile copies is in the repository.
    @Test func theImageBuildsPinnedDependencies() throws {
        let root = FlashSamples.root
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let copied = dockerfile.split(separator: "\n").filter { $0.hasPrefix("COPY ") }.flatMap { $0.split(separator: " ").dropFirst().dropLast() }
        #expect(copied.contains("Package.swift") && copied.contains("Package.resolved"), "\(copied)")
        for source in copied { #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(String(source)).path), "\(source)") }
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let resolved = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("Package.resolved"))) as? [String: Any])
        let pinned = Set((resolved["pins"] as? [[String: Any]] ?? []).compactMap { $0["location"] as? String })
        let named = manifest.components(separatedBy: ".package(url: \"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(!named.isEmpty && named.allSatisfy(pinned.contains), "\(named) \(pinned)")
    }
}
