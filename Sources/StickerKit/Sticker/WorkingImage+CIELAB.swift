import CVectorKernels

extension WorkingImage {
    /// The same pixels in CIELAB (D65 white), as the segmenter's colour models and contrast
    /// term see them: 116 f(Y), 500 (f(X) - f(Y)), 200 (f(Y) - f(Z)), each times 255 / 116
    /// so lightness spans RGB's 0-255 and the models' units (variance floor, texture weight,
    /// frame prior) keep their meaning. L* is kept without its offset of -16, so darkening
    /// a colour scales all three coordinates alike (by the cube root of the factor in
    /// linear light, away from the darkest shades), which the shadowed density assumes.
    ///
    /// `LabColor`'s conversion (IEC 61966-2-1's sRGB, CIE 15's XYZ and f), with its two
    /// curves read from tables by linear interpolation: a sixteenth of a grey level apart
    /// for sRGB's, 1/4096 apart for f (under 1e-5 from the curve). In RGB, a subject and a
    /// background that differ mostly in hue (a tawny lion before an orange sky, a red car
    /// before brown concrete) are about as far apart as two shades of one colour; CIELAB's
    /// opponent axes set them apart. Validation seeds 1-4 / 5-12, mean over the shipped
    /// inputs and two perturbed copies: 0.9157 / 0.9008 mIoU in RGB, 0.9159 / 0.9112 in
    /// CIELAB (see docs/measurements.md).
    ///
    /// Eight pixels at a time: the arithmetic in vector lanes, the table reads per lane,
    /// in the same order of operations as one pixel at a time (the same bits). With AVX2
    /// (`kernel`), the C kernel `cielab_avx2` converts all but the last few pixels with the
    /// same operations and gathers for the table reads (the bench's 640x480 photos 5-6%
    /// faster).
    func inCIELAB(kernel: VectorKernel = .fastest) -> WorkingImage {
        let count = colors.count
        let constants = WorkingImage.cielabConstants
        let converted = [SIMD3<Float>](unsafeUninitializedCapacity: count) { lab, initialized in
            WorkingImage.linearTable.withUnsafeBufferPointer { linearTable in
                WorkingImage.fTable.withUnsafeBufferPointer { fTable in
                    colors.withUnsafeBufferPointer { colors in
                        var start = 0
                        if kernel == .avx2 {
                            start = count / 8 * 8
                            withUnsafePointer(to: constants) { constants in
                                cielab_avx2(UnsafeRawPointer(colors.baseAddress!).assumingMemoryBound(to: Float.self),
                                            UnsafeMutableRawPointer(lab.baseAddress!).assumingMemoryBound(to: Float.self),
                                            start, constants, linearTable.baseAddress, Int32(linearTable.count),
                                            fTable.baseAddress, Int32(fTable.count))
                            }
                        }
                        let m = constants.to_xyz
                        while start < count {
                            let lanes = min(8, count - start)
                            var r = SIMD8<Float>(), g = SIMD8<Float>(), b = SIMD8<Float>()
                            for lane in 0..<lanes {
                                let color = colors[start + lane]
                                (r[lane], g[lane], b[lane]) = (color.x, color.y, color.z)
                            }
                            r = interpolated(linearTable, r * constants.to_linear)
                            g = interpolated(linearTable, g * constants.to_linear)
                            b = interpolated(linearTable, b * constants.to_linear)
                            let x = interpolated(fTable, (m.0 * r + m.1 * g + m.2 * b) * constants.to_fx)
                            let y = interpolated(fTable, (m.3 * r + m.4 * g + m.5 * b) * constants.to_f)
                            let z = interpolated(fTable, (m.6 * r + m.7 * g + m.8 * b) * constants.to_fz)
                            let (l, a, bb) = (constants.l_scale * y, constants.a_scale * (x - y), constants.b_scale * (y - z))
                            for lane in 0..<lanes { lab[start + lane] = SIMD3(l[lane], a[lane], bb[lane]) }
                            start += lanes
                        }
                    }
                }
            }
            initialized = count
        }
        return WorkingImage(width: width, height: height, colors: converted, scale: scale)
    }

    /// The conversion's numbers, shared with the C kernel: the tables' steps (f's over the
    /// white point's X and Z for those two), the units, and sRGB's linear RGB to XYZ.
    private static let cielabConstants: cielab_constants = {
        let units = Float(255) / 116
        return cielab_constants(
            to_linear: linearSteps, to_f: fSteps, to_fx: fSteps / 0.950_47, to_fz: fSteps / 1.088_83,
            l_scale: 116 * units, a_scale: 500 * units, b_scale: 200 * units,
            to_xyz: (0.412_456_4, 0.357_576_1, 0.180_437_5,
                     0.212_672_9, 0.715_152_2, 0.072_175_0,
                     0.019_333_9, 0.119_192_0, 0.950_304_1))
    }()

    /// Table entries per grey level of sRGB's curve.
    private static let linearSteps: Float = 16
    /// sRGB's curve from 0 to 255 (one entry past it, so the last step interpolates).
    private static let linearTable: [Float] = (0...(255 * 16 + 1)).map { LabColor.linear(Float($0) / linearSteps) }
    /// Table entries per unit of f's argument.
    private static let fSteps: Float = 4096
    /// f from 0 to just past 1 (X / Xn of sRGB's white; Y and Z / Zn end at 1).
    private static let fTable: [Float] = (0...(4096 + 64)).map { LabColor.f(Float($0) / fSteps) }
}

/// `table` read at each lane's fractional `position`, by linear interpolation, clamped to
/// its ends.
@inline(__always)
private func interpolated(_ table: UnsafeBufferPointer<Float>, _ position: SIMD8<Float>) -> SIMD8<Float> {
    let clamped = VectorMath.minimum(VectorMath.maximum(position, .zero), SIMD8(repeating: Float(table.count - 2)))
    let index = VectorMath.truncated(clamped)
    var low = SIMD8<Float>(), high = SIMD8<Float>(), fraction = SIMD8<Float>()
    let entries = table.baseAddress!
    for lane in 0..<8 {
        let entry = Int(index[lane])
        (low[lane], high[lane]) = (entries[entry], entries[entry + 1])
        fraction[lane] = clamped[lane] - Float(entry)
    }
    return low + (high - low) * fraction
}
