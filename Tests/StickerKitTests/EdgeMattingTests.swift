import Foundation
@testable import StickerKit
import Testing

/// Edge matting beside a straight boundary between two flat colours, where the local
/// subject and background colours are exactly those two.
@Suite struct EdgeMattingTests {
    private static let (width, height) = (64, 32)

    /// The subject's colour left of column 32, the background's from there on.
    private func matting(subject: SIMD3<UInt8>, background: SIMD3<UInt8>) -> EdgeMatting {
        var colors: [UInt8] = [], hard: [UInt8] = []
        for _ in 0..<Self.height {
            for x in 0..<Self.width {
                let color = x < 32 ? subject : background
                colors += [color.x, color.y, color.z, 255]
                hard.append(x < 32 ? 1 : 0)
            }
        }
        return EdgeMatting(colors: colors, hard: hard, width: Self.width, height: Self.height, radius: 3, subsampling: 2)
    }

    @Test func aMixOfTheTwoColoursTakesItsShareAndLosesTheBackground() {
        let matting = matting(subject: [200, 50, 40], background: [220, 220, 220])
        #expect(matting.band[16 * Self.width + 32] && !matting.band[16 * Self.width + 8])
        let (alpha, color) = matting.refine(pixel: [210, 135, 130], alpha: 1, x: 32, y: 16)
        #expect(abs(alpha - 0.5) < 0.02)
        #expect(abs(color.x - 200) < 3 && abs(color.y - 50) < 3 && abs(color.z - 40) < 3, "\(color)")
    }

    /// A drawing's outline in a brighter shade of the background's hue is no mix of the
    /// two: its projection (about 0.14) would make it transparent.
    @Test func aColourOfNeitherSideKeepsItsAlpha() {
        let matting = matting(subject: [180, 220, 240], background: [35, 40, 130])
        let (alpha, _) = matting.refine(pixel: [30, 60, 235], alpha: 0.9, x: 31, y: 16)
        #expect(alpha > 0.85)
    }

    /// The background darkened to 0.7, as in a soft shadow beside the subject, is far from
    /// the line between the two colours but still explained, so it is matted down.
    @Test func theBackgroundInShadowIsMattedAway() {
        let matting = matting(subject: [200, 50, 40], background: [220, 220, 220])
        let (alpha, _) = matting.refine(pixel: [154, 154, 154], alpha: 0.8, x: 33, y: 16)
        #expect(alpha < 0.5)
    }
}
