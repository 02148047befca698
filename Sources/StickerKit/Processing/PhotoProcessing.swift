import FoundationEssentials

/// Something that turns a photo's bytes into a processed photo: `PhotoProcessor`, or a
/// wrapper around it (tests count calls and concurrency through one).
public protocol PhotoProcessing: Sendable {
    /// Names every option that changes the output; part of the cache key.
    var fingerprint: String { get }
    func process(_ data: Data) async throws -> ProcessedPhoto
}

extension PhotoProcessor: PhotoProcessing {
    public var fingerprint: String { options.fingerprint }
}
