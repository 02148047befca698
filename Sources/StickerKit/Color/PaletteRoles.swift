import FoundationEssentials
import Glibc

/// The six colour roles of Android's Palette library, each with the text colour that reads
/// on it; a role is nil when no colour of the image fits it.
///
/// Targets follow androidx.palette `Target`: lightness targets 0.74 (light, min 0.55),
/// 0.5 (normal, 0.3-0.7) and 0.26 (dark, max 0.45); saturation targets 1 (vibrant, min
/// 0.35) and 0.3 (muted, max 0.4), in HSL. A candidate's score is
/// 0.24 (1 - |s - target|) + 0.52 (1 - |l - target|) + 0.24 population / max population,
/// and each colour serves at most one role, in the order light vibrant, vibrant, dark
/// vibrant, light muted, muted, dark muted.
public struct PaletteRoles: Sendable, Hashable, Codable {
    /// A colour chosen for a role, and the text colour (black or white) with the higher
    /// WCAG 2 contrast ratio on it.
    public struct Swatch: Sendable, Hashable, Codable {
        public var hex: String
        public var rgb: [UInt8]
        public var share: Double
        /// `#000000` or `#ffffff`.
        public var text: String

        init(_ color: PaletteColor) {
            hex = color.hex
            rgb = [color.red, color.green, color.blue]
            share = color.share
            let luminance = color.relativeLuminance
            text = (1.05 / (luminance + 0.05)) >= ((luminance + 0.05) / 0.05) ? "#ffffff" : "#000000"
        }
    }

    public var vibrant: Swatch?
    public var darkVibrant: Swatch?
    public var lightVibrant: Swatch?
    public var muted: Swatch?
    public var darkMuted: Swatch?
    public var lightMuted: Swatch?

    public init() {}

    private struct Target {
        var lightness: (min: Double, target: Double, max: Double)
        var saturation: (min: Double, target: Double, max: Double)
        var role: WritableKeyPath<PaletteRoles, Swatch?>
    }

    private static let light = (0.55, 0.74, 1.0), normal = (0.3, 0.5, 0.7), dark = (0.0, 0.26, 0.45)
    private static let vivid = (0.35, 1.0, 1.0), mute = (0.0, 0.3, 0.4)
    private static var targets: [Target] { [
        Target(lightness: light, saturation: vivid, role: \.lightVibrant),
        Target(lightness: normal, saturation: vivid, role: \.vibrant),
        Target(lightness: dark, saturation: vivid, role: \.darkVibrant),
        Target(lightness: light, saturation: mute, role: \.lightMuted),
        Target(lightness: normal, saturation: mute, role: \.muted),
        Target(lightness: dark, saturation: mute, role: \.darkMuted),
    ] }

    /// Picks each role's colour from `candidates` (a finer quantisation of the image).
    init(choosingFrom candidates: [PaletteColor]) {
        let maximumShare = candidates.map(\.share).max() ?? 1
        var used = Set<String>()
        for target in PaletteRoles.targets {
            var best: (score: Double, color: PaletteColor)?
            for color in candidates where !used.contains(color.hex) {
                let (saturation, lightness) = color.hslSaturationAndLightness
                guard (target.saturation.min...target.saturation.max).contains(saturation),
                      (target.lightness.min...target.lightness.max).contains(lightness) else { continue }
                let score = 0.24 * (1 - abs(saturation - target.saturation.target))
                    + 0.52 * (1 - abs(lightness - target.lightness.target))
                    + 0.24 * color.share / maximumShare
                if best == nil || score > best!.score { best = (score, color) }
            }
            if let best {
                used.insert(best.color.hex)
                self[keyPath: target.role] = Swatch(best.color)
            }
        }
    }

    /// The colours chosen, in role order.
    var colors: [PaletteColor] {
        [lightVibrant, vibrant, darkVibrant, lightMuted, muted, darkMuted].compactMap { swatch in
            swatch.map { PaletteColor(red: $0.rgb[0], green: $0.rgb[1], blue: $0.rgb[2], share: $0.share) }
        }
    }
}

extension PaletteColor {
    /// HSL saturation and lightness in [0, 1].
    var hslSaturationAndLightness: (Double, Double) {
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let high = max(r, g, b), low = min(r, g, b)
        let lightness = (high + low) / 2
        guard high > low else { return (0, lightness) }
        let delta = high - low
        return (delta / (1 - abs(2 * lightness - 1)), lightness)
    }

    /// WCAG 2 relative luminance.
    var relativeLuminance: Double {
        func linear(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }
}
