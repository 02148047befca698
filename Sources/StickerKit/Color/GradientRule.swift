/// Picks the two colours of the card gradient a sticker is shown on.
///
/// Candidates are the photo's palette and role colours (so the card belongs to the photo).
/// A candidate's contrast is its share-weighted mean CIEDE2000 distance from the subject's
/// colours, and its score is contrast x (0.5 + share): far from the subject so the sticker
/// stands out, yet present in the photo. The first colour is the best-scoring candidate;
/// the second is the best-scoring other candidate at least 12 units from the first and
/// with at least half the first's contrast, with min(distance to the first, 30) added to
/// its score so the two are visibly distinct. When no candidate qualifies, the second is
/// the first lightened or darkened by 20 L*.
/// The lighter colour comes first.
public enum GradientRule {
    static let minimumDistance: Float = 12

    public static func pick(candidates: [PaletteColor], subject: [PaletteColor]) -> [PaletteColor] {
        var unique: [PaletteColor] = []
        for candidate in candidates where !unique.contains(where: { $0.hex == candidate.hex }) { unique.append(candidate) }
        guard !unique.isEmpty else { return [] }
        let subjectLabs = subject.map { ($0.lab, Float($0.share)) }
        let contrast = { (color: PaletteColor) -> Float in
            let lab = color.lab
            return subjectLabs.isEmpty ? 1 : subjectLabs.reduce(Float(0)) { $0 + $1.1 * lab.difference(to: $1.0) }
        }
        let contrasts = unique.map(contrast)
        let scores = unique.indices.map { contrasts[$0] * (0.5 + Float(unique[$0].share)) }
        let firstIndex = scores.indices.max { (scores[$0], $1) < (scores[$1], $0) }!
        let first = unique[firstIndex]
        let firstLab = first.lab
        var second: PaletteColor?
        var bestScore = -Float.infinity
        for (index, candidate) in unique.enumerated() where index != firstIndex {
            let distance = firstLab.difference(to: candidate.lab)
            guard distance >= minimumDistance, contrasts[index] >= contrasts[firstIndex] / 2 else { continue }
            let total = scores[index] + min(distance, 30)
            if total > bestScore {
                bestScore = total
                second = candidate
            }
        }
        let partner = second ?? {
            var tint = firstLab
            tint.l = firstLab.l > 50 ? firstLab.l - 20 : firstLab.l + 20
            return PaletteColor(tint, share: 0)
        }()
        return partner.lab.l > firstLab.l ? [partner, first] : [first, partner]
    }
}
