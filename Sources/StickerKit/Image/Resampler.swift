/// Separable resampling of interleaved 8-bit or float planes over a source rectangle.
///
///     let small = Resampler.resize(image, to: (64, 48))
enum Resampler {
    /// A rectangle in source pixels (may be fractional, may reach past the edges).
    struct Region: Sendable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Resamples `channels`-interleaved samples of `region` to `width` x `height` floats.
    ///
    /// Vertical pass first, over contiguous runs of the source rows the region touches
    /// (which the compiler vectorises), then a short horizontal pass per output row.
    static func resample<Sample: ResampleSample>(_ source: UnsafeBufferPointer<Sample>, width sourceWidth: Int, height sourceHeight: Int,
                         channels: Int, region: Region, width: Int, height: Int) -> [Float] {
        let horizontal = ResampleWeights(sourceLength: sourceWidth, start: region.x, span: region.width, count: width)
        let vertical = ResampleWeights(sourceLength: sourceHeight, start: region.y, span: region.height, count: height)
        let firstColumn = Int(horizontal.indices.min() ?? 0), lastColumn = Int(horizontal.indices.max() ?? 0)
        let rowLength = (lastColumn - firstColumn + 1) * channels
        var output = [Float](repeating: 0, count: width * height * channels)
        var row = [Float](repeating: 0, count: rowLength)
        output.withUnsafeMutableBufferPointer { out in
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<height {
                    row.update(repeating: 0)
                    for tap in Int(vertical.offsets[y])..<Int(vertical.offsets[y + 1]) {
                        let start = (Int(vertical.indices[tap]) * sourceWidth + firstColumn) * channels
                        let weight = vertical.weights[tap]
                        for i in 0..<rowLength { row[i] += weight * source[start + i].sampleValue }
                    }
                    horizontalPass(UnsafeBufferPointer(row), horizontal, firstColumn: firstColumn, channels: channels,
                                   into: out, at: y * width * channels)
                }
            }
        }
        return output
    }

    /// Resamples one vertically filtered row into `out` starting at `base`.
    private static func horizontalPass(_ row: UnsafeBufferPointer<Float>, _ horizontal: ResampleWeights, firstColumn: Int,
                                       channels: Int, into out: UnsafeMutableBufferPointer<Float>, at base: Int) {
        horizontal.indices.withUnsafeBufferPointer { indices in
            horizontal.weights.withUnsafeBufferPointer { weights in
                horizontal.offsets.withUnsafeBufferPointer { offsets in
                    for x in 0..<(offsets.count - 1) {
                        let target = base + x * channels
                        for tap in Int(offsets[x])..<Int(offsets[x + 1]) {
                            let w = weights[tap]
                            let s = (Int(indices[tap]) - firstColumn) * channels
                            for c in 0..<channels { out[target + c] += w * row[s + c] }
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

extension Resampler {
    /// A whole single-channel plane at another size (area average down, linear up).
    static func scalePlane(_ plane: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [Float] {
        if width == toWidth && height == toHeight { return plane }
        let region = Region(x: 0, y: 0, width: Double(width), height: Double(height))
        return plane.withUnsafeBufferPointer {
            resample($0, width: width, height: height, channels: 1, region: region, width: toWidth, height: toHeight)
        }
    }
}
