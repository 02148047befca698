/// Eight colours as channel vectors, so per-colour arithmetic (distances to cluster
/// centres, mixture densities) runs on eight colours at once instead of one colour's three
/// channels at a time. A fourth channel carries a per-pixel feature beside the colour
/// (local texture, in `FeatureMixtureModel`); it is zero for plain colours.
struct ColorLanes {
    let x: SIMD8<Float>, y: SIMD8<Float>, z: SIMD8<Float>, w: SIMD8<Float>

    /// `colors[start ..< start + 8]`, the last colour repeated past the end.
    @inline(__always)
    init(_ colors: UnsafeBufferPointer<SIMD3<Float>>, from start: Int) {
        let last = colors.count - 1
        self.init { SIMD4(colors[min(start + $0, last)], 0) }
    }

    /// `features[start ..< start + 8]`, the last one repeated past the end.
    @inline(__always)
    init(_ features: UnsafeBufferPointer<SIMD4<Float>>, from start: Int) {
        let last = features.count - 1
        self.init { features[min(start + $0, last)] }
    }

    /// The features `samples[start ..< start + 8]` select, the last one repeated past the end.
    @inline(__always)
    init(_ features: UnsafeBufferPointer<SIMD4<Float>>, samples: UnsafeBufferPointer<Int32>, from start: Int) {
        let last = samples.count - 1
        self.init { features[Int(samples[min(start + $0, last)])] }
    }

    /// Lane i holds `feature(i)`.
    @inline(__always)
    private init(_ feature: (Int) -> SIMD4<Float>) {
        let c = (feature(0), feature(1), feature(2), feature(3), feature(4), feature(5), feature(6), feature(7))
        x = SIMD8(c.0.x, c.1.x, c.2.x, c.3.x, c.4.x, c.5.x, c.6.x, c.7.x)
        y = SIMD8(c.0.y, c.1.y, c.2.y, c.3.y, c.4.y, c.5.y, c.6.y, c.7.y)
        z = SIMD8(c.0.z, c.1.z, c.2.z, c.3.z, c.4.z, c.5.z, c.6.z, c.7.z)
        w = SIMD8(c.0.w, c.1.w, c.2.w, c.3.w, c.4.w, c.5.w, c.6.w, c.7.w)
    }

    /// All of `colors` in blocks of eight.
    static func blocks(of colors: [SIMD3<Float>]) -> [ColorLanes] {
        colors.withUnsafeBufferPointer { colors in
            stride(from: 0, to: colors.count, by: 8).map { ColorLanes(colors, from: $0) }
        }
    }

    /// All of `features` in blocks of eight.
    static func blocks(of features: [SIMD4<Float>]) -> [ColorLanes] {
        features.withUnsafeBufferPointer { features in
            stride(from: 0, to: features.count, by: 8).map { ColorLanes(features, from: $0) }
        }
    }

    /// Per lane, the first nearest of `centers` (colours: the fourth channel is ignored),
    /// exactly as a scalar loop with `(d * d).sum()` (which adds x and y first) and a
    /// strict `<` finds it.
    @inline(__always)
    func nearest(_ centers: [SIMD3<Float>]) -> SIMD8<Int32> {
        var best = SIMD8<Float>(repeating: .infinity)
        var nearest = SIMD8<Int32>()
        for (k, center) in centers.enumerated() {
            let dx = x - center.x, dy = y - center.y, dz = z - center.z
            let distance = dx * dx + dy * dy + dz * dz
            let closer = distance .< best
            best = best.replacing(with: distance, where: closer)
            nearest = nearest.replacing(with: Int32(k), where: closer)
        }
        return nearest
    }

    /// Per lane, the first nearest of `centers` over all four channels.
    @inline(__always)
    func nearest(_ centers: [SIMD4<Float>]) -> SIMD8<Int32> {
        var best = SIMD8<Float>(repeating: .infinity)
        var nearest = SIMD8<Int32>()
        for (k, center) in centers.enumerated() {
            let dx = x - center.x, dy = y - center.y, dz = z - center.z, dw = w - center.w
            let distance = dx * dx + dy * dy + dz * dz + dw * dw
            let closer = distance .< best
            best = best.replacing(with: distance, where: closer)
            nearest = nearest.replacing(with: Int32(k), where: closer)
        }
        return nearest
    }
}
