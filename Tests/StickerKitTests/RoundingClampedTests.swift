@testable import StickerKit
import Testing

@Suite struct RoundingClampedTests {
    /// `UInt8(roundingClamped:)` is `UInt8(min(255, max(0, value.rounded())))`, ties and ends included.
    @Test func roundingClampedRoundsHalfAwayFromZeroAndClamps() {
        var values: [Float] = [-3, -0.5, -0.0001, 0, 0.49999997, 0.5, 1.5, 2.5, 127.5, 254.49998, 254.5, 255, 300, .nan]
        var generator = SplitMix64(seed: 3)
        values += (0..<10_000).map { _ in Float(generator.next() % 2_700_000) / 10_000 - 5 }
        for value in values {
            let expected = value.isNaN ? 0 : UInt8(min(255, max(0, value.rounded())))
            #expect(UInt8(roundingClamped: value) == expected, "\(value)")
        }
    }
}
