/// Milliseconds spent in each stage of processing one photo. `decode` through `encode` are
/// measured when the result is computed (and kept in the cache); `decode` includes a JPEG's
/// crop decoded again, finer (`FinerCropSource`), which `sticker` leaves out; `segment` is the part of
/// `sticker` that found the subject at working size (0 when the photo's own alpha was
/// kept); `read`, `hash`, `render` (style, format, preset, card, mask, or
/// finding them in the cache; 0 for a plain sticker) and `write` are this run's.
public struct StageTimings: Sendable, Hashable, Codable {
    public var read: Double = 0
    public var hash: Double = 0
    public var decode: Double = 0
    public var sticker: Double = 0
    public var segment: Double = 0
    public var colors: Double = 0
    public var encode: Double = 0
    public var render: Double = 0
    public var write: Double = 0

    public init() {}

    /// Runs `body` and returns its result with the elapsed milliseconds.
    static func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (value, (clock.now - start).milliseconds)
    }
}

extension Duration {
    /// The duration in (fractional) milliseconds.
    public var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
