/// Extracts the dominant colours of an image (alpha-weighted) and its Android-Palette-style
/// roles.
///
/// Palette: weighted k-means (Lloyd) in CIELAB on a small area-averaged proxy, seeded
/// deterministically from a coarse colour histogram (`WeightedKMeans`), so the same pixels
/// always give the same palette. Transparent pixels weigh nothing.
/// Clusters closer than 3 CIEDE2000 units are merged, and specks (under 2% of the weight,
/// such as the blend along an edge) fold into their nearest cluster.
/// O(iterations x k x proxy).
///
///     let palette = ColorExtractor().palette(of: image)
///     palette.first?.hex   // "#d8442e"
public struct ColorExtractor: Sendable {
    /// Number of palette colours asked for (fewer come back when colours merge).
    public var count: Int
    /// Long side of the proxy the clustering runs on.
    public var proxySize: Int

    static let maximumIterations = 30
    static let mergeDistance: Float = 3
    static let minimumShare: Float = 0.02
    /// The finer quantisation roles are chosen from.
    static let roleClusters = 16

    public init(count: Int = 5, proxySize: Int = 96) {
        self.count = count
        self.proxySize = proxySize
    }

    /// The dominant colours, most dominant first; shares sum to 1 (empty when fully transparent).
    public func palette(of image: RGBAImage) -> [PaletteColor] {
        palette(of: LabSamples(image, longSide: proxySize))
    }

    /// The palette and the roles of one image, sharing one proxy.
    public func paletteAndRoles(of image: RGBAImage) -> ([PaletteColor], PaletteRoles) {
        paletteAndRoles(of: LabSamples(image, longSide: proxySize))
    }

    /// The palette and the roles of an opaque photo, from its working-size copy.
    func paletteAndRoles(of image: WorkingImage) -> ([PaletteColor], PaletteRoles) {
        paletteAndRoles(of: LabSamples(image, longSide: proxySize))
    }

    private func paletteAndRoles(of samples: LabSamples) -> ([PaletteColor], PaletteRoles) {
        let fine = ColorExtractor(count: ColorExtractor.roleClusters, proxySize: proxySize)
        return (palette(of: samples), PaletteRoles(choosingFrom: fine.palette(of: samples)))
    }

    public func palette(of samples: LabSamples) -> [PaletteColor] {
        guard samples.totalWeight > 0, count > 0 else { return [] }
        let clusters = WeightedKMeans.cluster(samples, count: count, maximumIterations: ColorExtractor.maximumIterations)
        return ColorExtractor.merged(clusters, within: ColorExtractor.mergeDistance,
                                     minimumWeight: ColorExtractor.minimumShare * samples.totalWeight)
            .map { PaletteColor(LabColor($0.center), share: Double($0.weight / samples.totalWeight)) }
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
