/// How a command says which of a file's streams of one kind it used and which it left aside
/// (`media.video.others`, `media.audio.others`).
public enum StreamChoice {
    /// `the file holds 3 video streams: stream 0 was scanned, streams 1, 2 not`.
    public static func othersMessage(kind: String, chosen: Int, others: [Int], used: String) -> String {
        "the file holds \(others.count + 1) \(kind) streams: stream \(chosen) was \(used), "
            + "stream\(others.count == 1 ? "" : "s") \(others.map(String.init).joined(separator: ", ")) not"
    }
}
