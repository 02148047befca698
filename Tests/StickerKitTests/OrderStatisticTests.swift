@testable import StickerKit
import Testing

/// Selection against sorting: every rank of random lists, with and without repeated values,
/// and the clamping of ranks past either end.
@Suite struct OrderStatisticTests {
    @Test(arguments: [1, 2, 3, 7, 64, 1000])
    func everyRankMatchesSorting(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        for levels in [3, 1 << 20] {   // few distinct values (many ties), then nearly all distinct
            let values = (0..<count).map { _ in Float(generator.next() % UInt64(levels)) }
            let sorted = values.sorted()
            for k in 0..<count {
                #expect(OrderStatistic.kthSmallest(values, k) == sorted[k], "rank \(k) of \(count), \(levels) levels")
            }
        }
    }

    @Test func sortedAndReversedInputsAndClampedRanks() {
        let ascending = (0..<500).map(Float.init)
        #expect(OrderStatistic.kthSmallest(ascending, 450) == 450)
        #expect(OrderStatistic.kthSmallest(Array(ascending.reversed()), 450) == 450)
        #expect(OrderStatistic.kthSmallest([Float](repeating: 2, count: 100), 37) == 2)
        #expect(OrderStatistic.kthSmallest([5, -1, .infinity], 9) == .infinity)
        #expect(OrderStatistic.kthSmallest([5, -1, .infinity], -3) == -1)
    }
}
