/// What a running batch reports, as it happens. Every input gets exactly one `started`
/// and then exactly one of `finished`, `cached` or `failed` (unless the batch is
/// cancelled first).
public enum PipelineEvent: Sendable {
    case started(BatchJob)
    case finished(ManifestItem)
    case cached(ManifestItem)
    case failed(ManifestItem)
}
