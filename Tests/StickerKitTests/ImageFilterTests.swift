@testable import StickerKit
import Foundation
import Testing

/// The small image filters the sticker edge work is built from, against brute force.
@Suite struct ImageFilterTests {
    /// Deterministic noisy labels: blobs, specks and edges touching the frame.
    private func labels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            let blob = (x - width / 2) * (x - width / 2) + (y - height / 3) * (y - height / 3) < width * height / 8
            return blob != (generator.next() % 50 == 0) ? 1 : 0
        }
    }

    @Test(arguments: [(1, 17, 9), (3, 40, 31), (6, 23, 50), (12, 10, 7)])
    func holdsBothMatchesAWindowScan(radius: Int, width: Int, height: Int) {
        let plane = labels(width: width, height: height, seed: UInt64(radius * 1000 + width))
        let band = BoxFilter.holdsBoth(plane, width: width, height: height, radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                var ones = 0, zeros = 0
                for wy in max(0, y - radius)...min(height - 1, y + radius) {
                    for wx in max(0, x - radius)...min(width - 1, x + radius) {
                        if plane[wy * width + wx] != 0 { ones += 1 } else { zeros += 1 }
                    }
                }
                #expect(band[y * width + x] == (ones > 0 && zeros > 0), "pixel (\(x), \(y)) radius \(radius)")
            }
        }
    }

    /// Rows shorter than the window, as long as it, and longer, at several radii.
    @Test(arguments: [(1, 17, 9), (2, 40, 31), (2, 3, 2), (3, 7, 12), (4, 9, 5), (6, 23, 50)])
    func boxMeanMatchesAWindowScan(radius: Int, width: Int, height: Int) {
        var generator = SplitMix64(seed: UInt64(radius * 10 + width))
        let plane = (0..<(width * height)).map { _ in Float(generator.next() % 1000) / 10 }
        let mean = BoxFilter.mean(plane, width: width, height: height, radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Double = 0, count = 0
                for wy in max(0, y - radius)...min(height - 1, y + radius) {
                    for wx in max(0, x - radius)...min(width - 1, x + radius) {
                        sum += Double(plane[wy * width + wx])
                        count += 1
                    }
                }
                #expect(abs(Double(mean[y * width + x]) - sum / Double(count)) < 1e-3, "pixel (\(x), \(y)) radius \(radius)")
            }
        }
    }

    /// Planes filtered side by side come out as the same floats, lane for lane, as each
    /// filtered alone (which the guided filter and the matting rely on for their bytes);
    /// heights that are and are not multiples of four rows.
    @Test(arguments: [(1, 17, 9), (2, 40, 32), (3, 7, 13), (6, 23, 50)])
    func planesSideBySideMatchEachPlaneAlone(radius: Int, width: Int, height: Int) {
        var generator = SplitMix64(seed: UInt64(radius * 7 + height))
        let planes = (0..<4).map { _ in (0..<(width * height)).map { _ in Float(generator.next() % 100_000) / 977 } }
        let four = BoxFilter.mean((0..<(width * height)).map { SIMD4(planes[0][$0], planes[1][$0], planes[2][$0], planes[3][$0]) },
                                  width: width, height: height, radius: radius)
        let two = BoxFilter.mean((0..<(width * height)).map { SIMD2(planes[0][$0], planes[1][$0]) },
                                 width: width, height: height, radius: radius)
        for lane in 0..<4 {
            let alone = BoxFilter.mean(planes[lane], width: width, height: height, radius: radius)
            #expect(alone.indices.allSatisfy { four[$0][lane].bitPattern == alone[$0].bitPattern }, "lane \(lane) of four")
            if lane < 2 {
                #expect(alone.indices.allSatisfy { two[$0][lane].bitPattern == alone[$0].bitPattern }, "lane \(lane) of two")
            }
        }
    }

    @Test(arguments: [(0, 5, 4), (1, 17, 9), (2, 40, 31), (2, 3, 2), (4, 23, 50)])
    func minimumMatchesAWindowScan(radius: Int, width: Int, height: Int) {
        var generator = SplitMix64(seed: UInt64(radius * 100 + width))
        let plane = (0..<(width * height)).map { _ in Float(generator.next() % 1000) }
        let minimum = LocalTexture.minimum(plane, width: width, height: height, radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                var expected = Float.infinity
                for wy in max(0, y - radius)...min(height - 1, y + radius) {
                    for wx in max(0, x - radius)...min(width - 1, x + radius) { expected = min(expected, plane[wy * width + wx]) }
                }
                #expect(minimum[y * width + x] == expected, "pixel (\(x), \(y)) radius \(radius)")
            }
        }
    }

    /// Texture is zero on flat areas, including the smooth sides of a step edge two pixels
    /// away from it, and high on fine noise.
    @Test func localTextureSeesNoiseButNotEdges() {
        let width = 60, height = 40
        var generator = SplitMix64(seed: 3)
        let colors = (0..<(width * height)).map { index -> SIMD3<Float> in
            let x = index % width
            if x >= 40 { return SIMD3(repeating: Float(generator.next() % 60) + 100) }   // noise
            return SIMD3(repeating: x < 20 ? 50 : 200)                                    // a step at x = 20
        }
        let image = WorkingImage(width: width, height: height, colors: colors)
        let texture = LocalTexture.features(of: image)
        for y in 0..<height {
            for x in [0, 10, 17, 22, 30, 35] { #expect(texture[y * width + x] == 0, "flat at x = \(x)") }
            for x in [45, 50, 59] { #expect(texture[y * width + x] > 30, "noise at x = \(x)") }
        }
    }

    /// The segmenter's CIELAB is the palette's (`LabColor`, libm's powers) without L*'s
    /// offset, scaled by 255 / 116, to within its tables' interpolation, for every grey
    /// level and random colours. A shade at half the linear light scales all three
    /// coordinates by the cube root of a half (the shadowed density relies on it).
    @Test func workingColoursInCIELABMatchThePalettesConversion() {
        var generator = SplitMix64(seed: 5)
        let greys = (0..<256).map { SIMD3<UInt8>(repeating: UInt8($0)) }
        let random = (0..<1001).map { _ in
            SIMD3<UInt8>(UInt8(generator.next() % 256), UInt8(generator.next() % 256), UInt8(generator.next() % 256))
        }
        let colors = greys + random
        let image = WorkingImage(width: colors.count, height: 1, colors: colors.map { SIMD3<Float>($0) })
        let lab = image.inCIELAB()
        let scale: Float = 255 / 116
        for (color, converted) in zip(colors, lab.colors) {
            let expected = LabColor(red: color.x, green: color.y, blue: color.z)
            let difference = converted - SIMD3(expected.l + 16, expected.a, expected.b) * scale
            #expect(max(abs(difference.x), abs(difference.y), abs(difference.z)) < 0.01,
                    "\(color): \(converted) against \(expected)")
        }
        func halfTheLight(_ value: Float) -> Float {
            let linear = LabColor.linear(value) / 2
            return (1.055 * powf(linear, 1 / 2.4) - 0.055) * 255
        }
        let lit = SIMD3<Float>(186, 140, 90), shaded = SIMD3(halfTheLight(lit.x), halfTheLight(lit.y), halfTheLight(lit.z))
        let shade = WorkingImage(width: 2, height: 1, colors: [lit, shaded]).inCIELAB()
        let ratio = shade.colors[1] / shade.colors[0]
        let error = ratio - SIMD3(repeating: cbrtf(0.5))
        #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 0.001, "\(ratio)")
    }

    /// The AVX2 kernel converts to the same bits as the Swift code, for every grey level,
    /// random fractional colours (area averages are not whole) and colours past both ends
    /// of the tables (clamped); 1,259 pixels, so the Swift code also takes the last three.
    @Test(.enabled(if: VectorKernel.fastest == .avx2, "the CPU has AVX2"))
    func cielabKernelMatchesTheSwiftCodeBitForBit() {
        var generator = SplitMix64(seed: 9)
        func random(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(generator.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
        }
        let greys = (0..<256).map { SIMD3<Float>(repeating: Float($0)) }
        let fractional = (0..<1000).map { _ in SIMD3(random(0...255), random(0...255), random(0...255)) }
        let outside = [SIMD3<Float>(-3, 0, 260), SIMD3(300, -0.5, 128)]
        let colors = greys + fractional + outside + [SIMD3(1, 2, 3)]
        let image = WorkingImage(width: colors.count, height: 1, colors: colors)
        let portable = image.inCIELAB(kernel: .portable).colors, vector = image.inCIELAB(kernel: .avx2).colors
        for (index, (a, b)) in zip(portable, vector).enumerated() {
            #expect(a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern && a.z.bitPattern == b.z.bitPattern,
                    "\(colors[index]): \(a) against \(b)")
        }
    }

    @Test func gridShrinksToBlockMeansAndReadsBackBilinearly() {
        // 10 x 7 at s = 4: blocks of 4 x 4, with partial last blocks of 2 columns and 3 rows.
        let width = 10, height = 7
        let plane = (0..<(width * height)).map { Float($0 % width) + 100 * Float($0 / width) }
        let grid = LowResolutionGrid(width: width, height: height, subsampling: 4)
        #expect(grid.lowWidth == 3 && grid.lowHeight == 2)
        let low = grid.shrink(plane)
        #expect(low[0] == 1.5 + 100 * 1.5)          // x 0-3, y 0-3
        #expect(low[2] == 8.5 + 100 * 1.5)          // x 8-9
        #expect(low[5] == 8.5 + 100 * 5)            // x 8-9, y 4-6
        // A plane linear in x and y reads back exactly between block centres (1.5, 5.5, ...).
        let linear = (0..<grid.count).map { (cell: Int) -> SIMD2<Float> in
            let centreX = Float((cell % 3) * 4) + 1.5, centreY = Float((cell / 3) * 4) + 1.5
            return SIMD2(repeating: centreX + 10 * centreY)
        }
        #expect(abs(grid.tap(3, 3).sample(linear).x - (3 + 30)) < 1e-4)
        #expect(abs(grid.tap(0, 0).sample(linear).x - (1.5 + 15)) < 1e-4)   // clamped at the edge
    }

    /// Blocks of 2 x 2, which `shrink` adds without its loops, and the partial ones of the
    /// last column and row, which it does not: for one plane of floats and for RGBA bytes,
    /// each block's mean added in the order the loops add it.
    @Test func gridOfTwoByTwoBlocksShrinksToBlockMeans() {
        let width = 5, height = 3   // blocks: 2 x 2 and 1 x 2 in the first row, 2 x 1 and 1 x 1 in the last
        let grid = LowResolutionGrid(width: width, height: height, subsampling: 2)
        #expect(grid.lowWidth == 3 && grid.lowHeight == 2)
        let floats = (0..<(width * height)).map { Float($0) * 0.37 - 2 }
        let bytes = (0..<(width * height * 4)).map { UInt8(($0 * 53) % 256) }
        func mean(_ values: (Int) -> Float, columns: Range<Int>, rows: Range<Int>) -> Float {
            var sum: Float = 0
            for y in rows { for x in columns { sum += values(y * width + x) } }
            return sum / Float(columns.count * rows.count)
        }
        let blocks = [(0..<2, 0..<2), (2..<4, 0..<2), (4..<5, 0..<2), (0..<2, 2..<3), (2..<4, 2..<3), (4..<5, 2..<3)]
        let low = grid.shrink(floats), lowColours = grid.shrink(bytes, channels: 4)
        for (cell, (columns, rows)) in blocks.enumerated() {
            #expect(low[cell] == mean({ floats[$0] }, columns: columns, rows: rows), "cell \(cell)")
            for channel in 0..<4 {
                #expect(lowColours[cell * 4 + channel] == mean({ Float(bytes[$0 * 4 + channel]) }, columns: columns, rows: rows),
                        "cell \(cell), channel \(channel)")
            }
        }
    }

    /// With one pixel per block, `shrink` takes its own path: the means are the samples,
    /// bytes and floats alike, also in the tail past the last eight.
    @Test func gridOfOnePixelPerBlockShrinksToTheSamplesThemselves() {
        let width = 5, height = 3   // 15 samples, 60 RGBA bytes: both end off a multiple of 8
        let grid = LowResolutionGrid(width: width, height: height, subsampling: 1)
        let floats = (0..<(width * height)).map { Float($0) * 0.37 - 2 }
        #expect(grid.shrink(floats) == floats)
        let bytes = (0..<(width * height * 4)).map { UInt8(($0 * 53) % 256) }
        #expect(grid.shrink(bytes, channels: 4) == bytes.map { Float($0) })
    }

    /// Bytes out of the resampler are the float output clamped and rounded, in the RGBA
    /// path and the general one, shrinking and enlarging.
    @Test(arguments: [(4, 37, 23, 19), (4, 37, 23, 61), (1, 37, 23, 19), (1, 37, 23, 61)])
    func resampledBytesAreRoundedFloats(channels: Int, width: Int, height: Int, outputWidth: Int) {
        var generator = SplitMix64(seed: UInt64(channels * 100 + outputWidth))
        let source = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let region = Resampler.Region(x: 1.5, y: 0.25, width: Double(width) - 3, height: Double(height) - 1)
        let outputHeight = outputWidth * height / width
        let (floats, bytes) = source.withUnsafeBufferPointer { source in
            (Resampler.resample(source, width: width, height: height, channels: channels, region: region,
                                width: outputWidth, height: outputHeight),
             Resampler.resample(source, width: width, height: height, channels: channels, region: region,
                                width: outputWidth, height: outputHeight, as: UInt8.self))
        }
        #expect(bytes.count == floats.count)
        for (byte, float) in zip(bytes, floats) {
            #expect(byte == UInt8(min(255, max(0, float)).rounded(.toNearestOrEven)), "\(float)")
        }
    }

    /// The RGBA path (two output pixels at a time, an odd one last) sums each channel's
    /// taps as a plane resampled on its own does, to the last bit.
    @Test(arguments: [(37, 23, 19), (37, 23, 61), (40, 9, 7), (5, 5, 1)])
    func rgbaIsEachChannelResampledAlone(width: Int, height: Int, outputWidth: Int) {
        var generator = SplitMix64(seed: UInt64(width * 100 + outputWidth))
        let source = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let region = Resampler.Region(x: 0.75, y: 0.5, width: Double(width) - 2, height: Double(height) - 1)
        let outputHeight = max(1, outputWidth * height / width)
        let rgba = source.withUnsafeBufferPointer {
            Resampler.resample($0, width: width, height: height, channels: 4, region: region,
                               width: outputWidth, height: outputHeight)
        }
        for channel in 0..<4 {
            let plane = stride(from: channel, to: source.count, by: 4).map { source[$0] }
            let alone = plane.withUnsafeBufferPointer {
                Resampler.resample($0, width: width, height: height, channels: 1, region: region,
                                   width: outputWidth, height: outputHeight)
            }
            #expect(stride(from: channel, to: rgba.count, by: 4).map { rgba[$0] } == alone, "channel \(channel)")
        }
    }

    /// A `width` x `height` mask of runs of `run` pixels along each row, each subject with
    /// probability `thirds` / 3 (runs longer than a word exercise the labelling's word-wide scan).
    private func randomMask(width: Int, height: Int, run: Int = 1, thirds: UInt64 = 1) -> ForegroundMask {
        var generator = SplitMix64(seed: UInt64(width * 100 + height + run))
        var values: [UInt8] = []
        for _ in 0..<height {
            for x in stride(from: 0, to: width, by: run) {
                let value: UInt8 = generator.next() % 3 < thirds ? 1 : 0
                values += repeatElement(value, count: min(run, width - x))
            }
        }
        return ForegroundMask(width: width, height: height, values: values)
    }

    /// Run-based labelling against a flood fill: the same regions, numbered in raster
    /// order of their first pixel, with the same sizes and frame contacts.
    /// Long runs of the value looked for join into one region, so there it is the rarer one.
    @Test(arguments: [(17, 9, UInt8(1), 1), (40, 31, UInt8(1), 1), (40, 31, UInt8(0), 1), (1, 40, UInt8(1), 1),
                      (23, 1, UInt8(0), 1), (101, 37, UInt8(1), 13), (101, 37, UInt8(0), 13), (64, 20, UInt8(1), 9)])
    func regionsMatchAFloodFill(width: Int, height: Int, value: UInt8, run: Int) {
        let mask = randomMask(width: width, height: height, run: run, thirds: value == 0 && run > 1 ? 2 : 1)
        let values = mask.values
        var labels = [Int32](repeating: -1, count: values.count)
        var sizes: [Int] = [], touches: [Bool] = []
        for start in values.indices where values[start] == value && labels[start] < 0 {
            let label = Int32(sizes.count)
            var stack = [start], size = 0, touchesFrame = false
            labels[start] = label
            while let pixel = stack.popLast() {
                size += 1
                let x = pixel % width, y = pixel / width
                touchesFrame = touchesFrame || x == 0 || y == 0 || x == width - 1 || y == height - 1
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) where values[ny * width + nx] == value && labels[ny * width + nx] < 0 {
                        labels[ny * width + nx] = label
                        stack.append(ny * width + nx)
                    }
                }
            }
            sizes.append(size)
            touches.append(touchesFrame)
        }
        let regions = mask.regions(of: value)
        #expect(sizes.count > 1)
        #expect(regions.labels == labels)
        #expect(regions.sizes == sizes)
        #expect(regions.touchesFrame == touches)
    }

    /// A mask drawn as rows of '#' (subject) and '.' (background).
    private func mask(_ rows: [String]) -> ForegroundMask {
        ForegroundMask(width: rows[0].count, height: rows.count,
                       values: rows.flatMap { $0.map { $0 == "#" ? UInt8(1) : 0 } })
    }

    /// The silhouette fills what an outline encloses, through a one-pixel gap in its rim
    /// too, and adds nothing around it, not even between it and the frame; an opening three
    /// pixels wide stays open, and a subject along the frame keeps its pixels there.
    @Test func silhouetteFillsWhatTheOutlineEncloses() {
        let outline = mask([".........",
                            ".###.###.",
                            ".#.....#.",
                            ".#.#...#.",
                            ".#######.",
                            "........."])
        #expect(outline.silhouette == mask([".........",
                                            ".#######.",
                                            ".#######.",
                                            ".#######.",
                                            ".#######.",
                                            "........."]))
        let cup = mask(["#.....#",
                        "#.....#",
                        "##...##",
                        "#######"])
        #expect(cup.silhouette == cup)
        #expect(cup.spreading(0) == mask([".......", ".......", ".......", "......."]))
        #expect(cup.spreading(1) == mask(["##...##", "###.###", "#######", "#######"]))
    }

    /// Spreading a value is a 3x3 dilation of it (an erosion of the other, which also
    /// clears the frame when the value is 0), and filling holes sets every background
    /// region that touches no edge and is under the limit, checked against their
    /// definitions on random masks, thin ones included.
    @Test(arguments: [(1, 1), (1, 9), (9, 1), (2, 2), (37, 23), (64, 17)])
    func spreadingAndFillingHolesFollowTheirDefinitions(width: Int, height: Int) {
        for run in [1, 5] {
            let mask = randomMask(width: width, height: height, run: run)
            func at(_ x: Int, _ y: Int) -> UInt8 { mask.values[y * width + x] }
            for value: UInt8 in [0, 1] {
                var expected = mask.values
                for y in 0..<height {
                    for x in 0..<width {
                        let near = (max(0, y - 1)...min(height - 1, y + 1)).contains { ny in
                            (max(0, x - 1)...min(width - 1, x + 1)).contains { at($0, ny) == value }
                        }
                        let onFrame = x == 0 || y == 0 || x == width - 1 || y == height - 1
                        if near || (value == 0 && onFrame) { expected[y * width + x] = value }
                    }
                }
                #expect(mask.spreading(value).values == expected, "value \(value), run \(run)")
            }
            // Two thirds subject, so the background breaks into holes (pixel by pixel; runs
            // of background mostly join up with the frame).
            let dense = randomMask(width: width, height: height, run: run, thirds: 2)
            let holes = dense.regions(of: 0)
            for limit in [3.0, .infinity] {
                let expected = dense.values.indices.map { index -> UInt8 in
                    let label = Int(holes.labels[index])
                    guard label >= 0 else { return 1 }
                    return !holes.touchesFrame[label] && Double(holes.sizes[label]) < limit ? 1 : 0
                }
                let filled = dense.fillingHoles(smallerThan: limit).values
                #expect(filled == expected, "limit \(limit), run \(run)")
                if run == 1 && width * height > 100 { #expect(filled != dense.values, "the mask has holes to fill") }
            }
        }
    }
}
