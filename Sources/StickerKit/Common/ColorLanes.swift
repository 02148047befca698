/// Eight colours as channel vectors, so per-colour arithmetic (distances to cluster
/// centres, mixture densities) runs on eight colours at once instead of one colour's three
/// channels at a time.
struct ColorLanes {
    let x: SIMD8<Float>, y: SIMD8<Float>, z: SIMD8<Float>

    /// `colors[start ..< start + 8]`, the last colour repeated past the end.
    @inline(__always)
    init(_ colors: UnsafeBufferPointer<SIMD3<Float>>, from start: Int) {
        let last = colors.count - 1
        self.init { colors[min(start + $0, last)] }
    }

    /// The colours `samples[start ..< start + 8]` select, the last one repeated past the end.
    @inline(__always)
    init(_ colors: UnsafeBufferPointer<SIMD3<Float>>, samples: UnsafeBufferPointer<Int32>, from start: Int) {
        let last = samples.count - 1
        self.init { colors[Int(samples[min(start + $0, last)])] }
    }

    /// Lane i holds `color(i)`.
    @inline(__always)
    private init(_ color: (Int) -> SIMD3<Float>) {
        let c = (color(0), color(1), color(2), color(3), color(4), color(5), color(6), color(7))
        x = SIMD8(c.0.x, c.1.x, c.2.x, c.3.x, c.4.x, c.5.x, c.6.x, c.7.x)
        y = SIMD8(c.0.y, c.1.y, c.2.y, c.3.y, c.4.y, c.5.y, c.6.y, c.7.y)
        z = SIMD8(c.0.z, c.1.z, c.2.z, c.3.z, c.4.z, c.5.z, c.6.z, c.7.z)
    }

    /// All of `colors` in blocks of eight.
    static func blocks(of colors: [SIMD3<Float>]) -> [ColorLanes] {
        colors.withUnsafeBufferPointer { colors in
            stride(from: 0, to: colors.count, by: 8).map { ColorLanes(colors, from: $0) }
        }
    }

    /// Per lane, the first nearest of `centers` and its squared distance, exactly as a
    /// scalar loop with `(d * d).sum()` (which adds x and y first) and a strict `<` finds them.
    @inline(__always)
    func nearest(_ centers: [SIMD3<Float>]) -> (SIMD8<Int32>, SIMD8<Float>) {
        var best = SIMD8<Float>(repeating: .infinity)
        var nearest = SIMD8<Int32>()
        for (k, center) in centers.enumerated() {
            let dx = x - center.x, dy = y - center.y, dz = z - center.z
            let distance = dx * dx + dy * dy + dz * dz
            let closer = distance .< best
            best = best.replacing(with: distance, where: closer)
            nearest = nearest.replacing(with: Int32(k), where: closer)
        }
        return (nearest, best)
    }
}
