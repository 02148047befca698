import Foundation
import PaletteBenchmark
import StickerKit

/// Measures stickerize's palette on image files: fidelity against a slow reference k-means
/// and median cut (MMCQ), stability between full and half size, determinism and speed.
/// Prints one line per image, then the summary and one PASS/FAIL line per target.
///
///     stickerize-bench palette [--colors N] FILE...
enum PaletteBench {
    static func run(_ arguments: [String]) throws {
        var arguments = arguments
        var count = 5
        if arguments.first == "--colors", arguments.count > 1, let value = Int(arguments[1]) {
            count = value
            arguments.removeFirst(2)
        }
        let extractor = ColorExtractor(count: count)
        var ours = 0.0, kmeans = 0.0, medianCut = 0.0, stability = 0.0, worstStability = 0.0
        var speeds: [Double] = []
        var deterministic = true
        print("image                              ours  k-means  mmcq  half-size dE  ms")
        for path in arguments {
            let decoded = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: path)))
            let samples = LabSamples(decoded.image, longSide: extractor.proxySize)
            let clock = ContinuousClock()
            var palette: [PaletteColor] = []
            let elapsed = clock.measure { for _ in 0..<5 { palette = extractor.palette(of: samples) } }
            let ms = elapsed.milliseconds / 5
            deterministic = deterministic && extractor.palette(of: samples) == palette
            let labs = palette.map(\.lab)
            let f = PaletteFidelity.meanDistance(samples, palette: labs)
            let k = PaletteFidelity.meanDistance(samples, palette: ReferenceKMeans.palette(samples, count: labs.count))
            let m = PaletteFidelity.meanDistance(samples, palette: MedianCut.palette(samples, count: labs.count))
            let half = extractor.palette(of: halfSize(decoded.image)).map(\.lab)
            let s = PaletteFidelity.matchedDistance(labs, half)
            ours += f; kmeans += k; medianCut += m; stability += s
            worstStability = max(worstStability, s)
            speeds.append(ms)
            let name = (path as NSString).lastPathComponent.padding(toLength: 32, withPad: " ", startingAt: 0)
            print(name + String(format: " %6.2f %7.2f %6.2f %9.2f %6.2f", f, k, m, s, ms))
        }
        let n = Double(max(arguments.count, 1))
        speeds.sort()
        let median = speeds.isEmpty ? 0 : speeds[speeds.count / 2]
        print(String(format: "mean fidelity (dE00): ours %.3f, k-means %.3f, mmcq %.3f; half-size %.2f; median %.2f ms",
                     ours / n, kmeans / n, medianCut / n, stability / n, median))
        BenchReport.line("fidelity within 3% of k-means (ours/k-means = \(String(format: "%.3f", ours / kmeans)))", ours <= kmeans * 1.03)
        BenchReport.line("fidelity 15% better than median cut (ours/mmcq = \(String(format: "%.3f", ours / medianCut)))", ours <= medianCut * 0.85)
        BenchReport.line("full vs half size: matched dE00 <= 2 on average for every image (worst \(String(format: "%.2f", worstStability)))",
               worstStability <= 2)
        BenchReport.line("rerun gives identical palettes", deterministic)
        BenchReport.line("palette under 5 ms on the proxy (median \(String(format: "%.2f", median)) ms)", median < 5)
    }
}
