import CaptionsCommands
import Foundation
import Testing

/// `captions transcript X --format html --media episode.wav`: the page follows the episode, tested
/// in headless Chromium (its DOM dumped after a script in the page has clicked and seeked).
@Suite(.enabled(if: Chromium.isInstalled && FlashSamples.available, "needs chromium and ffmpeg"))
struct TranscriptPageTests {
    static let dialogue = """
        WEBVTT

        00:00.000 --> 00:04.000
        <v Ann>One, said Ann.

        00:05.000 --> 00:09.000
        <v Bob>Two, said Bob.

        00:10.000 --> 00:14.000
        <v Ann>Three, said Ann.

        00:15.000 --> 00:19.000
        <v Bob>Four, said Bob.

        00:20.000 --> 00:24.000
        <v Ann>Five, said Ann.

        """

    /// The page for `dialogue` with a 30-second sound beside it, `script` run after it loads.
    private func page(in folder: URL, script: String, arguments: [String] = [], captions: String = dialogue) throws -> URL {
        let vtt = folder.appendingPathComponent("episode.vtt")
        try captions.write(to: vtt, atomically: true, encoding: .utf8)
        #expect(FlashSamples.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=300:duration=30", folder.appendingPathComponent("episode.wav").path]))
        let page = folder.appendingPathComponent("episode.html")
        let io = MemoryIO()
        #expect(run(["transcript", vtt.path, "-o", page.path, "--media", "episode.wav"] + arguments, io: io) == 0, "\(io.errors)")
        var html = try String(contentsOf: page, encoding: .utf8)
        html = html.replacing("</body>", with: "<script>\n\(script)\n</script>\n</body>")
        try html.write(to: page, atomically: true, encoding: .utf8)
        return page
    }

    /// The page's DOM after its scripts ran (virtual time: media events other than metadata are
    /// not delivered, so a test script fires the `timeupdate` a playing element would).
    private func dom(_ page: URL, hash: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Chromium.path)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000", "--dump-dom", page.absoluteString + hash]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON a test script left in `data-results` on `<body>`.
    private func results(_ dom: String) throws -> [String: Any] {
        let match = try #require(dom.firstMatch(of: /data-results="([^"]*)"/), "no results in \(dom.prefix(300))")
        let json = String(match.1).replacing("&quot;", with: "\"")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func clickingAParagraphSeeksAndTheTimeHighlightsItsParagraph() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = try page(in: folder, script: """
            window.addEventListener("load", function () {
              var player = document.getElementById("player"), results = {};
              function run() {
                var third = document.querySelectorAll("main p[data-start]")[2];
                third.querySelector("a.piece").click();
                results.afterClick = player.currentTime;
                results.hash = location.hash;
                var afterClick = document.querySelector('main p[aria-current="true"]');
                results.currentAfterClick = afterClick ? afterClick.dataset.start : null;
                player.currentTime = 17;
                player.dispatchEvent(new Event("timeupdate"));
                var current = document.querySelectorAll('main p[aria-current="true"]');
                results.current = current.length === 1 ? current[0].dataset.start : current.length;
                document.body.setAttribute("data-results", JSON.stringify(results));
              }
              if (player.readyState >= 1) run(); else player.addEventListener("loadedmetadata", run, { once: true });
            });
            """)
        let found = try results(try dom(page))
        #expect(found["afterClick"] as? Double == 10)
        #expect(found["hash"] as? String == "#t=10")
        #expect(found["currentAfterClick"] as? String == "10")
        #expect(found["current"] as? String == "15", "the paragraph from 0:15 plays at 0:17, and only it is current")
    }

    @Test func aTimeLinkStartsThere() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = try page(in: folder, script: """
            window.addEventListener("load", function () {
              var player = document.getElementById("player");
              function report() {
                var current = document.querySelector('main p[aria-current="true"]');
                document.body.setAttribute("data-results", JSON.stringify({ time: player.currentTime, current: current ? current.dataset.start : null }));
              }
              if (player.readyState >= 1) setTimeout(report, 0); else player.addEventListener("loadedmetadata", function () { setTimeout(report, 0); }, { once: true });
            });
            """)
        let found = try results(try dom(page, hash: "#t=0:12"))
        #expect(found["time"] as? Double == 12)
        #expect(found["current"] as? String == "10")
    }

    @Test func searchFindsParagraphsAndSaysHowMany() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let page = try page(in: folder, script: """
            window.addEventListener("load", function () {
              var find = document.getElementById("find");
              find.value = "said bob";
              find.dispatchEvent(new Event("input"));
              var matches = Array.prototype.map.call(document.querySelectorAll("main p.match"), function (p) { return p.dataset.start; });
              document.body.setAttribute("data-results", JSON.stringify({ matches: matches, said: document.getElementById("found").textContent }));
            });
            """)
        let found = try results(try dom(page))
        #expect(found["matches"] as? [String] == ["5", "15"])
        #expect(found["said"] as? String == "2 paragraphs")
    }

    /// Descriptions merge in as marked passages of what is seen, in time order.
    @Test func descriptionsAreMarkedPassages() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let descriptions = folder.appendingPathComponent("ad.vtt")
        try "WEBVTT\n\n00:12.000 --> 00:13.000\nAnn hands Bob a letter.\n".write(to: descriptions, atomically: true, encoding: .utf8)
        let page = try page(in: folder, script: "", arguments: ["--descriptions", descriptions.path])
        let html = try String(contentsOf: page, encoding: .utf8)
        let starts = html.matches(of: /<p data-start="([0-9.]+)"( class="seen")?/).map { "\($0.1)\($0.2 == nil ? "" : " seen")" }
        #expect(starts == ["0", "5", "10", "12 seen", "15", "20"])
        #expect(html.contains("<span class=\"seen-label\">Seen:</span>"))
        #expect(html.contains("<audio id=\"player\" controls preload=\"metadata\" src=\"episode.wav\">"))
        #expect(!html.contains("<script src"), "no external script")
    }

    /// The page's own words are in the transcript's language where we have them (a search in a
    /// French page says "1 sur 2 paragraphes", and "0 paragraphe"), else English marked
    /// `lang="en"`, so that a screen reader on a Czech page says them as English.
    @Test func thePageSpeaksTheTranscriptsLanguage() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let french = Self.dialogue.replacing("WEBVTT\n", with: "WEBVTT\nLanguage: fr-CA\n")
        let page = try page(in: folder, script: """
            window.addEventListener("load", function () {
              var find = document.getElementById("find"), found = document.getElementById("found"), said = [];
              find.value = "said bob";
              find.dispatchEvent(new Event("input"));
              said.push(found.textContent);
              find.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
              said.push(found.textContent);
              find.value = "nobody";
              find.dispatchEvent(new Event("input"));
              said.push(found.textContent);
              document.body.setAttribute("data-results", JSON.stringify({ said: said }));
            });
            """, captions: french)
        let found = try results(try dom(page))
        #expect(found["said"] as? [String] == ["2 paragraphes", "1 sur 2 paragraphes", "0 paragraphe"])
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<html lang=\"fr-CA\">"))
        #expect(html.contains("<label for=\"find\">Rechercher dans la transcription</label>"), "no lang: the page's own")
        #expect(html.contains("Faire défiler avec l’audio"))

        let czech = Self.dialogue.replacing("WEBVTT\n", with: "WEBVTT\nLanguage: cs\n")
        let other = try self.page(in: folder, script: "", captions: czech)
        let czechHTML = try String(contentsOf: other, encoding: .utf8)
        #expect(czechHTML.contains("<html lang=\"cs\">"))
        #expect(czechHTML.contains("<label for=\"find\" lang=\"en\">Search the transcript</label>"))
        #expect(czechHTML.contains("<label lang=\"en\"><input type=\"checkbox\" id=\"follow\" checked> Scroll to follow the audio</label>"))
    }
}
