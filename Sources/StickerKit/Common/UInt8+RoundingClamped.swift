extension UInt8 {
    /// `value` clamped to 0...255 and rounded half away from zero: what
    /// `UInt8(min(255, max(0, value.rounded())))` gives (0 for NaN), without its call to
    /// libm's `roundf` (a sixth of styling a sticker, a seventh of making its card). The
    /// clamped value's whole part is its truncation, and its fraction is exact.
    @inline(__always)
    init(roundingClamped value: Float) {
        let clamped = Swift.min(255, Swift.max(0, value))
        let whole = Int(clamped)
        self = UInt8(clamped - Float(whole) >= 0.5 ? whole + 1 : whole)
    }
}
