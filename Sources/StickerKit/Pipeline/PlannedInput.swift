/// What a run would do with one input (`--list`): its output and whether the cache
/// already holds its result.
public struct PlannedInput: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// Would be computed.
        case new
        /// Would be served from the cache.
        case cached
        /// Cannot be read; a run would fail it.
        case failed
    }

    public var index: Int
    public var source: String
    public var output: String
    public var status: Status
    public var sha256: String?
    public var error: String?
    /// What kind of failure, when `failed` (`ManifestItem.failure`).
    public var failure: FailureKind?
}
