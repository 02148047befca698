/// Every option that changes what `PhotoProcessor` produces for a photo.
public struct ProcessingOptions: Sendable, Hashable, Codable {
    public var sticker: StickerOptions
    /// Palette size.
    public var colorCount: Int
    /// Pixel budget checked from the header before decoding.
    public var maxPixels: Int

    /// Bumped whenever an algorithm change alters outputs, so old cache entries miss (55: the
    /// refinement's cuts weigh the subject prior's guess where it is the fill network's; 54: a
    /// secondary subject region the prior doubts is dropped when it comes within an eighth
    /// of the long side of the frame, not only when it touches it; 53: no local background
    /// weights in the refinement where the subject prior's guess is the fill network's; 52:
    /// the subject prior's fill network is also trusted below its gate when it sees a
    /// subject at least 0.4 of the picture and twice what the other network sees; 51: when
    /// only the prior's guess finds a subject, the ranker picks between the rounds from it
    /// and the guess itself; 50: a JPEG shrinks on load no further than the segmentation's
    /// sizes, so `maxSize` under 480 no longer shrinks the picture the subject is found in;
    /// every default result is version 49's, byte for byte; 49: a JPEG shrunk on load below
    /// its subject's sticker size has its crop decoded again, finer, and no sticker is a
    /// pixel or two over `maxSize`; 48: each result carries its confidence,
    /// `Sticker.confidence`; 47: grey photos through their grey profile, CMYK TIFFs through
    /// their press profile, PNGs through their gAMA and cHRM, a turned TIFF's crop and
    /// scale in upright coordinates; 46: a CMYK JPEG's inks are converted through its
    /// embedded press profile; 45: photos with a colour profile are converted to sRGB when
    /// decoded; every other photo's results are version 44's, byte for byte).
    public static let algorithmVersion = 55

    public init(sticker: StickerOptions = StickerOptions(), colorCount: Int = 5,
                maxPixels: Int = DecodeOptions.defaultMaxPixels) {
        self.sticker = sticker
        self.colorCount = colorCount
        self.maxPixels = maxPixels
    }

    /// A stable text naming the algorithm version and every output-changing option; part
    /// of every cache key, so changing an option never serves a stale sticker. An option
    /// added later is named only when it is not its default, so the keys of results made
    /// before it existed stay valid.
    public var fingerprint: String {
        let maxSize = sticker.maxSize.map(String.init) ?? "original"
        return "v\(ProcessingOptions.algorithmVersion);max-size=\(maxSize);margin=\(sticker.margin);"
            + "working=\(sticker.workingSize);refinement=\(sticker.refinementSize);colors=\(colorCount)"
            + (sticker.cropsToSubject ? "" : ";crop=none")
    }
}
