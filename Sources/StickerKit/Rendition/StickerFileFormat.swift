import FoundationEssentials

/// The file format plain stickers are written in (`--format`): PNG, or WebP, lossless or
/// lossy at a quality. A platform preset brings its own format instead.
///
/// WebP is encoded with libwebp's faster methods, measured on the bench's 1024-pixel
/// stickers of 12 MP photos (8 of them; the PNG writer's output 1.00x): lossless at method
/// 0, 0.78x the bytes (method 4, libwebp's default, saves 0.11x more for 450 ms); lossy at
/// method 2, 0.088x at quality 90 in 64 ms (method 4: the same size in 118 ms). Lossless
/// searches for matches at effort 25, not libwebp's 70: over the bench's 24 stickers 0.1%
/// more bytes (the dev set's and the samples' 0.7%, flat art up to 3.5%), and a sticker
/// made from its cached result in 35 ms instead of 75 (median, decoding included).
public enum StickerFileFormat: Sendable, Hashable, CustomStringConvertible {
    case png
    /// Lossless when `quality` is nil, else lossy at it (1-100; alpha stays lossless).
    case webp(quality: Int?)

    /// Parses `png`, `webp` (lossless) and `webp:Q` (lossy at quality Q, 1-100).
    public init?(_ text: String) {
        switch text {
        case "png": self = .png
        case "webp": self = .webp(quality: nil)
        default:
            guard text.hasPrefix("webp:"), let quality = Int(text.dropFirst("webp:".count)),
                  (1...100).contains(quality) else { return nil }
            self = .webp(quality: quality)
        }
    }

    /// The formats as `--format` takes them, for help and usage errors.
    public static let names = "png, webp (lossless), webp:Q (lossy, quality 1-100)"

    public var description: String {
        switch self {
        case .png: return "png"
        case .webp(let quality): return quality.map { "webp:\($0)" } ?? "webp"
        }
    }

    public var fileExtension: String { self == .png ? "png" : "webp" }

    /// The sticker in this format (PNG through `PNGEncoder`'s fast encoding).
    public func encode(_ image: RGBAImage) throws(CodecError) -> Data {
        switch self {
        case .png: return try PNGEncoder().encode(image)
        case .webp(nil): return try WebPEncoder(method: 0, losslessEffort: 25).encode(image)
        case .webp(let quality?): return try WebPEncoder(quality: quality, method: 2).encode(image)
        }
    }
}
