import FoundationEssentials

/// Names one cached result: the SHA-256 of the input bytes combined with the options'
/// fingerprint (which includes the algorithm version).
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// Hex SHA-256 of "content-hash\noptions-fingerprint".
    public let hex: String

    public init(content: ContentHash, fingerprint: String) {
        hex = ContentHash(of: Data("\(content.hex)\n\(fingerprint)".utf8)).hex
    }

    public var description: String { hex }
}
