/// One colour of a palette and the share of (alpha-weighted) pixels it stands for.
public struct PaletteColor: Sendable, Hashable, Codable {
    /// `#rrggbb`, lower case.
    public var hex: String
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Fraction of the image's (alpha-weighted) pixels, 0-1.
    public var share: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, share: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.share = share
        hex = "#" + [red, green, blue].map { $0.hexDigits() }.joined()
    }

    init(_ lab: LabColor, share: Double) {
        let rgb = lab.rgb
        self.init(red: rgb.red, green: rgb.green, blue: rgb.blue, share: share)
    }

    public var lab: LabColor { LabColor(red: red, green: green, blue: blue) }
}
