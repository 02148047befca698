extension UInt8 {
    /// The byte as two hexadecimal digits ("0a", or "0A" for `\xNN` and `%NN` escapes):
    /// content hashes, palette colours, escaped path bytes and control characters.
    public func hexDigits(uppercase: Bool = false) -> String {
        let digits = String(self, radix: 16, uppercase: uppercase)
        return self < 16 ? "0" + digits : digits
    }

    /// Whether the byte is one of the digits `hexDigits()` writes: 0-9 or a-f.
    var isLowercaseHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
