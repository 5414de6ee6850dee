/// The tokens libFuzzer splices into inputs (`-dict=FILE`), per target: the syntax a mutation
/// would take long to find by chance. `CaptionsFuzz dict TARGET` prints them in libFuzzer's format.
extension FuzzTarget {
    /// The tokens for this target.
    public var dictionary: [String] {
        switch self {
        case .webvtt:
            return ["WEBVTT", "\n\n", "\r\n", " --> ", "00:00:01.000", "99:59:59.999", "NOTE", "STYLE", "REGION", "::cue",
                    "::cue(", "id:", "width:", "lines:", "regionanchor:", "viewportanchor:", "scroll:up", "vertical:rl",
                    "vertical:lr", "line:", "line:-1", "line:50%", "position:", "position:10%,line-left", "size:", "align:",
                    "align:start", "region:", "<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "<c.", "</c>", "<v ", "</v>",
                    "<lang ", "</lang>", "<ruby>", "<rt>", "</rt>", "</ruby>", "<00:00:02.000>", "&amp;", "&lt;", "&gt;",
                    "&nbsp;", "&lrm;", "&#x", "&#", "\u{FEFF}", "X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000"]
        case .srt:
            return ["1\n", "\n\n", "\r\n", " --> ", "00:00:01,000", "00:00:01.000", "99:59:59,999", "<i>", "</i>", "<b>", "</b>",
                    "<u>", "</u>", "<s>", "<font color=\"", "<font color=\"#ff0000\">", "</font>", "{\\an8}", "{\\an1}",
                    "{\\i1}", "{\\i0}", " X1:100 X2:200 Y1:10 Y2:20", "&amp;", "&lt;", "\u{FEFF}", "-"]
        case .ttml:
            return ["<tt xmlns=\"http://www.w3.org/ns/ttml\">", "</tt>", "<head>", "<body>", "<div>", "<p ", "</p>", "<span ",
                    "</span>", "<br/>", "<styling>", "<style ", "<layout>", "<region ", "<metadata>", "<set ", "xml:id=\"",
                    "xml:lang=\"", "xml:space=\"preserve\"", "begin=\"", "end=\"", "dur=\"", "timeContainer=\"seq\"",
                    "style=\"", "region=\"", "00:00:01.000", "00:00:01:12", "1.5s", "100ms", "2h", "10f", "30t",
                    "xmlns:tts=\"http://www.w3.org/ns/ttml#styling\"", "xmlns:ttp=\"http://www.w3.org/ns/ttml#parameter\"",
                    "xmlns:ttm=\"http://www.w3.org/ns/ttml#metadata\"", "ttp:timeBase=\"smpte\"", "ttp:frameRate=\"25\"",
                    "ttp:frameRateMultiplier=\"1000 1001\"", "ttp:tickRate=\"10000000\"", "ttp:subFrameRate=\"2\"",
                    "tts:color=\"", "tts:backgroundColor=\"", "tts:fontStyle=\"italic\"", "tts:fontWeight=\"bold\"",
                    "tts:textDecoration=\"underline\"", "tts:origin=\"", "tts:extent=\"", "tts:textAlign=\"",
                    "tts:displayAlign=\"after\"", "tts:display=\"none\"", "tts:writingMode=\"tbrl\"", "tts:ruby=\"",
                    "ttm:agent=\"", "<ttm:agent ", "<ttm:name ", "10% 90%", "#ff000080", "rgba(", "&amp;", "&#x",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!DOCTYPE", "<![CDATA["]
        case .scc:
            return ["Scenarist_SCC V1.0\n\n", "00:00:01:00\t", "00:00:01;00\t", " 9420", " 942c", " 942f", " 94ae", " 9425", " 9426",
                    " 9427", " 94ad", " 9429", " 9470", " 94d0", " 91ae", " 9120", " 91b0", " 92a1", " 1320", " 97a1", " 1c20", " 1520",
                    " 8080", " c8e9"]
        case .a53:
            // Triplets: field 1 (0xFC) and field 2 (0xFD) pairs with parity, padding, DTVCC (0xFE/0xFF).
            return ["\u{FC}\u{94}\u{20}", "\u{FC}\u{94}\u{2C}", "\u{FC}\u{94}\u{2F}", "\u{FC}\u{94}\u{AE}", "\u{FC}\u{94}\u{25}",
                    "\u{FC}\u{94}\u{26}", "\u{FC}\u{94}\u{29}", "\u{FC}\u{94}\u{70}", "\u{FC}\u{91}\u{AE}", "\u{FC}\u{97}\u{A1}",
                    "\u{FC}\u{C8}\u{E9}", "\u{FC}\u{80}\u{80}", "\u{FD}\u{15}\u{20}", "\u{FD}\u{15}\u{2F}", "\u{FD}\u{80}\u{80}",
                    "\u{FA}\u{00}\u{00}", "\u{FF}\u{02}\u{21}", "\u{FE}\u{41}\u{42}",
                    // CEA-708: a packet of 18 bytes with a 16-byte block of service 1, DefineWindow 0
                    // visible, DisplayWindows, DeleteWindows, CR, EXT1, SetPenAttributes, SetPenLocation.
                    "\u{FF}\u{09}\u{30}", "\u{FE}\u{98}\u{20}", "\u{FE}\u{89}\u{01}", "\u{FE}\u{8C}\u{01}",
                    "\u{FE}\u{0D}\u{48}", "\u{FE}\u{10}\u{31}", "\u{FE}\u{90}\u{00}", "\u{FE}\u{92}\u{01}"]
        case .stl:
            return ["850STL25.01", "850STL30.01", "1", "0", "00", "01", "\u{8A}", "\u{8F}", "\u{80}", "\u{81}", "\u{0D}\u{0B}\u{0B}",
                    "\u{0A}\u{0A}", "\u{C2}e", "\u{FF}", "\u{FE}", "00:00:01:00 , 00:00:02:00 , ", "//", "$FontSize = 28"]
        case .sami:
            return ["<SAMI>", "</SAMI>", "<HEAD>", "<STYLE TYPE=\"text/css\"><!--", "-->", "</STYLE>", ".ENUSCC { Name: English; lang: en-US; }",
                    "<BODY>", "<SYNC Start=", "<P Class=ENUSCC>", "<BR>", "<I>", "</I>", "<FONT color=\"#ff0000\">", "&nbsp;", "&amp;",
                    "<SPAN style=\"", "text-align:left", "<!--", "\""]
        case .ass:
            return ["[Script Info]\n", "ScriptType: v4.00+\n", "[V4+ Styles]\n", "[V4 Styles]\n", "Format: ", "Style: Default,Arial,20,",
                    "[Events]\n", "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,", "{\\i1}", "{\\i0}", "{\\an8}", "{\\pos(",
                    "{\\c&H0000FF&}", "\\N", "\\n", "\\h", "&H00FFFFFF"]
        case .sbv:
            return ["0:00:01.000,0:00:02.000\n", "\n\n", "[br]", "[INFORMATION]\n", "[TITLE]", "[END INFORMATION]\n"]
        case .microdvd:
            return ["{1}{1}25\n", "{0}{25}", "{25}{}", "|", "{y:i}", "{Y:b}", "{c:$0000FF}", "{f:Arial}", "/"]
        case .podcastJSON, .descriptionJSON:
            return ["{\"version\": \"1.0.0\", \"segments\": [", "\"segments\"", "\"speaker\"", "\"startTime\"", "\"endTime\"",
                    "\"body\"", "\"descriptions\"", "\"text\"", "\"start\"", "\"end\"", "\"00:01:05.5\"", "1e308", "-0",
                    "0.001", "360000.5", "null", "\\u0000", "\\ud800", "[{", "}]", "},{"]
        case .descriptionCSV:
            return ["start,end,text\n", "text\n", "00:00:05.000", "00:01:05.5", "\"\"", "\",\"", "\r\n", ";", "\t"]
        case .descriptionText:
            return ["\n\n", "[00:00:05]", "00:00:05.000 ", "00:01:05.5 --> 00:01:07 ", "\r\n", "# "]
        }
    }

    /// The dictionary in libFuzzer's format: one quoted token a line, with `\xNN` escapes.
    public var dictionaryFile: String {
        dictionary.map { token in
            "\"" + token.utf8.map { byte in
                switch byte {
                case 0x20..<0x7F where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"): String(UnicodeScalar(byte))
                default: "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }.joined() + "\"\n"
        }.joined()
    }
}
