/// Separable resampling of interleaved 8-bit or float planes over a source rectangle.
///
///     let floats = image.pixels.withUnsafeBufferPointer {
///         Resampler.resample($0, width: image.width, height: image.height, channels: 4,
///                            region: Resampler.Region(x: 0, y: 0, width: 640, height: 480), width: 64, height: 48)
///     }
enum Resampler {
    /// A rectangle in source pixels (may be fractional, may reach past the edges).
    struct Region: Sendable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Resamples `channels`-interleaved samples of `region` to `width` x `height` floats.
    static func resample<Sample: ResampleSample>(_ source: UnsafeBufferPointer<Sample>, width sourceWidth: Int, height sourceHeight: Int,
                         channels: Int, region: Region, width: Int, height: Int) -> [Float] {
        resample(source, width: sourceWidth, height: sourceHeight, channels: channels, region: region,
                 width: width, height: height, as: Float.self)
    }

    /// Resamples `channels`-interleaved samples of `region` to `width` x `height` samples
    /// of type `Output` (floats, or bytes rounded and clamped to 0-255).
    ///
    /// Vertical pass first, over contiguous runs of the source rows the region touches
    /// (eight samples at a time), then a short horizontal pass per output row.
    static func resample<Sample: ResampleSample, Output: ResampleOutput>(
        _ source: UnsafeBufferPointer<Sample>, width sourceWidth: Int, height sourceHeight: Int,
        channels: Int, region: Region, width: Int, height: Int, as _: Output.Type
    ) -> [Output] {
        [Output](unsafeUninitializedCapacity: width * height * channels) { output, initialized in
            resample(source, width: sourceWidth, height: sourceHeight, channels: channels, region: region,
                     width: width, height: height, into: output)
            initialized = width * height * channels
        }
    }

    /// The same into `out`, which holds `width` x `height` x `channels` samples: every one
    /// of them is written, so it may start uninitialised.
    static func resample<Sample: ResampleSample, Output: ResampleOutput>(
        _ source: UnsafeBufferPointer<Sample>, width sourceWidth: Int, height sourceHeight: Int,
        channels: Int, region: Region, width: Int, height: Int, into out: UnsafeMutableBufferPointer<Output>
    ) {
        let horizontal = ResampleWeights(sourceLength: sourceWidth, start: region.x, span: region.width, count: width)
        let vertical = ResampleWeights(sourceLength: sourceHeight, start: region.y, span: region.height, count: height)
        let firstColumn = Int(horizontal.indices.min() ?? 0), lastColumn = Int(horizontal.indices.max() ?? 0)
        let rowLength = (lastColumn - firstColumn + 1) * channels
        // Where each vertical tap's source run starts.
        let starts = vertical.indices.map { (Int($0) * sourceWidth + firstColumn) * channels }
        precondition(out.count >= width * height * channels)
        var row = [Float](repeating: 0, count: rowLength)
        row.withUnsafeMutableBufferPointer { row in
            starts.withUnsafeBufferPointer { starts in
                vertical.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        let taps = Int(vertical.offsets[y])..<Int(vertical.offsets[y + 1])
                        filterRows(source, starts: UnsafeBufferPointer(rebasing: starts[taps]),
                                   weights: UnsafeBufferPointer(rebasing: weights[taps]), into: row, count: rowLength)
                        horizontalPass(UnsafeBufferPointer(row), horizontal, firstColumn: firstColumn, channels: channels,
                                       into: out, at: y * width * channels)
                    }
                }
            }
        }
    }

    /// row[i] = the sum over taps t, in order, of weights[t] x source[starts[t] + i], for
    /// i < count, thirty-two samples at a time: each run is summed in registers and stored
    /// once, not loaded and stored again per tap, and its four quarters' sums do not wait on
    /// each other (same sums, same order; with two, each addition waited on the last).
    @inline(__always)
    private static func filterRows<Sample: ResampleSample>(_ source: UnsafeBufferPointer<Sample>,
                                                           starts: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>,
                                                           into row: UnsafeMutableBufferPointer<Float>, count: Int) {
        let rowBytes = UnsafeMutableRawPointer(row.baseAddress!)
        var i = 0
        while i + 32 <= count {
            var a = SIMD8<Float>(), b = SIMD8<Float>(), c = SIMD8<Float>(), d = SIMD8<Float>()
            for tap in starts.indices {
                // Wrapping index arithmetic: in bounds by construction, and checked additions
                // cost a branch each in the innermost loop.
                let weight = SIMD8(repeating: weights[tap]), start = starts[tap] &+ i
                a = a + weight * Sample.eight(source, at: start)
                b = b + weight * Sample.eight(source, at: start &+ 8)
                c = c + weight * Sample.eight(source, at: start &+ 16)
                d = d + weight * Sample.eight(source, at: start &+ 24)
            }
            rowBytes.storeBytes(of: a, toByteOffset: i * 4, as: SIMD8<Float>.self)
            rowBytes.storeBytes(of: b, toByteOffset: i * 4 + 32, as: SIMD8<Float>.self)
            rowBytes.storeBytes(of: c, toByteOffset: i * 4 + 64, as: SIMD8<Float>.self)
            rowBytes.storeBytes(of: d, toByteOffset: i * 4 + 96, as: SIMD8<Float>.self)
            i += 32
        }
        while i + 8 <= count {
            var sum = SIMD8<Float>()
            for tap in starts.indices {
                sum = sum + SIMD8(repeating: weights[tap]) * Sample.eight(source, at: starts[tap] + i)
            }
            rowBytes.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            var sum: Float = 0
            for tap in starts.indices { sum += weights[tap] * source[starts[tap] + i].sampleValue }
            row[i] = sum
            i += 1
        }
    }

    /// Resamples one vertically filtered row into `out` starting at `base`.
    private static func horizontalPass<Output: ResampleOutput>(
        _ row: UnsafeBufferPointer<Float>, _ horizontal: ResampleWeights, firstColumn: Int, channels: Int,
        into out: UnsafeMutableBufferPointer<Output>, at base: Int
    ) {
        horizontal.indices.withUnsafeBufferPointer { indices in
            horizontal.weights.withUnsafeBufferPointer { weights in
                horizontal.offsets.withUnsafeBufferPointer { offsets in
                    if channels == 4 {
                        // Interleaved RGBA: one 4-lane multiply-add per tap, two output
                        // pixels at a time so their sums do not wait on each other (each
                        // pixel's taps still summed in order: the same sums).
                        let pixels = UnsafeRawPointer(row.baseAddress!) - firstColumn * 16
                        @inline(__always) func tap(_ t: Int) -> SIMD4<Float> {
                            weights[t] * pixels.loadUnaligned(fromByteOffset: Int(indices[t]) &* 16, as: SIMD4<Float>.self)
                        }
                        let count = offsets.count - 1
                        var x = 0
                        while x + 2 <= count {
                            let start = Int(offsets[x]), middle = Int(offsets[x + 1]), end = Int(offsets[x + 2])
                            let shared = min(middle - start, end - middle)
                            var first = SIMD4<Float>(), second = SIMD4<Float>()
                            for t in 0..<shared {
                                first += tap(start + t)
                                second += tap(middle + t)
                            }
                            for t in (start + shared)..<middle { first += tap(t) }
                            for t in (middle + shared)..<end { second += tap(t) }
                            Output.store(first, into: out.baseAddress! + base + x * 4)
                            Output.store(second, into: out.baseAddress! + base + x * 4 + 4)
                            x += 2
                        }
                        if x < count {
                            var sum = SIMD4<Float>()
                            for t in Int(offsets[x])..<Int(offsets[x + 1]) { sum += tap(t) }
                            Output.store(sum, into: out.baseAddress! + base + x * 4)
                        }
                        return
                    }
                    if channels == 1 {
                        // One plane (a mask): taps walked in one run, no channel loop.
                        let source = row.baseAddress! - firstColumn, target = out.baseAddress! + base
                        if horizontal.interpolates {
                            // Two taps per output at known places: no tap loop (the same sums).
                            for x in 0..<(offsets.count - 1) {
                                let tap = 2 &* x
                                var sum: Float = 0
                                sum += weights[tap] * source[Int(indices[tap])]
                                sum += weights[tap &+ 1] * source[Int(indices[tap &+ 1])]
                                target[x] = Output(resampled: sum)
                            }
                            return
                        }
                        var tap = Int(offsets[0])
                        for x in 0..<(offsets.count - 1) {
                            let end = Int(offsets[x + 1])
                            var sum: Float = 0
                            while tap < end {
                                sum += weights[tap] * source[Int(indices[tap])]
                                tap &+= 1
                            }
                            target[x] = Output(resampled: sum)
                        }
                        return
                    }
                    // Pointers with the offsets folded in: no overflow-checked index arithmetic per tap.
                    let source = row.baseAddress! - firstColumn * channels
                    for x in 0..<(offsets.count - 1) {
                        let target = out.baseAddress! + base + x &* channels
                        for c in 0..<channels {
                            var sum: Float = 0
                            for tap in Int(offsets[x])..<Int(offsets[x + 1]) {
                                sum += weights[tap] * source[Int(indices[tap]) &* channels &+ c]
                            }
                            target[c] = Output(resampled: sum)
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
    /// Eight consecutive samples from `index` on, as floats (no bounds check).
    static func eight(_ buffer: UnsafeBufferPointer<Self>, at index: Int) -> SIMD8<Float>
    /// Four consecutive samples from `index` on (one RGBA pixel), as floats (no bounds check).
    static func four(_ buffer: UnsafeBufferPointer<Self>, at index: Int) -> SIMD4<Float>
}

extension UInt8: ResampleSample {
    var sampleValue: Float { Float(self) }

    @inline(__always)
    static func eight(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> SIMD8<Float> {
        SIMD8<Float>(UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    @inline(__always)
    static func four(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> SIMD4<Float> {
        SIMD4<Float>(UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: SIMD4<UInt8>.self))
    }
}

extension Float: ResampleSample {
    var sampleValue: Float { self }

    @inline(__always)
    static func eight(_ buffer: UnsafeBufferPointer<Float>, at index: Int) -> SIMD8<Float> {
        UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func four(_ buffer: UnsafeBufferPointer<Float>, at index: Int) -> SIMD4<Float> {
        UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: SIMD4<Float>.self)
    }
}

/// A sample type the resampler writes: floats as computed, or bytes clamped to 0-255 and
/// rounded to the nearest value (ties to even).
protocol ResampleOutput: AdditiveArithmetic {
    init(resampled value: Float)
    /// Stores four consecutive outputs (one RGBA pixel) at `target`.
    static func store(_ values: SIMD4<Float>, into target: UnsafeMutablePointer<Self>)
}

extension Float: ResampleOutput {
    @inline(__always)
    init(resampled value: Float) { self = value }

    @inline(__always)
    static func store(_ values: SIMD4<Float>, into target: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(target).storeBytes(of: values, as: SIMD4<Float>.self)
    }
}

extension UInt8: ResampleOutput {
    @inline(__always)
    init(resampled value: Float) { self = UInt8(Swift.min(255, Swift.max(0, value)).rounded(.toNearestOrEven)) }

    /// The four bytes round the clamped values to the nearest integer (ties to even) by
    /// adding 2^23: the sum's mantissa then holds the integer in its low bits, with no
    /// per-lane float-to-integer conversion. Clamped with lane masks and narrowed as a
    /// vector: the standard library's `pointwiseMin` / `pointwiseMax` are calls that go lane
    /// by lane, and so was packing the lanes one by one (together 5 ns a pixel, the scaled
    /// 12 MP crops' colours 5-8 -> 2-3.5 ms).
    @inline(__always)
    static func store(_ values: SIMD4<Float>, into target: UnsafeMutablePointer<UInt8>) {
        let top = SIMD4<Float>(repeating: 255)
        let floored = values.replacing(with: 0, where: values .< 0)
        let shifted = floored.replacing(with: top, where: floored .> top) + 8_388_608
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self))
        UnsafeMutableRawPointer(target).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
    }
}

extension Resampler.Region {
    /// The whole pixels of `rect`.
    init(_ rect: PixelRect) {
        self.init(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
    }
}
