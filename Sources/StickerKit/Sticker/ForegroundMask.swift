/// A binary subject mask at segmentation size: 1 for subject, 0 for background.
struct ForegroundMask: Sendable, Equatable {
    let width: Int
    let height: Int
    var values: [UInt8]

    init(width: Int, height: Int, values: [UInt8]) {
        self.width = width
        self.height = height
        self.values = values
    }

    var area: Int { ForegroundMask.area(of: values) }

    /// The number of subject pixels among `labels` (0 or 1 each); the wrapping sum cannot
    /// wrap and, unlike a checked one, vectorises.
    static func area(of labels: [UInt8]) -> Int { labels.reduce(0) { $0 &+ Int($1) } }

    /// Whether `labels` hold a subject rather than a speck: at least a thousandth of the picture.
    static func holdsSubject(_ labels: [UInt8]) -> Bool { area(of: labels) * 1000 >= labels.count }

    /// Labels 8-connected regions whose value equals `value`; returns the label of every
    /// pixel (-1 for other pixels) and each region's size and whether it touches the frame
    /// (comes within `frameMargin` pixels of it; 0: has a pixel on it). Regions are
    /// numbered in the raster order of their first pixel.
    ///
    /// Run-based two-pass labelling: each row's runs of `value` are joined with the runs of
    /// the row above that touch them (diagonals included) in a union-find forest, then each
    /// run is painted with its root's final label (K. Suzuki, I. Horiba, N. Sugie, "Linear-
    /// time connected-component labeling based on sequential local operations", CVIU 2003,
    /// here over runs rather than pixels). O(N).
    func regions(of value: UInt8, frameMargin: Int = 0) -> (labels: [Int32], sizes: [Int], touchesFrame: [Bool]) {
        guard !values.isEmpty else { return ([], [], []) }
        let width = self.width, height = self.height
        var runs: [(start: Int32, end: Int32, row: Int32)] = []   // inclusive ends
        var parents: [Int32] = []
        func root(_ run: Int32) -> Int32 {
            var run = run
            while parents[Int(run)] != run {
                parents[Int(run)] = parents[Int(parents[Int(run)])]
                run = parents[Int(run)]
            }
            return run
        }
        values.withUnsafeBufferPointer { values in
            var previousRows = 0..<0   // the runs of the row above
            for y in 0..<height {
                let line = values.baseAddress! + y * width
                let firstRun = runs.count
                var above = previousRows.lowerBound
                var x = 0
                while x < width {
                    x = ForegroundMask.firstIndex(in: line, from: x, to: width, equalTo: value)
                    guard x < width else { break }
                    let start = x
                    x = ForegroundMask.firstIndex(in: line, from: x, to: width, differentFrom: value)
                    let run = Int32(runs.count)
                    runs.append((Int32(start), Int32(x - 1), Int32(y)))
                    parents.append(run)
                    // Runs above that end left of this one's left diagonal never touch a later run.
                    while above < previousRows.upperBound && Int(runs[above].end) < start - 1 { above += 1 }
                    var candidate = above
                    while candidate < previousRows.upperBound && Int(runs[candidate].start) <= x {
                        let (a, b) = (root(run), root(Int32(candidate)))
                        if a != b { parents[Int(max(a, b))] = min(a, b) }
                        candidate += 1
                    }
                }
                previousRows = firstRun..<runs.count
            }
        }
        var labels = [Int32](repeating: -1, count: values.count)
        var finalLabels = [Int32](repeating: -1, count: runs.count)
        var sizes: [Int] = []
        var touchesFrame: [Bool] = []
        labels.withUnsafeMutableBufferPointer { labels in
            for index in runs.indices {
                let top = Int(root(Int32(index)))
                if finalLabels[top] < 0 {
                    finalLabels[top] = Int32(sizes.count)
                    sizes.append(0)
                    touchesFrame.append(false)
                }
                let label = finalLabels[top], run = runs[index]
                let start = Int(run.start), end = Int(run.end), y = Int(run.row)
                sizes[Int(label)] += end - start + 1
                let nearFrame = start <= frameMargin || end >= width - 1 - frameMargin
                    || y <= frameMargin || y >= height - 1 - frameMargin
                if nearFrame { touchesFrame[Int(label)] = true }
                (labels.baseAddress! + y * width + start).update(repeating: label, count: end - start + 1)
            }
        }
        return (labels, sizes, touchesFrame)
    }

    /// The first index in `start..<end` whose byte in `line` is `value` (or `end`), eight
    /// bytes at a time while none of them is (a word XOR the value has no zero byte: the
    /// test of S. E. Anderson's "Bit Twiddling Hacks"). Masks hold long runs, which a byte
    /// at a time spent most of `regions`' time on.
    @inline(__always)
    private static func firstIndex(in line: UnsafePointer<UInt8>, from start: Int, to end: Int, equalTo value: UInt8) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var x = start
        while x + 8 <= end {
            let word = UnsafeRawPointer(line + x).loadUnaligned(as: UInt64.self) ^ pattern
            guard (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 == 0 else { break }
            x += 8
        }
        while x < end && line[x] != value { x += 1 }
        return x
    }

    /// The first index in `start..<end` whose byte in `line` is not `value` (or `end`),
    /// eight bytes at a time while all of them are.
    @inline(__always)
    private static func firstIndex(in line: UnsafePointer<UInt8>, from start: Int, to end: Int, differentFrom value: UInt8) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var x = start
        while x + 8 <= end && UnsafeRawPointer(line + x).loadUnaligned(as: UInt64.self) == pattern { x += 8 }
        while x < end && line[x] == value { x += 1 }
        return x
    }

    /// Keeps every subject region at least `fraction` of the largest one (several subjects
    /// survive; specks do not) and fills enclosed background holes smaller than
    /// `holeFraction` of the kept area (noise), leaving larger holes (a ring, a wheel) open.
    func cleaned(keepingRegionsAbove fraction: Double, fillingHolesBelow holeFraction: Double) -> ForegroundMask {
        var result = self
        let subject = regions(of: 1)
        guard let largest = subject.sizes.max() else { return result }
        let minimum = Double(largest) * fraction
        var kept = 0
        for index in values.indices where values[index] == 1 {
            if Double(subject.sizes[Int(subject.labels[index])]) < minimum {
                result.values[index] = 0
            } else {
                kept += 1
            }
        }
        return result.fillingHoles(smallerThan: Double(kept) * holeFraction)
    }

    /// This mask with its enclosed background regions (those not touching the frame) of
    /// fewer than `limit` pixels set to subject.
    func fillingHoles(smallerThan limit: Double = .infinity) -> ForegroundMask {
        let holes = regions(of: 0)
        let filled = holes.sizes.indices.map { !holes.touchesFrame[$0] && Double(holes.sizes[$0]) < limit }
        guard filled.contains(true) else { return self }
        var result = self
        result.values.withUnsafeMutableBufferPointer { values in
            holes.labels.withUnsafeBufferPointer { labels in
                filled.withUnsafeBufferPointer { filled in
                    // Labels are -1 exactly where the pixel is subject.
                    for index in 0..<values.count where labels[index] >= 0 && filled[Int(labels[index])] {
                        values[index] = 1
                    }
                }
            }
        }
        return result
    }

    /// The subject with everything its outline encloses: holes filled, also those whose
    /// rim has gaps of a pixel or two (an outline drawing's strokes at a coarse size). A
    /// morphological closing (J. Serra, Image Analysis and Mathematical Morphology, 1982)
    /// with the holes filled between its 3x3 dilation and erosion, joined with the mask
    /// itself, which the erosion takes off along the frame.
    var silhouette: ForegroundMask {
        var result = spreading(1).fillingHoles().spreading(0)
        for index in values.indices where values[index] == 1 { result.values[index] = 1 }
        return result
    }

    /// This mask with every pixel 8-connected to a pixel of `value` set to `value`: a 3x3
    /// dilation of that value, as a pass along the rows and one along the columns. Outside
    /// the frame counts as background, so spreading 0 (an erosion) also clears the frame's pixels.
    func spreading(_ value: UInt8) -> ForegroundMask {
        guard !values.isEmpty else { return self }
        let width = self.width, height = self.height
        // Both passes write every pixel, so neither starts from a copy of the mask.
        var rows = [UInt8](repeating: 0, count: values.count), result = rows
        values.withUnsafeBufferPointer { values in
            rows.withUnsafeMutableBufferPointer { rows in
                // Along the rows: a pixel takes `value` when its left or right neighbour has it.
                for y in 0..<height {
                    let line = values.baseAddress! + y * width, spread = rows.baseAddress! + y * width
                    for x in 0..<width {
                        let (left, right) = (line[max(x - 1, 0)], line[min(x + 1, width - 1)])
                        spread[x] = left == value || right == value ? value : line[x]
                    }
                    if value == 0 { (spread[0], spread[width - 1]) = (0, 0) }
                }
                // Along the columns, a row at a time: the same with the rows above and below.
                result.withUnsafeMutableBufferPointer { result in
                    for y in 0..<height {
                        let above = rows.baseAddress! + max(y - 1, 0) * width, line = rows.baseAddress! + y * width
                        let below = rows.baseAddress! + min(y + 1, height - 1) * width
                        let spread = result.baseAddress! + y * width
                        for x in 0..<width { spread[x] = above[x] == value || below[x] == value ? value : line[x] }
                    }
                    if value == 0 {
                        result.baseAddress!.update(repeating: 0, count: width)
                        (result.baseAddress! + (height - 1) * width).update(repeating: 0, count: width)
                    }
                }
            }
        }
        return ForegroundMask(width: width, height: height, values: result)
    }

    /// This mask without the subject regions, other than the largest, that come within
    /// `margin` pixels of the frame (0: touch it) and over which the mean of
    /// `probabilities` (one per pixel of the same grid, asked for only when there is such a
    /// region) is below `limit`.
    func droppingFrameRegions(below limit: Float, within margin: Int,
                              unlikelyUnder probabilities: () -> [Float]) -> ForegroundMask {
        let subject = regions(of: 1, frameMargin: margin)
        guard let largest = subject.sizes.indices.max(by: { subject.sizes[$0] < subject.sizes[$1] }),
              subject.sizes.indices.contains(where: { $0 != largest && subject.touchesFrame[$0] }) else { return self }
        let probabilities = probabilities()
        var sums = [Float](repeating: 0, count: subject.sizes.count)
        for index in values.indices where values[index] == 1 { sums[Int(subject.labels[index])] += probabilities[index] }
        return removingSubjectRegions(subject.labels) { region in
            region != largest && subject.touchesFrame[region] && sums[region] < limit * Float(subject.sizes[region])
        }
    }

    /// This mask without the subject regions that share no pixel with the subject of
    /// `other` (labels of the same grid).
    func keepingRegions(overlapping other: [UInt8]) -> ForegroundMask {
        let subject = regions(of: 1)
        var overlaps = [Bool](repeating: false, count: subject.sizes.count)
        for index in values.indices where values[index] == 1 && other[index] == 1 {
            overlaps[Int(subject.labels[index])] = true
        }
        return removingSubjectRegions(subject.labels) { !overlaps[$0] }
    }

    /// This mask with the subject regions that `isRemoved` picks (by their number in
    /// `labels`, from `regions(of: 1)`) set to background.
    private func removingSubjectRegions(_ labels: [Int32], where isRemoved: (Int) -> Bool) -> ForegroundMask {
        var result = self
        for index in values.indices where values[index] == 1 && isRemoved(Int(labels[index])) {
            result.values[index] = 0
        }
        return result
    }

    /// Bounding box of the subject as (minX, minY, maxX, maxY), or nil when empty.
    var bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where values[y * width + x] != 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX, maxY)
    }
}
