extension UInt8 {
    /// The byte as two upper-case hexadecimal digits ("0A"), as `\xNN` and `%NN` escapes
    /// write it.
    var upperHexDigits: String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(self >> 4)], digits[Int(self & 15)]], as: UTF8.self)
    }
}
