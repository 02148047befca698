/// Removes the old background's colour from semi-transparent edge pixels.
///
/// Compositing says I = alpha F + (1 - alpha) B. With B estimated as the local mean of the
/// pixels that are background (a normalised box convolution weighted by 1 - alpha), the
/// foreground colour is F = (I - (1 - alpha) B) / alpha, so a sticker pasted on a new
/// background shows no halo of the old one. O(N).
enum EdgeDecontamination {
    /// `colors` holds 4 interleaved channels per pixel (R, G, B, unused), 0-255.
    static func apply(colors: inout [Float], alpha: [Float], width: Int, height: Int, radius: Int) {
        let count = alpha.count
        var weight = [Float](repeating: 0, count: count)
        var channels = [[Float]](repeating: [Float](repeating: 0, count: count), count: 3)
        for i in 0..<count {
            let w = (1 - alpha[i]) * (1 - alpha[i])
            weight[i] = w
            for c in 0..<3 { channels[c][i] = w * colors[i * 4 + c] }
        }
        let meanWeight = BoxFilter.mean(weight, width: width, height: height, radius: radius)
        let background = channels.map { BoxFilter.mean($0, width: width, height: height, radius: radius) }
        for i in 0..<count where alpha[i] > 0.02 && alpha[i] < 0.98 && meanWeight[i] > 1e-4 {
            let a = alpha[i]
            for c in 0..<3 {
                let b = background[c][i] / meanWeight[i]
                colors[i * 4 + c] = min(255, max(0, (colors[i * 4 + c] - (1 - a) * b) / a))
            }
        }
    }
}
