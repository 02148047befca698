/// The colours of a photo and of its sticker.
public struct ColorScheme: Sendable, Hashable, Codable {
    /// Dominant colours of the whole photo, most dominant first; shares add up to 1.
    public var palette: [PaletteColor]
    /// Android Palette roles of the photo (vibrant, muted, ... with text colours).
    public var roles: PaletteRoles
    /// Dominant colours of the sticker alone (alpha-weighted): the subject's colours.
    public var subject: [PaletteColor]
    /// Two colours for the card behind the sticker, lighter first (see `GradientRule`).
    public var gradient: [PaletteColor]

    public init(palette: [PaletteColor], roles: PaletteRoles, subject: [PaletteColor], gradient: [PaletteColor]) {
        self.palette = palette
        self.roles = roles
        self.subject = subject
        self.gradient = gradient
    }
}
