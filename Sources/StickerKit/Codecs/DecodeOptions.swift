/// How `ImageDecoder` decodes: the pixel budget, shrink-on-load and orientation.
public struct DecodeOptions: Sendable, Hashable {
    /// Files whose header claims more pixels are refused before allocation.
    public var maxPixels: Int
    /// When set, a JPEG is shrunk on load by 1/2, 1/4 or 1/8 (DCT scaling) as far as the
    /// long side stays at or above this many pixels. PNG is always decoded at full size.
    public var minimumLongSide: Int?
    /// Apply the EXIF orientation so every later stage sees the image upright.
    public var appliesOrientation: Bool
    /// The shared library HEIC/HEIF is decoded with, loaded on first use.
    public var heifLibrary = "libheif.so.1"
    /// The shared library JPEG XL is decoded with, loaded on first use (the version whose
    /// header the build used).
    public var jxlLibrary = "libjxl.so.0.7"

    public static let defaultMaxPixels = 100_000_000

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, minimumLongSide: Int? = nil,
                appliesOrientation: Bool = true) {
        self.maxPixels = maxPixels
        self.minimumLongSide = minimumLongSide
        self.appliesOrientation = appliesOrientation
    }
}
