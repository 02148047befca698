/// The outcome of a batch: how many inputs ended each way. The records themselves are
/// reported as events (and kept on disk by `ManifestWriter`), never held for the whole
/// batch, so memory does not grow with the number of inputs.
public struct BatchSummary: Sendable {
    public var computedCount = 0
    public var cachedCount = 0
    public var failedCount = 0
    /// True when the batch stopped early because its task was cancelled.
    public var wasCancelled = false

    public var finishedCount: Int { computedCount + cachedCount + failedCount }

    mutating func count(_ item: ManifestItem) {
        switch item.status {
        case .ok: computedCount += 1
        case .cached: cachedCount += 1
        case .failed: failedCount += 1
        }
    }
}
