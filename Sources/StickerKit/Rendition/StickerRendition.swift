import FoundationEssentials

/// What is written for each sticker, made from its cached result at write time (so the
/// costly extraction is cached once, whatever the look, the format or the platform): the
/// style (outline, shadow), the file format, a platform preset's canvas, format and byte
/// limit, and a card. What it makes is cached too, under the result's key and
/// `fingerprint` (`ResultCache.renderedFiles`), since making it can cost more than a warm
/// rerun's everything else (a WhatsApp preset's search for a quality under the byte
/// limit, hundreds of milliseconds a sticker).
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

    /// The version of what `render` makes from a result: bump it when a renderer or an
    /// encoder it uses changes its output, so cached renditions are made again.
    static let version = 2

    /// The sticker file's extension: the preset's format's, else `format`'s.
    public var fileExtension: String {
        guard let preset else { return format.fileExtension }
        return preset.format == .webp ? "webp" : "png"
    }

    /// Names everything that decides the files `render` makes, for the cache; nil when it
    /// makes nothing (the sticker is the result's PNG as it is).
    public var fingerprint: String? {
        guard !style.isPlain || format != .png || preset != nil || writesCard else { return nil }
        let color = style.outlineColor.map { $0.hexDigits() }.joined()
        return "rendition \(Self.version);outline=\(style.outline),\(color);shadow=\(style.shadow);format=\(format);"
            + "preset=\(preset?.description ?? "none");card=\(writesCard)"
    }

    /// The bytes to write for one result.
    public struct Files: Sendable, Equatable {
        public var sticker: Data
        /// The sticker file's pixel size.
        public var width: Int
        public var height: Int
        public var card: Data?
    }

    /// The files for `result`.
    public func render(_ result: CachedResult) throws -> Files {
        guard fingerprint != nil else { return Files(sticker: result.png, width: result.width, height: result.height) }
        let styled = StickerStylist.apply(style, to: try ImageDecoder.decode(result.png).image)
        let card = writesCard ? try PNGEncoder().encode(CardRenderer.render(styled, gradient: result.colors.gradient)) : nil
        if let preset {
            let (file, size) = try PresetRenderer.render(styled, preset: preset)
            return Files(sticker: file, width: size.width, height: size.height, card: card)
        }
        let file = style.isPlain && format == .png ? result.png : try format.encode(styled)
        return Files(sticker: file, width: styled.width, height: styled.height, card: card)
    }

    /// The preset's tray icon made from `result`, or nil when the preset has none or this
    /// run leaves it to another shard. Made for the batch's first input only, so not cached.
    public func trayIcon(for result: CachedResult) throws -> Data? {
        guard writesTrayIcon, let preset, preset.trayIcon != nil else { return nil }
        return try PresetRenderer.trayIcon(StickerStylist.apply(style, to: try ImageDecoder.decode(result.png).image),
                                           preset: preset)
    }
}
