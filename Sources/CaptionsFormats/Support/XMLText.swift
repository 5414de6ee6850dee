/// Escaping for XML and HTML text and attribute values.
enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped.
    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
