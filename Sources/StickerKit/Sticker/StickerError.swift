/// Why no sticker could be made from a decoded photo.
public enum StickerError: Error, Equatable, CustomStringConvertible {
    /// Nothing in the photo stands out from its background (or everything is transparent).
    case noSubjectFound

    public var description: String {
        switch self {
        case .noSubjectFound: return "no subject found"
        }
    }
}
