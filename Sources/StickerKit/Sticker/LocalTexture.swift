import FoundationEssentials

/// How much fine detail surrounds each pixel: the cue that tells a subject in focus from a
/// blurred background, or a smooth subject from bark, rock or grass around it, where their
/// colours overlap. It joins the colour in GrabCut's mixtures (`FeatureMixtureModel`), so
/// each label learns which textures go with which colours in this photo.
///
/// Per pixel: the mean absolute deviation of the brightness from its 3x3 mean, averaged
/// over 5x5, then the minimum over 5x5 (a grey-scale erosion, J. Serra, "Image Analysis
/// and Mathematical Morphology", 1982), so that a step edge, which looks like texture on
/// both sides of it, does not count as texture on its smooth side. Stored as
/// `weight` x ln(1 + energy), in the units of the colour channels (0-255).
enum LocalTexture {
    /// Feature units per e-fold of texture energy: background and subject medians sit
    /// one to two e-folds apart where the cue helps, against colour spreads of 10-30 units.
    static let weight: Float = 20

    static func features(of image: WorkingImage) -> [Float] {
        let width = image.width, height = image.height
        guard width * height > 0 else { return [] }
        // Flat loops rather than `map`, which the optimizer left appending one element at a time.
        let count = width * height
        let brightness = [Float](unsafeUninitializedCapacity: count) { brightness, initialized in
            image.colors.withUnsafeBufferPointer { colors in
                for i in 0..<count { brightness[i] = (colors[i].x + colors[i].y + colors[i].z) / 3 }
            }
            initialized = count
        }
        let local = BoxFilter.mean(brightness, width: width, height: height, radius: 1)
        let deviation = [Float](unsafeUninitializedCapacity: count) { deviation, initialized in
            for i in 0..<count { deviation[i] = abs(brightness[i] - local[i]) }
            initialized = count
        }
        let energy = minimum(BoxFilter.mean(deviation, width: width, height: height, radius: 2),
                             width: width, height: height, radius: 2)
        var features = [Float](repeating: 0, count: energy.count)
        energy.withUnsafeBufferPointer { energy in
            features.withUnsafeMutableBufferPointer { features in
                let feature = { (energy: SIMD8<Float>) in weight * VectorMath.log(energy + 1) }
                let source = UnsafeRawPointer(energy.baseAddress!), target = UnsafeMutableRawPointer(features.baseAddress!)
                var start = 0
                while start + 8 <= energy.count {
                    let lanes = source.loadUnaligned(fromByteOffset: start * 4, as: SIMD8<Float>.self)
                    target.storeBytes(of: feature(lanes), toByteOffset: start * 4, as: SIMD8<Float>.self)
                    start += 8
                }
                if start < energy.count {
                    var lanes = SIMD8<Float>(repeating: 0)
                    for lane in 0..<(energy.count - start) { lanes[lane] = energy[start + lane] }
                    let scaled = feature(lanes)
                    for lane in 0..<(energy.count - start) { features[start + lane] = scaled[lane] }
                }
            }
        }
        return features
    }

    /// Minimum over a (2r+1) x (2r+1) window clipped at the edges: along rows, then along
    /// columns, each as element-wise minima with shifted copies, eight floats at a time.
    static func minimum(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        guard radius > 0 else { return plane }
        var rows = plane
        plane.withUnsafeBufferPointer { plane in
            rows.withUnsafeMutableBufferPointer { rows in
                let (source, target) = (plane.baseAddress!, rows.baseAddress!)
                for row in stride(from: 0, to: plane.count, by: width) {
                    for shift in 1...radius where shift < width {
                        VectorMath.combine(target + row, with: source + row + shift, count: width - shift, VectorMath.minimum)
                        VectorMath.combine(target + row + shift, with: source + row, count: width - shift, VectorMath.minimum)
                    }
                }
            }
        }
        var output = rows
        rows.withUnsafeBufferPointer { rows in
            output.withUnsafeMutableBufferPointer { output in
                let (source, target) = (rows.baseAddress!, output.baseAddress!)
                for shift in 1...radius where shift < height {
                    let offset = shift * width
                    VectorMath.combine(target, with: source + offset, count: rows.count - offset, VectorMath.minimum)
                    VectorMath.combine(target + offset, with: source, count: rows.count - offset, VectorMath.minimum)
                }
            }
        }
        return output
    }
}
