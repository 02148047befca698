import StickerKit

extension String {
    /// The text with its control characters escaped, for a line people read: a file name
    /// holding a newline stays on its line, and one holding an escape sequence cannot
    /// recolour the terminal or move its cursor. Tab, newline and carriage return become
    /// `\t`, `\n` and `\r`, other controls (C0, DEL, C1) their UTF-8 bytes as `\xNN`, as
    /// `RawPath` writes bytes that are not UTF-8.
    var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case _ where scalar.isControl: escaped += String(scalar).utf8.map { "\\x" + $0.hexDigits(uppercase: true) }.joined()
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

private extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (Unicode's general category Cc).
    var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
