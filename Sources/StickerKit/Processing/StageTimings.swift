/// Milliseconds spent in each stage of processing one photo.
public struct StageTimings: Sendable, Hashable, Codable {
    public var decode: Double = 0
    public var sticker: Double = 0
    public var colors: Double = 0
    public var encode: Double = 0

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
