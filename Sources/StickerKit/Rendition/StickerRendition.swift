import FoundationEssentials

/// What is written for each sticker, made from its cached result at write time (so the
/// costly extraction is cached once, whatever the look, the format or the platform): the
/// style (outline, shadow), the file format, a platform preset's canvas, format and byte
/// limit, and a card.
public struct StickerRendition: Sendable, Hashable {
    public var style: StickerStyle
    /// The sticker file's format; a preset's own format takes its place.
    public var format: StickerFileFormat
    public var preset: StickerPreset?
    /// Also write `NAME.card.png` (`CardRenderer`).
    public var writesCard: Bool
    /// Make the preset's tray icon (`tray.png`, WhatsApp) from the batch's first input;
    /// a CI matrix leaves it to one shard.
    public var writesTrayIcon: Bool

    public init(style: StickerStyle = StickerStyle(), format: StickerFileFormat = .png, preset: StickerPreset? = nil,
                writesCard: Bool = false, writesTrayIcon: Bool = true) {
        self.style = style
        self.format = format
        self.preset = preset
        self.writesCard = writesCard
        self.writesTrayIcon = writesTrayIcon
    }

    /// Name of the tray icon in the output folder.
    public static let trayIconName = "tray.png"

    /// The sticker file's extension: the preset's format's, else `format`'s.
    public var fileExtension: String {
        guard let preset else { return format.fileExtension }
        return preset.format == .webp ? "webp" : "png"
    }

    /// The bytes to write for one result.
    public struct Files: Sendable {
        public var sticker: Data
        /// The sticker file's pixel size.
        public var width: Int
        public var height: Int
        public var card: Data?
        /// The set's tray icon, made from the first input only.
        public var trayIcon: Data?
    }

    /// The files for `result`; `isFirst` marks the batch's first input (its tray icon).
    public func render(_ result: CachedResult, isFirst: Bool = false) throws -> Files {
        guard !style.isPlain || format != .png || preset != nil || writesCard else {
            return Files(sticker: result.png, width: result.width, height: result.height)
        }
        let styled = StickerStylist.apply(style, to: try ImageDecoder.decode(result.png).image)
        let card = writesCard ? try PNGEncoder().encode(CardRenderer.render(styled, gradient: result.colors.gradient)) : nil
        if let preset {
            let (sticker, size) = try PresetRenderer.render(styled, preset: preset)
            let tray = isFirst && writesTrayIcon ? try PresetRenderer.trayIcon(styled, preset: preset) : nil
            return Files(sticker: sticker, width: size.width, height: size.height, card: card, trayIcon: tray)
        }
        let sticker = style.isPlain && format == .png ? result.png : try format.encode(styled)
        return Files(sticker: sticker, width: styled.width, height: styled.height, card: card)
    }
}
