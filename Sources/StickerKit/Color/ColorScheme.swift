/// The colours of a photo: its dominant palette and a two-colour gradient for a card.
public struct ColorScheme: Sendable, Hashable, Codable {
    /// Dominant colours, most dominant first; shares add up to 1.
    public var palette: [PaletteColor]
    /// Two distinct palette colours for a background gradient, lighter first.
    public var gradient: [PaletteColor]

    public init(palette: [PaletteColor], gradient: [PaletteColor]) {
        self.palette = palette
        self.gradient = gradient
    }
}
