/// A media file that cannot be opened or has nothing to analyse.
public struct MediaError: Error, Sendable, CustomStringConvertible {
    /// A stable code such as `media.open` or `media.video.none`.
    public var code: String
    /// A sentence for people.
    public var message: String

    /// An error with a code and a message.
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"message [code]"`.
    public var description: String { "\(message) [\(code)]" }
}
