/// What a file holds when it is not captions, told by its first bytes (the "magic numbers" the
/// `file` command goes by): media that FFmpeg reads, whose captions are read through it, or a
/// document or picture that no caption reader should be given.
///
/// Only signatures that no caption text can start with are taken: a caption format starts with
/// text, and UTF-16 text starts with a byte order mark (`FF FE`, `FE FF`) or a character whose
/// other byte is zero, none of which is listed here.
public enum ForeignContent: Equatable, Sendable {
    /// Audio or video in a container FFmpeg reads: its name, such as "an MPEG program stream".
    case media(String)
    /// A document or a picture: its name, and what to do instead.
    case document(String, advice: String)

    /// What `head` (the first bytes of a file; 512 are enough) is, when it is not text.
    public static func identify(_ head: some Collection<UInt8>) -> ForeignContent? {
        let bytes = Array(head.prefix(512))
        func at(_ offset: Int, _ signature: [UInt8]) -> Bool {
            bytes.count >= offset + signature.count && bytes[offset..<offset + signature.count].elementsEqual(signature)
        }
        func at(_ offset: Int, _ text: String) -> Bool { at(offset, Array(text.utf8)) }
        if let name = media.first(where: { $0.matches(at) })?.name { return .media(name) }
        if isTransportStream(bytes) { return .media("an MPEG transport stream") }
        let plainText = "save it as plain text (such as .srt, .vtt or .txt) and convert that"
        if at(0, "{\\rtf") { return .document("an RTF document (a word processor's file)", advice: plainText) }
        if at(0, [0x50, 0x4B, 0x03, 0x04]) {
            return .document("a ZIP archive (a Word .docx or Excel .xlsx file is one)", advice: plainText)
        }
        if at(0, [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return .document("a Microsoft Office document of the old kind (.doc, .xls)", advice: plainText)
        }
        if at(0, "%PDF-") { return .document("a PDF document", advice: "copy its text into a plain-text file and convert that") }
        let pictures: [(name: String, signature: [UInt8])] = [
            ("a PNG picture", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            ("a JPEG picture", [0xFF, 0xD8, 0xFF]),
            ("a GIF picture", Array("GIF8".utf8)),
        ]
        if let picture = pictures.first(where: { at(0, $0.signature) }) {
            return .document(
                picture.name, advice: "captions drawn as pictures (DVD, Blu-ray, DVB subtitles) are not read; "
                    + "`captions flashes` scans animated pictures")
        }
        return nil
    }

    /// A container's signature: bytes at an offset, and another that must be there too.
    private struct Signature {
        let name: String
        let offset: Int
        let bytes: [UInt8]
        var also: (offset: Int, bytes: [UInt8])?

        init(_ name: String, at offset: Int = 0, _ bytes: [UInt8], also: (Int, String)? = nil) {
            self.name = name
            self.offset = offset
            self.bytes = bytes
            self.also = also.map { ($0.0, Array($0.1.utf8)) }
        }

        init(_ name: String, at offset: Int = 0, _ text: String, also: (Int, String)? = nil) {
            self.init(name, at: offset, Array(text.utf8), also: also)
        }

        func matches(_ at: (Int, [UInt8]) -> Bool) -> Bool {
            at(offset, bytes) && (also.map { at($0.offset, $0.bytes) } ?? true)
        }
    }

    /// The containers of audio and video, as FFmpeg's probes know them.
    private static let media: [Signature] = [
        Signature("a Matroska or WebM file", [0x1A, 0x45, 0xDF, 0xA3]),
        Signature("an MP4 or QuickTime file", at: 4, "ftyp"),
        Signature("a QuickTime file", at: 4, "moov"),
        Signature("a QuickTime file", at: 4, "mdat"),
        Signature("a QuickTime file", at: 4, "wide"),
        Signature("an MPEG program stream", [0x00, 0x00, 0x01, 0xBA]),
        Signature("an MXF file", [0x06, 0x0E, 0x2B, 0x34, 0x02, 0x05, 0x01, 0x01]),
        Signature("an AVI file", "RIFF", also: (8, "AVI ")),
        Signature("a WAV file", "RIFF", also: (8, "WAVE")),
        Signature("an AIFF file", "FORM", also: (8, "AIFF")),
        Signature("a Windows Media (ASF) file", [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]),
        Signature("a Flash video (FLV) file", "FLV\u{01}"),
        Signature("an Ogg file", "OggS"),
        Signature("a FLAC file", "fLaC"),
        Signature("an MP3 file", "ID3"),
        Signature("an MP3 file", [0xFF, 0xFB]),
        Signature("an MP3 file", [0xFF, 0xF3]),
        Signature("an AAC (ADTS) file", [0xFF, 0xF1]),
        Signature("an AAC (ADTS) file", [0xFF, 0xF9]),
        Signature("a Core Audio file", "caff"),
        Signature("a NUT file", "nut/multimedia container"),
    ]

    /// MPEG-TS (188-byte packets) or Blu-ray's M2TS (192, a 4-byte time code first): a sync byte
    /// (`G`) at the start of three packets in a row, among bytes that are not text (packet headers
    /// and tables hold control codes; a text of `G`s does not).
    private static func isTransportStream(_ bytes: [UInt8]) -> Bool {
        let synced = [(0, 188), (4, 192)].contains { start, size in
            (0..<3).allSatisfy { start + $0 * size < bytes.count && bytes[start + $0 * size] == 0x47 }
        }
        return synced && bytes.contains { $0 < 0x09 || (0x0E...0x1F).contains($0) }
    }
}
