import CaptionsCore

/// The transcript as one page that follows the media: a player (when a media file is given,
/// linked, never embedded), every paragraph and every timed piece of text a link that seeks
/// there, the paragraph being played highlighted and marked `aria-current`, search within the
/// text, `#t=90` (or `#t=1:30`) links that start there, and descriptions of what is seen set apart.
/// Everything works offline: the style and the script are inline, no external file is loaded
/// but the media.
///
/// The colours meet WCAG AA (4.5:1 for text) in the light and the dark theme, current paragraph
/// and search matches included (``colours``, checked by a test).
enum TranscriptPage {
    /// The page's colours: (name, light, dark). Text colours are checked against every background.
    static let colours: [(name: String, light: String, dark: String)] = [
        ("bg", "#ffffff", "#121212"),
        ("fg", "#1a1a1a", "#e8e8e8"),
        ("muted", "#595959", "#a6a6a6"),
        ("link", "#0b57b0", "#8ab4f8"),
        ("current-bg", "#fff1b8", "#3b3100"),
        ("match-bg", "#d6ecff", "#0e2f4d"),
        ("seen", "#6a3d9a", "#c9a8f0"),
    ]

    /// Media extensions shown in a video player (others get an audio player).
    static let videoExtensions: Set = ["mp4", "m4v", "mov", "webm", "mkv", "ogv"]

    /// ` dir="rtl"` for a language written right to left (Arabic, Hebrew, Persian, Urdu…), so
    /// that the page lays its text out that way (an Arabic line's final "!" was on the wrong side).
    static func direction(of language: String) -> String {
        let rightToLeft: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ji", "ps", "sd", "ug", "dv", "ckb", "syr", "arc", "nqo"]
        return rightToLeft.contains(TranscriptWords.primarySubtag(of: language)) ? " dir=\"rtl\"" : ""
    }

    static func render(
        _ sections: [Transcript.Section], title: String, language: String, timestamps: Bool, media: String?, note: String? = nil
    ) -> String {
        let words = TranscriptWords.for(language)
        let wordsLanguage = words.languageAttribute(within: language)
        var body = ""
        for section in sections {
            if let heading = section.title { body += "<section>\n<h2>\(XMLText.escape(heading))</h2>\n" }
            for paragraph in section.paragraphs {
                body += paragraphHTML(paragraph, timestamps: timestamps, seen: "<span class=\"seen-label\"\(wordsLanguage)>\(XMLText.escape(words.seen)):</span> ") + "\n"
            }
            if section.title != nil { body += "</section>\n" }
        }
        var player = ""
        if let media {
            let isVideo = videoExtensions.contains(String(media.split(separator: ".").last ?? "").lowercased())
            let element = isVideo ? "video" : "audio"
            player = """
                <div class="player"><\(element) id="player" controls preload="metadata" src="\(XMLText.escape(XMLText.mediaSource(media)))"></\(element)></div>
                <p class="follow"><label\(wordsLanguage)><input type="checkbox" id="follow" checked> \(XMLText.escape(isVideo ? words.followVideo : words.followAudio))</label></p>

                """
        }
        let noteHTML = note.map { "<p class=\"note\"\(TranscriptWords.english.languageAttribute(within: language))>\(XMLText.escape($0))</p>\n" } ?? ""
        let light = colours.map { "--\($0.name): \($0.light);" }.joined(separator: " ")
        let dark = colours.map { "--\($0.name): \($0.dark);" }.joined(separator: " ")
        return """
            <!doctype html>
            <html lang="\(XMLText.escape(language))"\(Self.direction(of: language))>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XMLText.escape(title))</title>
            <style>
            :root { color-scheme: light dark; \(light) }
            @media (prefers-color-scheme: dark) { :root { \(dark) } }
            body { font: 18px/1.6 Georgia, serif; max-width: 40rem; margin: 0 auto; padding: 0 1rem 3rem; background: var(--bg); color: var(--fg); }
            header { position: sticky; top: 0; background: var(--bg); padding: .5rem 0; border-bottom: 1px solid var(--muted); }
            h1 { font-size: 1.4rem; margin: .5rem 0; }
            .player audio, .player video { width: 100%; max-height: 40vh; }
            .follow { margin: .25rem 0; font: .9rem system-ui, sans-serif; }
            .note { margin: 0 0 .25rem; color: var(--muted); font: .85rem system-ui, sans-serif; }
            search, .search { display: flex; gap: .5rem; align-items: center; font: .9rem system-ui, sans-serif; flex-wrap: wrap; }
            input[type=search] { font: inherit; padding: .25rem .4rem; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); }
            main p { padding: .25rem .5rem; margin: .5rem -.5rem; border-radius: .25rem; }
            cite { font-style: normal; font-weight: 700; font-family: system-ui, sans-serif; }
            a { color: var(--link); }
            a.stamp { color: var(--muted); font: 0.85em system-ui, sans-serif; margin: 0 .3em 0 0; }
            a.piece { color: inherit; text-decoration: none; }
            a.piece:hover, a.piece:focus { text-decoration: underline; }
            p[aria-current="true"] { background: var(--current-bg); }
            p.match { background: var(--match-bg); }
            p[aria-current="true"].match { background: var(--current-bg); outline: 2px solid var(--link); }
            p.seen { font-style: italic; border-left: 3px solid var(--seen); }
            .seen-label { color: var(--seen); font: 700 0.85em system-ui, sans-serif; font-style: normal; margin-right: .3em; }
            :focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
            </style>
            </head>
            <body>
            <header>
            <h1>\(XMLText.escape(title))</h1>
            \(noteHTML)\(player)<div class="search" role="search"><label for="find"\(wordsLanguage)>\(XMLText.escape(words.search))</label> <input id="find" type="search" autocomplete="off"> <output id="found" aria-live="polite"\(wordsLanguage) data-one="\(XMLText.escape(words.oneParagraph))" data-many="\(XMLText.escape(words.paragraphs))" data-of="\(XMLText.escape(words.paragraphOf))"\(words.zeroIsSingular ? " data-zero-one" : "")></output></div>
            </header>
            <main id="transcript">
            \(body)</main>
            <script>
            \(script)
            </script>
            </body>
            </html>

            """
    }

    private static func seconds(_ time: MediaTime) -> String {
        let milliseconds = max(0, time.rounded(toTimescale: 1000))
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)" + (fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst()).replacing(/0+$/, with: ""))
    }

    /// One paragraph; a description of what is seen starts with the label `seen`.
    private static func paragraphHTML(_ paragraph: Transcript.Paragraph, timestamps: Bool, seen: String) -> String {
        let start = seconds(paragraph.start)
        var html = "<p data-start=\"\(start)\"\(paragraph.isDescription ? " class=\"seen\"" : "")>"
        if timestamps {
            html += "<a class=\"stamp\" href=\"#t=\(start)\" data-start=\"\(start)\"><time datetime=\"PT\(start)S\">\(Transcript.stamp(paragraph.start))</time></a> "
        }
        if paragraph.isDescription { html += seen }
        if let speaker = paragraph.speaker { html += "<cite>\(XMLText.escape(speaker))</cite> " }
        let pieces = paragraph.pieces.isEmpty ? [Transcript.Piece(start: paragraph.start, text: paragraph.text)] : paragraph.pieces
        // The time stamp is the paragraph's place in the tab order; without one, its first piece is.
        html += pieces.enumerated().map { index, piece in
            let at = seconds(piece.start)
            let focus = timestamps || index > 0 ? " tabindex=\"-1\"" : ""
            return "<a class=\"piece\" href=\"#t=\(at)\" data-start=\"\(at)\"\(focus)>\(XMLText.escape(piece.text))</a>"
        }.joined(separator: " ")
        return html + "</p>"
    }

    /// Seeking, following, search and `#t=` links, with no library.
    static let script = #"""
        (function () {
          "use strict";
          var player = document.getElementById("player");
          var paragraphs = Array.prototype.slice.call(document.querySelectorAll("main p[data-start]"));
          var starts = paragraphs.map(function (p) { return parseFloat(p.dataset.start); });
          var current = null;
          function parseTime(text) {
            if (!text) return null;
            var parts = text.split(":").map(Number);
            if (parts.some(isNaN)) return null;
            return parts.reduce(function (total, part) { return total * 60 + part; }, 0);
          }
          function paragraphAt(time) {
            var low = 0, high = starts.length - 1, found = -1;
            while (low <= high) {
              var middle = (low + high) >> 1;
              if (starts[middle] <= time + 0.001) { found = middle; low = middle + 1; } else { high = middle - 1; }
            }
            return found < 0 ? null : paragraphs[found];
          }
          function highlight(time, scroll) {
            var next = paragraphAt(time);
            if (next === current) return;
            if (current) current.removeAttribute("aria-current");
            current = next;
            if (!current) return;
            current.setAttribute("aria-current", "true");
            var follow = document.getElementById("follow");
            if (scroll && (!follow || follow.checked)) current.scrollIntoView({ block: "nearest" });
          }
          function seek(time) {
            if (player) {
              try { player.currentTime = time; } catch (error) {}
            }
            highlight(time, false);
            if (history.replaceState) history.replaceState(null, "", "#t=" + time);
          }
          document.getElementById("transcript").addEventListener("click", function (event) {
            var link = event.target.closest ? event.target.closest("a[data-start]") : null;
            if (!link) return;
            event.preventDefault();
            seek(parseFloat(link.dataset.start));
            if (link.classList.contains("stamp") && player) player.focus();
          });
          if (player) {
            player.addEventListener("timeupdate", function () { highlight(player.currentTime, !player.paused); });
            player.addEventListener("seeked", function () { highlight(player.currentTime, false); });
          }
          var initial = parseTime((location.hash.match(/^#t=([0-9:.]+)/) || [])[1]);
          if (initial !== null) {
            if (player) {
              var start = function () { try { player.currentTime = initial; } catch (error) {} };
              if (player.readyState >= 1) start(); else player.addEventListener("loadedmetadata", start, { once: true });
            }
            highlight(initial, true);
          }
          var find = document.getElementById("find"), found = document.getElementById("found");
          var matches = [], position = -1;
          function counted(count) {
            var one = count === 1 || (count === 0 && "zeroOne" in found.dataset);
            return (one ? found.dataset.one : found.dataset.many).replace("{n}", count);
          }
          find.addEventListener("input", function () {
            var query = find.value.trim().toLowerCase();
            matches = [];
            position = -1;
            paragraphs.forEach(function (p) {
              var hit = query.length > 0 && p.textContent.toLowerCase().indexOf(query) >= 0;
              p.classList.toggle("match", hit);
              if (hit) matches.push(p);
            });
            found.textContent = query.length === 0 ? "" : counted(matches.length);
          });
          find.addEventListener("keydown", function (event) {
            if (event.key !== "Enter" || matches.length === 0) return;
            event.preventDefault();
            position = (position + (event.shiftKey ? matches.length - 1 : 1)) % matches.length;
            var target = matches[position];
            target.scrollIntoView({ block: "center" });
            var link = target.querySelector("a[data-start]");
            if (link) link.focus();
            found.textContent = found.dataset.of.replace("{i}", position + 1).replace("{n}", matches.length);
          });
          window.captionsTranscript = { seek: seek, highlight: highlight, paragraphAt: paragraphAt };
        })();
        """#
}
