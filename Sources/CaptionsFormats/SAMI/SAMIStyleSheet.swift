import CaptionsCore

/// The CSS of a SAMI file's `<STYLE>`: rules for simple selectors (`P`, `.ENUSCC`, `#Big`,
/// `P.ENUSCC`), and the classes that declare a language (`.ENUSCC { Name: English; lang: en-US; }`).
/// `<!--`, `-->` and `/* */` comments are skipped; selectors with combinators are ignored.
struct SAMIStyleSheet {
    /// A class that declares a language.
    struct Language {
        /// The class name, lower case (HTML matches SAMI's classes without case).
        var className: String
        /// The class name as the style sheet spells it.
        var spelling: String
        /// The `lang` value, such as `en-US`.
        var tag: String
        /// The `Name` value, such as `English`, when given.
        var name: String?
    }

    /// Declarations by selector (lower case), later rules overriding earlier ones.
    private(set) var rules: [String: [String: String]] = [:]
    /// The classes that declare a language, in the order they are declared.
    private(set) var languages: [Language] = []
    /// Where each class is in ``languages``.
    private var languageIndex: [String: Int] = [:]

    /// Adds the rules of one `<STYLE>` element.
    mutating func parse(_ css: String) {
        var text = Self.withoutComments(css)[...]
        while let open = text.firstIndex(of: "{") {
            let selectors = text[..<open]
            let close = text[open...].firstIndex(of: "}") ?? text.endIndex
            let block = text[text.index(after: open)..<close]
            text = close < text.endIndex ? text[text.index(after: close)...] : text[text.endIndex...]
            let declarations = Self.declarations(block)
            for selector in selectors.split(separator: ",") {
                let spelling = String(selector.trimmingHTMLSpaces)
                let name = spelling.lowercased()
                guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == ">" || $0 == "+" || $0 == "~" || $0 == "\t" || $0 == "\n" })
                else { continue }
                rules[name, default: [:]].merge(declarations) { _, new in new }
                // `.ENUSCC` or `P.ENUSCC` with a lang: a language.
                if let dot = spelling.firstIndex(of: "."), name.hasPrefix(".") || name.hasPrefix("p."),
                    let tag = rules[name]?["lang"], !tag.isEmpty
                {
                    let className = String(spelling[spelling.index(after: dot)...])
                    let language = Language(className: className.lowercased(), spelling: className, tag: tag, name: rules[name]?["name"])
                    if let index = languageIndex[language.className] {
                        languages[index] = language
                    } else {
                        languageIndex[language.className] = languages.count
                        languages.append(language)
                    }
                }
            }
        }
    }

    /// The declarations that apply to an element named `element` with `className` and `id`, from
    /// the least specific rule to the most.
    func declarations(element: String, className: String?, id: String?) -> [String: String] {
        var selectors = [element]
        if let className { selectors += ["." + className, element + "." + className] }
        if let id { selectors += ["#" + id, element + "#" + id] }
        var result: [String: String] = [:]
        for selector in selectors {
            if let rule = rules[selector] { result.merge(rule) { _, new in new } }
        }
        return result
    }

    /// `name: value; name: value`, names in lower case, values trimmed and unquoted. A declaration
    /// without a colon is skipped.
    static func declarations(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for declaration in text.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let name = declaration[..<colon].trimmingHTMLSpaces.lowercased()
            var value = declaration[declaration.index(after: colon)...].trimmingHTMLSpaces
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = value.dropFirst().dropLast()
            }
            if !name.isEmpty { result[name] = String(value) }
        }
        return result
    }

    /// `css` without `/* … */` comments and the `<!--`/`-->` that hide style sheets from old browsers.
    private static func withoutComments(_ css: String) -> String {
        var result = ""
        var rest = css[...]
        while let open = rest.firstRange(of: "/*") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "*/") else {
                rest = rest[rest.endIndex...]
                break
            }
            rest = rest[close.upperBound...]
        }
        result += rest
        return result.replacing("<!--", with: " ").replacing("-->", with: " ")
    }
}

extension StringProtocol {
    /// The text without HTML white space (space, tab, line feed, form feed, carriage return) at either end.
    var trimmingHTMLSpaces: SubSequence {
        let isSpace = { (character: Character) in
            character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n" || character == "\u{0C}"
        }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
