/// A binary subject mask at working size: 1 for subject, 0 for background.
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

    /// The number of subject pixels among `labels` (0 or 1 each).
    static func area(of labels: [UInt8]) -> Int { labels.reduce(0) { $0 + Int($1) } }

    /// Labels 8-connected regions whose value equals `value`; returns the label of every
    /// pixel (-1 for other pixels) and each region's size and whether it touches the frame.
    func regions(of value: UInt8) -> (labels: [Int32], sizes: [Int], touchesFrame: [Bool]) {
        var labels = [Int32](repeating: -1, count: values.count)
        var sizes: [Int] = []
        var touchesFrame: [Bool] = []
        var stack: [SIMD2<Int32>] = []   // (x, y) of pixels labelled but not yet expanded
        let width = self.width, height = self.height
        values.withUnsafeBufferPointer { values in
            labels.withUnsafeMutableBufferPointer { labels in
                for start in values.indices where values[start] == value && labels[start] < 0 {
                    let label = Int32(sizes.count)
                    var size = 0
                    var touches = false
                    labels[start] = label
                    stack.append(SIMD2(Int32(start % width), Int32(start / width)))
                    while let pixel = stack.popLast() {
                        size += 1
                        let x = Int(pixel.x), y = Int(pixel.y)
                        if x == 0 || y == 0 || x == width - 1 || y == height - 1 { touches = true }
                        for ny in max(0, y - 1)...min(height - 1, y + 1) {
                            for nx in max(0, x - 1)...min(width - 1, x + 1) {
                                let neighbour = ny * width + nx
                                if values[neighbour] == value && labels[neighbour] < 0 {
                                    labels[neighbour] = label
                                    stack.append(SIMD2(Int32(nx), Int32(ny)))
                                }
                            }
                        }
                    }
                    sizes.append(size)
                    touchesFrame.append(touches)
                }
            }
        }
        return (labels, sizes, touchesFrame)
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
        let holes = result.regions(of: 0)
        let holeLimit = Double(kept) * holeFraction
        for index in values.indices where result.values[index] == 0 {
            let label = Int(holes.labels[index])
            if !holes.touchesFrame[label] && Double(holes.sizes[label]) < holeLimit {
                result.values[index] = 1
            }
        }
        return result
    }

    /// This mask without the subject regions that share no pixel with the subject of
    /// `other` (labels of the same grid).
    func keepingRegions(overlapping other: [UInt8]) -> ForegroundMask {
        let subject = regions(of: 1)
        var overlaps = [Bool](repeating: false, count: subject.sizes.count)
        for index in values.indices where values[index] == 1 && other[index] == 1 {
            overlaps[Int(subject.labels[index])] = true
        }
        var result = self
        for index in values.indices where values[index] == 1 && !overlaps[Int(subject.labels[index])] {
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
