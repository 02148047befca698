/// Removes the old background's colour from semi-transparent edge pixels.
///
/// Compositing says I = alpha F + (1 - alpha) B. With B estimated as the local mean of the
/// pixels that are background (a normalised box convolution weighted by (1 - alpha)^2,
/// computed on planes shrunk by `subsampling`, since B varies slowly), the foreground
/// colour is F = (I - (1 - alpha) B) / alpha, so a sticker pasted on a new background
/// shows no halo of the old one. Only pixels with 0 < alpha < 1 change. O(N).
enum EdgeDecontamination {
    /// `colors` holds 4 interleaved channels per pixel (R, G, B, unused), 0-255.
    static func apply(colors: inout [Float], alpha: [Float], width: Int, height: Int, radius: Int, subsampling: Int) {
        let count = alpha.count
        guard alpha.contains(where: { $0 > 0.02 && $0 < 0.98 }) else { return }
        var planes = [[Float]](repeating: [Float](repeating: 0, count: count), count: 4)
        for i in 0..<count {
            let w = (1 - alpha[i]) * (1 - alpha[i])
            planes[3][i] = w
            for c in 0..<3 { planes[c][i] = w * colors[i * 4 + c] }
        }
        let s = max(1, subsampling)
        let lowWidth = max(1, (width + s - 1) / s), lowHeight = max(1, (height + s - 1) / s)
        let means = planes.map { plane in
            let low = Resampler.scalePlane(plane, width: width, height: height, toWidth: lowWidth, toHeight: lowHeight)
            let mean = BoxFilter.mean(low, width: lowWidth, height: lowHeight, radius: max(1, radius / s))
            return Resampler.scalePlane(mean, width: lowWidth, height: lowHeight, toWidth: width, toHeight: height)
        }
        for i in 0..<count where alpha[i] > 0.02 && alpha[i] < 0.98 && means[3][i] > 1e-4 {
            let a = alpha[i]
            for c in 0..<3 {
                let b = means[c][i] / means[3][i]
                colors[i * 4 + c] = min(255, max(0, (colors[i * 4 + c] - (1 - a) * b) / a))
            }
        }
    }
}
