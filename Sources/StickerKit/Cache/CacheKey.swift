import FoundationEssentials

/// Names one cached result: the SHA-256 of the input bytes combined with the options'
/// fingerprint (which includes the algorithm version); or the files a rendition made from
/// one (`init(rendering:as:)`).
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// Hex SHA-256 of "content-hash\noptions-fingerprint" (or "result-key\nrendition-fingerprint").
    public let hex: String

    public init(content: ContentHash, fingerprint: String) {
        hex = ContentHash(of: Data("\(content.hex)\n\(fingerprint)".utf8)).hex
    }

    /// The key of the files the rendition with `fingerprint` (`StickerRendition.fingerprint`)
    /// makes from the result under `result`.
    public init(rendering result: CacheKey, as fingerprint: String) {
        hex = ContentHash(of: Data("\(result.hex)\n\(fingerprint)".utf8)).hex
    }

    public var description: String { hex }
}
