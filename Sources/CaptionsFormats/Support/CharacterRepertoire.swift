import CaptionsCore

/// A set of characters a target can show, for `captions check` (characters a delivery format or
/// device cannot display are a finding, not a surprise on air).
public struct CharacterRepertoire: Sendable {
    /// The repertoire's name as profiles write it.
    public let name: String
    private let accepts: @Sendable (Character) -> Bool

    /// The repertoires by name: `cea608` (the CEA-608 standard, special and extended characters),
    /// `printable` (any character but controls, private use, unassigned code points and U+FFFD,
    /// the mark of text decoded with the wrong encoding).
    public static func named(_ name: String) -> CharacterRepertoire? {
        switch name.lowercased() {
        case "cea608", "608": cea608
        case "printable", "any", "unicode": printable
        default: nil
        }
    }

    /// The names ``named(_:)`` knows.
    public static let names = ["cea608", "printable"]

    /// CEA-608's characters (line breaks aside).
    public static let cea608 = CharacterRepertoire(name: "cea608") { character in
        character == "\n" || CEA608Characters.encodings[character] != nil
    }

    /// Every character that shows as itself.
    public static let printable = CharacterRepertoire(name: "printable") { character in
        if character == "\n" { return true }
        return character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control: scalar == "\t"
            case .privateUse, .unassigned, .surrogate: false
            default: scalar != "\u{FFFD}"
            }
        }
    }

    /// Whether the target shows `character`.
    public func contains(_ character: Character) -> Bool { accepts(character) }
}
