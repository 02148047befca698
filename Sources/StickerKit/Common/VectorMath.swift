/// exp, log, truncation, minimum and maximum on eight floats at once, and a lane-wise
/// loop over two runs of floats, for loops that would otherwise call libm, convert once
/// per lane, call the standard library's generics out of line or stay scalar.
///
/// Both follow the classic scheme of Cephes' expf and logf (S. L. Moshier, "Methods and
/// Programs for Mathematical Functions", 1989): reduce the argument by a power of two,
/// evaluate a polynomial on the small remainder, then scale back. The polynomials here are
/// our own least-squares fits on Chebyshev nodes of the reduced ranges; relative error is
/// about 1e-8 for exp and absolute error about 1e-8 for log, below Float's resolution.
enum VectorMath {
    /// The smaller of each pair of lanes (for lanes that are not NaN, what `pointwiseMin`
    /// gives; the standard library's generic is called out of line from the hot loops).
    @inline(__always)
    static func minimum(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }

    /// The larger of each pair of lanes (see `minimum`).
    @inline(__always)
    static func maximum(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .> a) }

    /// target[i] = combine(target[i], source[i]) for i < count, eight lanes at a time (the
    /// last few as one partly filled vector), for a lane-wise `combine` and runs that do not
    /// overlap: the same results as one element at a time.
    @inline(__always)
    static func combine(_ target: UnsafeMutablePointer<Float>, with source: UnsafePointer<Float>, count: Int,
                        _ combine: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>) {
        let (from, to) = (UnsafeRawPointer(source), UnsafeMutableRawPointer(target))
        var i = 0
        while i + 8 <= count {
            let combined = combine(to.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self),
                                   from.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self))
            to.storeBytes(of: combined, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        guard i < count else { return }
        var (a, b) = (SIMD8<Float>(), SIMD8<Float>())
        for lane in 0..<(count - i) { (a[lane], b[lane]) = (target[i + lane], source[i + lane]) }
        let combined = combine(a, b)
        for lane in 0..<(count - i) { target[i + lane] = combined[lane] }
    }

    /// e^x for x in [-87, 88] (outside it the result overflows or loses all precision).
    @inline(__always)
    static func exp(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // x = n ln2 + r, |r| <= ln2 / 2; n by the round-to-nearest of adding 1.5 x 2^23.
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let shifted = x * 1.442_695_04 + magic
        let n = shifted - magic
        let r = x - n * 0.693_359_375 + n * 2.121_944_4e-4   // ln2 in two parts (Cody-Waite)
        var p: SIMD8<Float> = SIMD8(repeating: 0.001_393_365_23)
        p = p * r + 0.008_363_181_534
        p = p * r + 0.041_666_464_89
        p = p * r + 0.166_665_769_7
        p = p * r + 0.500_000_001_3
        p = p * (r * r) + r + 1
        // 2^n from the integer n, which sits in the low mantissa bits of `shifted`.
        let integer = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let scale = unsafeBitCast((integer &+ 127) &<< 23, to: SIMD8<Float>.self)
        return p * scale
    }

    /// The natural logarithm of positive, normal x.
    @inline(__always)
    static func log(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // x = 2^e m with m in [sqrt(1/2), sqrt(2)), then log(m) = log(1 + f).
        let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
        var exponent = (bits &>> 23) &- 127
        var m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
        let high = m .> 1.414_213_56
        m = m.replacing(with: m * 0.5, where: high)
        exponent = exponent.replacing(with: exponent &+ 1, where: high)
        let f = m - 1
        var q: SIMD8<Float> = SIMD8(repeating: -0.081_031_163)
        q = q * f + 0.127_132_244_4
        q = q * f - 0.129_720_776_5
        q = q * f + 0.142_020_355_4
        q = q * f - 0.166_422_507_7
        q = q * f + 0.200_014_746_8
        q = q * f - 0.250_002_965_6
        q = q * f + 0.333_333_285_3
        let f2 = f * f
        // The exponent as a float, through the same 1.5 x 2^23 trick in reverse.
        let e = unsafeBitCast(exponent &+ 0x4B40_0000, to: SIMD8<Float>.self) - 12_582_912
        return f - 0.5 * f2 + f2 * f * q + e * 0.693_147_18
    }

    /// x rounded toward zero, as integers, for 0 <= x < 2^22 (a checked per-lane conversion
    /// would not vectorise). Adding 1.5 x 2^23 rounds to the nearest integer, which lands
    /// in the low mantissa bits; one less where that rounded up.
    @inline(__always)
    static func truncated(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let shifted = x + magic
        let integer = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        return integer.replacing(with: integer &- 1, where: shifted - magic .> x)
    }
}
