import Foundation

/// What is written for each sticker, made from its cached result at write time (so the
/// costly extraction is cached once, whatever the look or the platform): the style
/// (outline, shadow), a platform preset's canvas, format and byte limit, and a card.
public struct StickerRendition: Sendable, Hashable {
    public var style: StickerStyle
    public var preset: StickerPreset?
    /// Also write `NAME.card.png` (`CardRenderer`).
    public var writesCard: Bool

    public init(style: StickerStyle = StickerStyle(), preset: StickerPreset? = nil, writesCard: Bool = false) {
        self.style = style
        self.preset = preset
        self.writesCard = writesCard
    }

    /// The sticker file's extension: `webp` for a WebP preset, else `png`.
    public var fileExtension: String { preset?.format == .webp ? "webp" : "png" }

    /// The bytes to write for one result.
    public struct Files: Sendable {
        public var sticker: Data
        /// The sticker file's pixel size.
        public var width: Int
        public var height: Int
        public var card: Data?
    }

    public func render(_ result: CachedResult) throws -> Files {
        guard !style.isPlain || preset != nil || writesCard else {
            return Files(sticker: result.png, width: result.width, height: result.height)
        }
        let styled = StickerStylist.apply(style, to: try ImageDecoder.decode(result.png).image)
        let card = writesCard ? try PNGEncoder().encode(CardRenderer.render(styled, gradient: result.colors.gradient)) : nil
        if let preset {
            let (sticker, size) = try PresetRenderer.render(styled, preset: preset)
            return Files(sticker: sticker, width: size.width, height: size.height, card: card)
        }
        let sticker = style.isPlain ? result.png : try PNGEncoder().encode(styled)
        return Files(sticker: sticker, width: styled.width, height: styled.height, card: card)
    }
}
