/// Picks the two colours of a sticker card's background gradient from a palette.
///
/// Rule: start from the dominant colour; pair it with the palette colour that maximises
/// CIEDE2000 distance times the square root of its share (distinct, yet present in the
/// photo rather than a speck). The lighter of the two comes first. A one-colour palette
/// pairs its colour with a lighter or darker tint of itself (±20 L*).
enum GradientRule {
    static func pick(from palette: [PaletteColor]) -> [PaletteColor] {
        guard let first = palette.first else { return [] }
        let firstLab = first.lab
        var partner: PaletteColor?
        var bestScore: Float = 0
        for candidate in palette.dropFirst() {
            let score = firstLab.difference(to: candidate.lab) * Float(candidate.share).squareRoot()
            if score > bestScore {
                bestScore = score
                partner = candidate
            }
        }
        let second = partner ?? {
            var tint = firstLab
            tint.l = firstLab.l > 50 ? firstLab.l - 20 : firstLab.l + 20
            return PaletteColor(tint, share: 0)
        }()
        return second.lab.l > firstLab.l ? [second, first] : [first, second]
    }
}
