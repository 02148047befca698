extension UInt8 {
    /// The byte as two hexadecimal digits ("0a", or "0A" for `\xNN` and `%NN` escapes):
    /// content hashes, palette colours, escaped path bytes.
    func hexDigits(uppercase: Bool = false) -> String {
        let digits = String(self, radix: 16, uppercase: uppercase)
        return self < 16 ? "0" + digits : digits
    }
}
