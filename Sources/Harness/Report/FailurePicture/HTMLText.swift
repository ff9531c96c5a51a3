/// Text made safe to put in an HTML page, in element content and in quoted attribute values.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, so that no
    /// user string (a scenario's name, a message) can open a tag, end an attribute or start
    /// a script.
    static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
