@testable import CaptionsFormats
import Foundation
import Testing

/// The transcript page's colours meet WCAG AA (4.5:1) for every text on every background, in
/// the light and the dark theme.
struct TranscriptPageContrastTests {
    /// WCAG's relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        func linear(_ byte: Int) -> Double {
            let sRGB = Double(byte) / 255
            return sRGB <= 0.04045 ? sRGB / 12.92 : pow((sRGB + 0.055) / 1.055, 2.4)
        }
        let red: Double = linear(value >> 16 & 0xFF), green: Double = linear(value >> 8 & 0xFF), blue: Double = linear(value & 0xFF)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func theContrastMeasureIsWCAGs() {
        #expect(abs(Self.contrast("#000000", "#ffffff") - 21) < 1e-9)
        #expect(abs(Self.contrast("#767676", "#ffffff") - 4.54) < 0.01)
    }

    @Test(arguments: [false, true])
    func everyTextMeetsAA(dark: Bool) {
        let colour = { (name: String) in TranscriptPage.colours.first { $0.name == name }.map { dark ? $0.dark : $0.light } ?? "" }
        for text in ["fg", "muted", "link", "seen"] {
            for background in ["bg", "current-bg", "match-bg"] {
                let ratio = Self.contrast(colour(text), colour(background))
                #expect(ratio >= 4.5, "\(text) on \(background) (\(dark ? "dark" : "light")): \(ratio)")
            }
        }
    }
}
