/// Mean over a (2r+1) x (2r+1) window, clipped at the edges, in O(N) whatever the radius
/// (running sums along rows, then columns).
enum BoxFilter {
    /// The box mean of one plane, or of several planes side by side (`SIMD2<Float>`,
    /// `SIMD4<Float>`): each lane comes out as the same floats its own plane's mean would,
    /// since every lane takes the same additions, subtractions and divisions in the same
    /// order, so one pass over interleaved planes replaces one pass per plane.
    static func mean<Sample: BoxFilterSample>(_ plane: [Sample], width: Int, height: Int, radius: Int) -> [Sample] {
        guard !plane.isEmpty else { return plane }
        let across = windowSizes(count: width, radius: radius)
        let lanes = MemoryLayout<Sample>.stride / MemoryLayout<Float>.stride
        return [Sample](unsafeUninitializedCapacity: plane.count) { output, initialized in
            plane.withUnsafeBufferPointer { source in
                across.withUnsafeBufferPointer { across in
                    let source = source.baseAddress!
                    // Row sums four rows at a time while four are left, divided by their windows.
                    func makeRows(_ first: Int, _ slot: (Int) -> UnsafeMutablePointer<Sample>) -> Int {
                        let made = first + 4 <= height ? 4 : 1
                        if made == 4 {
                            slideFour(source + first * width, count: width, radius: radius,
                                      into: (slot(first), slot(first + 1), slot(first + 2), slot(first + 3)))
                        } else {
                            slide(source + first * width, count: width, radius: radius, into: slot(first))
                        }
                        for row in first..<(first + made) {
                            let sums = slot(row)
                            for x in 0..<width { sums[x] = sums[x] / across[x] }
                        }
                        return made
                    }
                    // Down the columns, every lane of every pixel is a column of its own.
                    let target = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Float.self)
                    slideDown(width: width, height: height, radius: radius, rowsAhead: 3, makeRows: makeRows) { y, sums, rowsInWindow in
                        let count = Float(rowsInWindow), line = target + y * width * lanes
                        for x in 0..<(width * lanes) { line[x] = sums[x] / count }
                    }
                }
            }
            initialized = plane.count
        }
    }

    /// Moves a (2r+1)-row window down all columns at once and calls
    /// `body(y, sums, rowsInWindow)` with `sums[x]` the total of column x over the window's
    /// rows (clipped at the edges), every lane of a row's `width` elements a column of its
    /// own. Rows are made only as the window reaches them, into a ring of the rows it holds:
    /// `makeRows(first, slot)` writes rows from `first` on into `slot(row)` and returns how
    /// many it made (at most `rowsAhead` more than one), so the passes work in cache whatever
    /// the plane's size. Each column's running sum takes its additions and subtractions in
    /// the order a walk down that column would.
    private static func slideDown<Element>(
        width: Int, height: Int, radius: Int, rowsAhead: Int,
        makeRows: (_ first: Int, _ slot: (Int) -> UnsafeMutablePointer<Element>) -> Int,
        _ body: (_ y: Int, _ sums: UnsafeBufferPointer<Float>, _ rowsInWindow: Int) -> Void
    ) {
        // The window's 2r + 1 rows, the row leaving it and those made ahead.
        let ringRows = min(height, 2 * radius + 2 + rowsAhead)
        let ring = UnsafeMutablePointer<Element>.allocate(capacity: ringRows * width)
        defer { ring.deallocate() }
        let lanes = MemoryLayout<Element>.stride / MemoryLayout<Float>.stride
        func slot(_ row: Int) -> UnsafeMutablePointer<Element> { ring + (row % ringRows) * width }
        var made = 0   // rows made so far
        func row(_ y: Int) -> UnsafePointer<Float> {
            while made <= y { made += makeRows(made, slot) }
            return UnsafeRawPointer(slot(y)).assumingMemoryBound(to: Float.self)
        }
        var sums = [Float](repeating: 0, count: width * lanes)
        sums.withUnsafeMutableBufferPointer { sums in
            var upper = -1, lower = 0   // rows in the current window
            for y in 0..<height {
                while upper < min(height - 1, y + radius) {
                    upper += 1
                    VectorMath.combine(sums.baseAddress!, with: row(upper), count: width * lanes, +)
                }
                while lower < max(0, y - radius) {
                    VectorMath.combine(sums.baseAddress!, with: row(lower), count: width * lanes, -)
                    lower += 1
                }
                body(y, UnsafeBufferPointer(sums), upper - lower + 1)
            }
        }
    }

    /// Samples in each position's window along a line of `count`, clipped at the ends.
    private static func windowSizes(count: Int, radius: Int) -> [Float] {
        (0..<count).map { Float(min(count - 1, $0 + radius) - max(0, $0 - radius) + 1) }
    }

    /// Window sums along one row of `count` samples: each step adds the sample entering the
    /// window, then subtracts the one leaving it (the caller divides by the window sizes in
    /// a separate pass).
    private static func slide<Sample: BoxFilterSample>(_ source: UnsafePointer<Sample>, count: Int, radius: Int,
                                                       into output: UnsafeMutablePointer<Sample>) {
        guard count > 0 else { return }
        let last = count - 1
        var sum = Sample.zero
        for i in 0...min(last, radius) { sum = sum + source[i] }
        output[0] = sum
        for i in 1..<count {
            if i &+ radius <= last { sum = sum + source[i &+ radius] }
            if i &- radius &- 1 >= 0 { sum = sum - source[i &- radius &- 1] }
            output[i] = sum
        }
    }

    /// `slide` over four consecutive rows at once, each into its own output row: their
    /// running sums are independent, so they advance side by side instead of each waiting
    /// on its own last addition. Each row's sum takes the same additions and subtractions
    /// in the same order as `slide` gives it.
    private static func slideFour<Sample: BoxFilterSample>(
        _ source: UnsafePointer<Sample>, count: Int, radius: Int,
        into outputs: (UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>)
    ) {
        guard count > 0 else { return }
        let last = count - 1
        let (s0, s1, s2, s3) = (source, source + count, source + 2 * count, source + 3 * count)
        let (o0, o1, o2, o3) = outputs
        var (a, b, c, d) = (Sample.zero, Sample.zero, Sample.zero, Sample.zero)
        for i in 0...min(last, radius) {
            (a, b, c, d) = (a + s0[i], b + s1[i], c + s2[i], d + s3[i])
        }
        (o0[0], o1[0], o2[0], o3[0]) = (a, b, c, d)
        for i in 1..<count {
            let entering = i &+ radius, leaving = i &- radius &- 1
            if entering <= last {
                (a, b, c, d) = (a + s0[entering], b + s1[entering], c + s2[entering], d + s3[entering])
            }
            if leaving >= 0 {
                (a, b, c, d) = (a - s0[leaving], b - s1[leaving], c - s2[leaving], d - s3[leaving])
            }
            (o0[i], o1[i], o2[i], o3[i]) = (a, b, c, d)
        }
    }

    /// Whether the (2r+1) x (2r+1) window around each pixel, clipped at the edges, holds
    /// both a zero and a non-zero label: the band within `radius` of a boundary. Window
    /// counts, O(N) whatever the radius; both passes walk rows in memory order. The counts
    /// are whole numbers far below 2^24, so float sums are exact and vectorise (Int32 ones
    /// pay an overflow check per addition).
    static func holdsBoth(_ labels: [UInt8], width: Int, height: Int, radius: Int) -> [Bool] {
        guard !labels.isEmpty else { return [] }
        let across = windowSizes(count: width, radius: radius)
        var prefix = [Int32](repeating: 0, count: width + 1)
        var result = [Bool](repeating: false, count: labels.count)
        labels.withUnsafeBufferPointer { labels in
            prefix.withUnsafeMutableBufferPointer { prefix in
                // Windows clipped by an edge, then the unclipped middle (which vectorises).
                let middle = min(radius, width)..<max(min(radius, width), width - radius - 1)
                // Per pixel of a row: the non-zero labels in its row's window, a prefix-sum
                // difference.
                func makeRow(_ y: Int, _ slot: (Int) -> UnsafeMutablePointer<Float>) -> Int {
                    let line = y * width, row = slot(y)
                    var running: Int32 = 0   // in a register, not reloaded from the prefix
                    for x in 0..<width {
                        running &+= labels[line + x] != 0 ? 1 : 0
                        prefix[x + 1] = running
                    }
                    let counts = UnsafeBufferPointer(prefix)
                    let clipped = { (x: Int) in
                        row[x] = Float(counts[min(width, x + radius + 1)] &- counts[max(0, x - radius)])
                    }
                    for x in 0..<middle.lowerBound { clipped(x) }
                    let (ahead, behind) = (counts.baseAddress! + radius + 1, counts.baseAddress! - radius)
                    for x in middle { row[x] = Float(ahead[x] &- behind[x]) }
                    for x in middle.upperBound..<width { clipped(x) }
                    return 1
                }
                result.withUnsafeMutableBufferPointer { result in
                    across.withUnsafeBufferPointer { across in
                        slideDown(width: width, height: height, radius: radius, rowsAhead: 0, makeRows: makeRow) { y, sums, rowsInWindow in
                            // 0 < sum < window size, without a branch: the counts are exact.
                            let down = Float(rowsInWindow), line = result.baseAddress! + y * width
                            for x in 0..<width { line[x] = min(sums[x], across[x] * down - sums[x]) > 0 }
                        }
                    }
                }
            }
        }
        return result
    }
}

/// What `BoxFilter.mean` and `LowResolutionGrid`'s block means average: one plane's floats,
/// or several planes' side by side.
protocol BoxFilterSample {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func / (lhs: Self, rhs: Float) -> Self
}

extension Float: BoxFilterSample {}
extension SIMD2<Float>: BoxFilterSample {}
extension SIMD4<Float>: BoxFilterSample {}
