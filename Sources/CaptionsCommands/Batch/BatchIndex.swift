import CaptionsFormats
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `index.html` in a batch's output folder when its reports are HTML: one row per input with its
/// status, what was found and a link to its report, so that an auditor opens one page for a
/// catalogue instead of hundreds.
///
/// Built from every result file under `FOLDER/.captions-results/`, not only this run's: inputs
/// skipped by `--resume` and the other shards of a `--shard K/N` run writing into the same folder
/// are listed too (each shard rewrites the page when it ends, the last with every row). Shards
/// ending at once take turns (``lockFile``): one that read the results before another's last ones
/// were written could otherwise replace a full page with its older one.
enum BatchIndex {
    /// The lock, in the output folder, that page rebuilds hold (`flock`, exclusive) from reading
    /// the results to renaming the page into place.
    static let lockFile = ".captions-index.lock"

    /// One input's row, as its result file has it.
    struct Row: Decodable, Equatable {
        var path: String
        var status: String
        var verdict: String?
        var hazards: Int?
        var partial: Bool?
        var cues: Int?
        var findingErrors: Int?
        var findingWarnings: Int?
        var errors: Int
        var warnings: Int
        var output: String?
        var seconds: Double
    }

    /// Writes `folder/index.html` (`captions-index.html` when an input's own report is called
    /// `index.html`, then `captions-index-2.html` and on while inputs' reports take those) from the
    /// result files below `folder`; returns where.
    @discardableResult
    static func write(folder: String, command: String, taken: Set<String>, io: CommandIO) throws -> String? {
        // Closing the descriptor (at return) releases the lock. Without one (a read-only folder:
        // the page cannot be written either) the page is built as before.
        let lock = open(folder + "/" + lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        defer { if lock >= 0 { close(lock) } }
        while lock >= 0, flock(lock, LOCK_EX) != 0, errno == EINTR {}
        let rows = self.rows(in: folder + "/" + BatchRunner.resultsFolder, io: io)
        guard !rows.isEmpty else { return nil }
        var index = folder + "/index.html"
        var number = 1
        while taken.contains(index) {
            index = folder + (number == 1 ? "/captions-index.html" : "/captions-index-\(number).html")
            number += 1
        }
        try FileAccess.writeText(page(rows, folder: folder, command: command), to: index, io: io)
        return index
    }

    /// Every result below `results`, by input path.
    static func rows(in results: String, io: CommandIO) -> [Row] {
        var rows: [Row] = []
        var pending = [results]
        while let directory = pending.popLast() {
            guard let handle = opendir(directory) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let full = directory + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    pending.append(full)
                } else if name.hasSuffix(".json"), let bytes = try? FileAccess.read(full, io: io),
                    let row = try? JSONDecoder().decode(Row.self, from: Data(bytes))
                {
                    rows.append(row)
                }
            }
        }
        return rows.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The page: a summary line and a table, failures first.
    static func page(_ rows: [Row], folder: String, command: String) -> String {
        let order = ["fail": 0, "error": 1, "partial": 2, "usage": 3, "ok": 4]
        let sorted = rows.enumerated().sorted { (order[$0.element.status] ?? 5, $0.offset) < (order[$1.element.status] ?? 5, $1.offset) }.map(\.element)
        var counts: [String: Int] = [:]
        for row in rows { counts[row.status, default: 0] += 1 }
        let summary = BatchRunner.counted(counts, order: ["fail", "error", "partial", "usage", "ok"]).joined(separator: ", ")
        let flashes = rows.contains { $0.verdict != nil }
        let checks = rows.contains { $0.findingErrors != nil }
        var table = ""
        for row in sorted {
            let name = XMLText.escape(row.path)
            let link = row.output.flatMap { relativeLink(to: $0, from: folder) }
            let cell = link.map { "<a href=\"\(XMLText.escapeAttribute($0))\">\(name)</a>" } ?? name
            var found: [String] = []
            if let verdict = row.verdict {
                found.append(verdict.uppercased() + (row.partial == true ? " (partial)" : "") + (row.hazards.map { ", \($0) hazard\($0 == 1 ? "" : "s")" } ?? ""))
            }
            if let errors = row.findingErrors {
                found.append("\(errors) error\(errors == 1 ? "" : "s"), \(row.findingWarnings ?? 0) warning\(row.findingWarnings == 1 ? "" : "s")")
            }
            if let cues = row.cues, !checks { found.append("\(cues) cue\(cues == 1 ? "" : "s")") }
            if row.errors > 0 || row.warnings > 0 { found.append("diagnostics: \(row.errors) errors, \(row.warnings) warnings") }
            let seconds = (row.seconds * 10).rounded() / 10
            table += "<tr class=\"\(XMLText.escapeAttribute(row.status))\"><td>\(cell)</td><td>\(XMLText.escape(row.status))</td>"
                + "<td>\(XMLText.escape(found.joined(separator: "; ")))</td><td>\(seconds) s</td></tr>\n"
        }
        let what = flashes ? "Flash scans" : checks ? "Caption checks" : "Results"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(what): \(rows.count) files</title>
            <style>
            :root { color-scheme: light dark; --fail: #b00020; --ink: #1d1d1f; --paper: #ffffff; --muted: #5f6368; --grid: #d0d4d9; }
            @media (prefers-color-scheme: dark) { :root { --fail: #ff6b7a; --ink: #ececf0; --paper: #16171a; --muted: #a5a9b0; --grid: #3a3d43; } }
            body { font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--paper); max-width: 62rem; margin: 2rem auto; padding: 0 1rem; }
            a { color: inherit; }
            table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
            @media (max-width: 40rem) { table { display: block; overflow-x: auto; } }
            th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--grid); vertical-align: top; }
            caption { text-align: left; color: var(--muted); }
            tr.fail td:nth-child(2), tr.error td:nth-child(2) { color: var(--fail); font-weight: 700; }
            </style>
            </head>
            <body>
            <h1>\(what): \(rows.count) file\(rows.count == 1 ? "" : "s")</h1>
            <p>\(XMLText.escape(summary)). Written by <code>captions \(XMLText.escape(command))</code>; failures first, then errors, then partial scans, then the rest in path order.</p>
            <table>
            <caption>Each file, its status and what was found; the name links to its report.</caption>
            <thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Found</th><th scope="col">Time</th></tr></thead>
            <tbody>
            \(table)</tbody>
            </table>
            </body>
            </html>

            """
    }

    /// `output` as a link from a page in `folder`, when it lies below it.
    static func relativeLink(to output: String, from folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard output.hasPrefix(prefix) else { return nil }
        return XMLText.urlPath(String(output.dropFirst(prefix.count)))
    }
}
