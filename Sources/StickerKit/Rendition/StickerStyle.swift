/// How a sticker is dressed before it is written: a die-cut outline, a drop shadow.
public struct StickerStyle: Sendable, Hashable, Codable {
    /// Outline width in output pixels; 0 for none.
    public var outline: Int
    /// Outline colour, opaque RGB.
    public var outlineColor: [UInt8]
    /// A soft drop shadow under the sticker (and its outline).
    public var shadow: Bool

    public init(outline: Int = 0, outlineColor: [UInt8] = [255, 255, 255], shadow: Bool = false) {
        self.outline = outline
        self.outlineColor = outlineColor
        self.shadow = shadow
    }

    public var isPlain: Bool { outline == 0 && !shadow }
}
