/// An sRGB colour with alpha, 8 bits per channel.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red.
    public var red: UInt8
    /// Green.
    public var green: UInt8
    /// Blue.
    public var blue: UInt8
    /// Alpha; 255 is opaque.
    public var alpha: UInt8

    /// A colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque white: the colour text has in TTML and WebVTT when nothing sets one.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` (the `#` may be missing) or a CSS basic colour name.
    public init?(parsing text: String) {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        var bytes = Array(text.utf8.drop(while: isSpace))
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        if let named = Self.named[String(decoding: bytes, as: UTF8.self)] {
            self = named
            return
        }
        if bytes.first == UInt8(ascii: "#") { bytes.removeFirst() }
        var digits: [UInt8] = []
        for byte in bytes {
            switch byte {
            case 0x30...0x39: digits.append(byte - 0x30)
            case 0x61...0x66: digits.append(byte - 0x61 + 10)
            default: return nil
            }
        }
        switch digits.count {
        case 3: self.init(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        case 6, 8:
            let channels = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
            self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
        default: return nil
        }
    }

    /// The name of WebVTT's default colour class for this colour (`white`, `lime`, `cyan`, `red`,
    /// `yellow`, `magenta`, `blue`, `black`), when it is exactly one of them.
    public var webVTTClassName: String? {
        Self.webVTTClasses.first { $0.value == self }?.key
    }

    /// The colour a WebVTT default colour class stands for.
    public static func webVTTClass(_ name: String) -> RGBAColor? {
        webVTTClasses[name]
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        let channels = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + channels.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static let webVTTClasses: [String: RGBAColor] = [
        "white": RGBAColor(red: 255, green: 255, blue: 255), "lime": RGBAColor(red: 0, green: 255, blue: 0),
        "cyan": RGBAColor(red: 0, green: 255, blue: 255), "red": RGBAColor(red: 255, green: 0, blue: 0),
        "yellow": RGBAColor(red: 255, green: 255, blue: 0), "magenta": RGBAColor(red: 255, green: 0, blue: 255),
        "blue": RGBAColor(red: 0, green: 0, blue: 255), "black": RGBAColor(red: 0, green: 0, blue: 0),
    ]

    private static let named: [String: RGBAColor] = webVTTClasses.merging([
        "green": RGBAColor(red: 0, green: 128, blue: 0), "silver": RGBAColor(red: 192, green: 192, blue: 192),
        "gray": RGBAColor(red: 128, green: 128, blue: 128), "grey": RGBAColor(red: 128, green: 128, blue: 128),
        "maroon": RGBAColor(red: 128, green: 0, blue: 0), "purple": RGBAColor(red: 128, green: 0, blue: 128),
        "fuchsia": RGBAColor(red: 255, green: 0, blue: 255), "olive": RGBAColor(red: 128, green: 128, blue: 0),
        "navy": RGBAColor(red: 0, green: 0, blue: 128), "teal": RGBAColor(red: 0, green: 128, blue: 128),
        "aqua": RGBAColor(red: 0, green: 255, blue: 255), "orange": RGBAColor(red: 255, green: 165, blue: 0),
        "transparent": RGBAColor(red: 0, green: 0, blue: 0, alpha: 0),
    ]) { first, _ in first }
}
