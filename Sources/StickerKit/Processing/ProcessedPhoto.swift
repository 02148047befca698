import FoundationEssentials

/// Everything `PhotoProcessor` makes of one photo.
public struct ProcessedPhoto: Sendable {
    public var sticker: Sticker
    public var colors: ColorScheme
    /// The sticker encoded as PNG, ready to write.
    public var png: Data
    public var timings: StageTimings
}
