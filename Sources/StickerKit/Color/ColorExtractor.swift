/// Extracts a photo's dominant colours.
///
/// Weighted k-means (Lloyd) in CIELAB on a small area-averaged proxy, seeded with
/// k-means++ from a fixed seed and restarted a few times (the lowest weighted error wins),
/// so the same pixels always give the same palette. Transparent pixels weigh nothing.
/// Clusters closer than 3 CIEDE2000 units are merged, and specks (under 2% of the weight,
/// such as the blend along an edge) fold into their nearest cluster.
/// O(restarts x iterations x k x proxy).
///
///     let scheme = ColorExtractor().extract(from: image)
///     scheme.palette.first?.hex   // "#d8442e"
public struct ColorExtractor: Sendable {
    /// Number of palette colours asked for (fewer come back when colours merge).
    public var count: Int
    /// Long side of the proxy the clustering runs on.
    public var proxySize: Int

    static let restarts = 4
    static let maximumIterations = 30
    static let mergeDistance: Float = 3
    static let minimumShare: Float = 0.02

    public init(count: Int = 5, proxySize: Int = 96) {
        self.count = count
        self.proxySize = proxySize
    }

    public func extract(from image: RGBAImage) -> ColorScheme {
        let samples = LabSamples(image, longSide: proxySize)
        guard samples.totalWeight > 0, count > 0 else { return ColorScheme(palette: [], gradient: []) }
        let clusters = WeightedKMeans.cluster(samples, count: count, restarts: ColorExtractor.restarts,
                                              maximumIterations: ColorExtractor.maximumIterations)
        let palette = ColorExtractor.merged(clusters, within: ColorExtractor.mergeDistance,
                                            minimumWeight: ColorExtractor.minimumShare * samples.totalWeight)
            .map { PaletteColor(LabColor($0.center), share: Double($0.weight / samples.totalWeight)) }
        return ColorScheme(palette: palette, gradient: GradientRule.pick(from: palette))
    }

    /// Merges clusters closer than `distance` (CIEDE2000), heaviest first, then folds
    /// clusters lighter than `minimumWeight` into their nearest kept cluster's weight.
    static func merged(_ clusters: [WeightedKMeans.Cluster], within distance: Float,
                       minimumWeight: Float) -> [WeightedKMeans.Cluster] {
        var result: [WeightedKMeans.Cluster] = []
        var specks: [WeightedKMeans.Cluster] = []
        for cluster in clusters.sorted(by: WeightedKMeans.Cluster.heavierFirst) {
            if let index = nearest(to: cluster, in: result, within: distance) {
                let total = result[index].weight + cluster.weight
                result[index].center = (result[index].center * result[index].weight + cluster.center * cluster.weight) / total
                result[index].weight = total
            } else if cluster.weight < minimumWeight && !result.isEmpty {
                specks.append(cluster)
            } else {
                result.append(cluster)
            }
        }
        for speck in specks {
            if let index = nearest(to: speck, in: result, within: .infinity) { result[index].weight += speck.weight }
        }
        return result.sorted(by: WeightedKMeans.Cluster.heavierFirst)
    }

    private static func nearest(to cluster: WeightedKMeans.Cluster, in clusters: [WeightedKMeans.Cluster],
                                within distance: Float) -> Int? {
        let lab = LabColor(cluster.center)
        let differences = clusters.map { LabColor($0.center).difference(to: lab) }
        guard let best = differences.indices.min(by: { differences[$0] < differences[$1] }),
              differences[best] < distance else { return nil }
        return best
    }
}
