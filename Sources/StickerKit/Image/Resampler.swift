/// Separable resampling of interleaved 8-bit or float planes over a source rectangle.
///
///     let small = Resampler.resize(image, to: (64, 48))
enum Resampler {
    /// A rectangle in source pixels (may be fractional, may reach past the edges).
    struct Region: Sendable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Resamples `channels`-interleaved samples of `region` to `width` x `height` floats.
    static func resample<Sample: ResampleSample>(_ source: UnsafeBufferPointer<Sample>, width sourceWidth: Int, height sourceHeight: Int,
                         channels: Int, region: Region, width: Int, height: Int) -> [Float] {
        let horizontal = ResampleWeights(sourceLength: sourceWidth, start: region.x, span: region.width, count: width)
        let vertical = ResampleWeights(sourceLength: sourceHeight, start: region.y, span: region.height, count: height)
        var output = [Float](repeating: 0, count: width * height * channels)
        var row = [Float](repeating: 0, count: width * channels)
        output.withUnsafeMutableBufferPointer { out in
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<height {
                    for index in 0..<row.count { row[index] = 0 }
                    for tap in Int(vertical.offsets[y])..<Int(vertical.offsets[y + 1]) {
                        let sourceRow = Int(vertical.indices[tap]) * sourceWidth * channels
                        let weight = vertical.weights[tap]
                        accumulateRow(source, sourceRow, horizontal, channels, weight, row)
                    }
                    let base = y * width * channels
                    for index in 0..<row.count { out[base + index] = row[index] }
                }
            }
        }
        return output
    }

    /// Adds `weight` times the horizontally resampled source row starting at `rowStart`.
    private static func accumulateRow<Sample: ResampleSample>(_ source: UnsafeBufferPointer<Sample>, _ rowStart: Int,
                                      _ horizontal: ResampleWeights, _ channels: Int, _ weight: Float,
                                      _ row: UnsafeMutableBufferPointer<Float>) {
        horizontal.indices.withUnsafeBufferPointer { indices in
            horizontal.weights.withUnsafeBufferPointer { weights in
                horizontal.offsets.withUnsafeBufferPointer { offsets in
                    for x in 0..<(offsets.count - 1) {
                        for tap in Int(offsets[x])..<Int(offsets[x + 1]) {
                            let w = weights[tap] * weight
                            let s = rowStart + Int(indices[tap]) * channels
                            for c in 0..<channels { row[x * channels + c] += w * source[s + c].sampleValue }
                        }
                    }
                }
            }
        }
    }
}

/// A sample type the resampler reads: 8-bit image bytes or float planes.
protocol ResampleSample {
    var sampleValue: Float { get }
}

extension UInt8: ResampleSample {
    var sampleValue: Float { Float(self) }
}

extension Float: ResampleSample {
    var sampleValue: Float { self }
}
