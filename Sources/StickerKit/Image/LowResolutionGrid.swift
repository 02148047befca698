/// A plane's size shrunk by an integer factor s, for quantities that vary slowly: planes
/// are shrunk onto the grid as means over s x s blocks (the last row and column of blocks
/// may be partial) and read back at any full-size pixel by bilinear interpolation between
/// block centres (clamped at the edges).
struct LowResolutionGrid: Sendable {
    let width: Int
    let height: Int
    let lowWidth: Int
    let lowHeight: Int
    /// Full-size pixels per block along each axis.
    let subsampling: Int
    /// Per full-size column (row): the two grid columns (rows) it reads and the second one's weight.
    private let columns: [(Int, Int, Float)]
    private let rows: [(Int, Int, Float)]

    /// Where a full-size pixel reads the grid: four cells and the bilinear weights.
    struct Tap {
        let topLeft: Int, topRight: Int, bottomLeft: Int, bottomRight: Int
        let fx: Float, fy: Float

        @inline(__always)
        func sample<Value: SIMD>(_ plane: [Value]) -> Value where Value.Scalar == Float {
            let top = plane[topLeft] * (1 - fx) + plane[topRight] * fx
            let bottom = plane[bottomLeft] * (1 - fx) + plane[bottomRight] * fx
            return top * (1 - fy) + bottom * fy
        }
    }

    init(width: Int, height: Int, subsampling: Int) {
        let s = max(1, subsampling)
        self.width = width
        self.height = height
        self.subsampling = s
        lowWidth = max(1, (width + s - 1) / s)
        lowHeight = max(1, (height + s - 1) / s)
        columns = LowResolutionGrid.taps(count: width, low: lowWidth, s: s)
        rows = LowResolutionGrid.taps(count: height, low: lowHeight, s: s)
    }

    var count: Int { lowWidth * lowHeight }

    /// Calls `body(cell, rows, columns)` for every block, in cell order, with the full-size
    /// rows and columns it covers, so no pixel pays a division and a caller can keep a
    /// block's running sum in a register while it adds the block's pixels row by row.
    @inline(__always)
    func forEachBlock(_ body: (_ cell: Int, _ rows: Range<Int>, _ columns: Range<Int>) -> Void) {
        for blockY in 0..<lowHeight {
            let rows = (blockY * subsampling)..<min(height, (blockY + 1) * subsampling)
            for blockX in 0..<lowWidth {
                body(blockY * lowWidth + blockX, rows, (blockX * subsampling)..<min(width, (blockX + 1) * subsampling))
            }
        }
    }

    /// `plane` (one channel, or four interleaved; full size; floats or bytes): the mean of
    /// each block. Each block's sum adds its pixels row by row, left to right.
    func shrink<Sample: ResampleSample>(_ plane: [Sample], channels: Int = 1) -> [Float] {
        precondition(channels == 1 || channels == 4, "one channel or four")
        // One pixel per block: the means are the samples themselves, the same floats.
        if subsampling == 1 {
            return [Float](unsafeUninitializedCapacity: count * channels) { means, initialized in
                plane.withUnsafeBufferPointer { plane in
                    var index = 0
                    while index + 8 <= means.count {
                        UnsafeMutableRawPointer(means.baseAddress! + index)
                            .storeBytes(of: Sample.eight(plane, at: index), as: SIMD8<Float>.self)
                        index += 8
                    }
                    while index < means.count {
                        means[index] = plane[index].sampleValue
                        index += 1
                    }
                }
                initialized = count * channels
            }
        }
        // Each block's sum, divided by its pixel count.
        return [Float](unsafeUninitializedCapacity: count * channels) { means, initialized in
            plane.withUnsafeBufferPointer { plane in
                let target = UnsafeMutableRawPointer(means.baseAddress!)
                if channels == 4 {
                    // Whole pixels as vectors: the same per-channel sums, in the same order.
                    blockMeans(into: target) { Sample.four(plane, at: $0 &* 4) }
                } else {
                    blockMeans(into: target) { plane[$0].sampleValue }
                }
            }
            initialized = count * channels
        }
    }

    /// Stores each block's mean of `pixel(i)` over the full-size pixels i it covers, in cell
    /// order, at `target`: a block at a time, so its sum stays in a register while it adds
    /// the block's pixels row by row, left to right; a whole 2 x 2 block (the compose
    /// step's usual grid) without the loops.
    @inline(__always)
    private func blockMeans<Value: BoxFilterSample>(into target: UnsafeMutableRawPointer, _ pixel: (Int) -> Value) {
        forEachBlock { cell, rows, columns in
            var sum = Value.zero
            if rows.count == 2 && columns.count == 2 {
                let top = rows.lowerBound &* width &+ columns.lowerBound, bottom = top &+ width
                sum = sum + pixel(top)
                sum = sum + pixel(top &+ 1)
                sum = sum + pixel(bottom)
                sum = sum + pixel(bottom &+ 1)
            } else {
                for y in rows {
                    for x in columns { sum = sum + pixel(y &* width &+ x) }
                }
            }
            target.storeBytes(of: sum / Float(rows.count * columns.count), toByteOffset: cell &* MemoryLayout<Value>.stride,
                              as: Value.self)
        }
    }

    @inline(__always)
    func tap(_ x: Int, _ y: Int) -> Tap {
        let (x0, x1, fx) = columns[x], (y0, y1, fy) = rows[y]
        return Tap(topLeft: y0 * lowWidth + x0, topRight: y0 * lowWidth + x1,
                   bottomLeft: y1 * lowWidth + x0, bottomRight: y1 * lowWidth + x1, fx: fx, fy: fy)
    }

    /// Block centres sit at (k + 0.5) s - 0.5 in full-size pixels.
    private static func taps(count: Int, low: Int, s: Int) -> [(Int, Int, Float)] {
        (0..<count).map { i in
            let position = max(0, min(Float(low - 1), (Float(i) + 0.5) / Float(s) - 0.5))
            let first = Int(position)
            return (first, min(first + 1, low - 1), position - Float(first))
        }
    }
}
