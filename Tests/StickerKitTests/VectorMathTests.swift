import Foundation
@testable import StickerKit
import Testing

/// The eight-lane exp and log against Foundation's, over the ranges the colour model uses
/// and beyond; truncation, minimum and maximum against the standard library's.
@Suite struct VectorMathTests {
    /// `count` values spread over `range`, eight at a time.
    private func lanes(_ range: ClosedRange<Float>, count: Int) -> [SIMD8<Float>] {
        let values = (0..<count).map { range.lowerBound + (range.upperBound - range.lowerBound) * Float($0) / Float(count - 1) }
        return stride(from: 0, to: count, by: 8).map { start in
            SIMD8((0..<8).map { values[min(start + $0, count - 1)] })
        }
    }

    @Test func expHasFloatPrecision() {
        var worst: Float = 0
        for x in lanes(-87...88, count: 40_000) {
            let e = VectorMath.exp(x)
            for lane in 0..<8 {
                let exact = Foundation.exp(Double(x[lane]))
                worst = max(worst, Float(abs(Double(e[lane]) - exact) / exact))
            }
        }
        #expect(worst < 4e-7, "worst relative error \(worst)")
        #expect(VectorMath.exp(SIMD8(repeating: 0)) == SIMD8(repeating: 1))
    }

    @Test func logHasFloatPrecision() {
        var worst: Float = 0
        for x in lanes(1e-30...1e30, count: 4_000) + lanes(0.5...8, count: 40_000) {
            let l = VectorMath.log(x)
            for lane in 0..<8 {
                let exact = Foundation.log(Double(x[lane]))
                worst = max(worst, Float(abs(Double(l[lane]) - exact) / max(1, abs(exact))))
            }
        }
        #expect(worst < 4e-7, "worst error \(worst)")
        #expect(VectorMath.log(SIMD8(repeating: 1)) == SIMD8(repeating: 0))
    }

    /// Whole numbers, the floats just below and above them, and halves, up to 2^22.
    @Test func truncatedRoundsTowardZero() {
        var values: [Float] = [0, 0.25, 0.5, 0.75, 1, 799.999, 800, 4_194_303, 4_194_303.5]
        for whole in stride(from: Float(1), through: 4096, by: 1) {
            values += [whole.nextDown, whole, whole.nextUp, whole + 0.5]
        }
        for start in stride(from: 0, to: values.count, by: 8) {
            let lanes = SIMD8<Float>((0..<8).map { values[min(start + $0, values.count - 1)] })
            let truncated = VectorMath.truncated(lanes)
            for lane in 0..<8 { #expect(truncated[lane] == Int32(lanes[lane]), "\(lanes[lane])") }
        }
    }

    /// Against the standard library's, lane by lane, over mixed signs, ties and infinities.
    @Test func minimumAndMaximumPickTheRightLanes() {
        let values: [Float] = [-.infinity, -87, -1, -0.5, 0, 1e-6, 0.5, 1, 1.6, 255, .infinity]
        for a in values {
            for start in stride(from: 0, to: values.count, by: 8) {
                let left = SIMD8<Float>(repeating: a)
                let right = SIMD8<Float>((0..<8).map { values[min(start + $0, values.count - 1)] })
                #expect(VectorMath.minimum(left, right) == pointwiseMin(left, right))
                #expect(VectorMath.maximum(left, right) == pointwiseMax(left, right))
                #expect(VectorMath.minimum(right, left) == pointwiseMin(right, left))
                #expect(VectorMath.maximum(right, left) == pointwiseMax(right, left))
            }
        }
    }
}
