/// The outcome of a batch.
public struct BatchSummary: Sendable {
    /// Every finished input's record, in completion order.
    public var items: [ManifestItem] = []
    /// True when the batch stopped early because its task was cancelled.
    public var wasCancelled = false

    public var failedCount: Int { items.count { $0.status == .failed } }
    public var cachedCount: Int { items.count { $0.status == .cached } }
    public var computedCount: Int { items.count { $0.status == .ok } }
}
