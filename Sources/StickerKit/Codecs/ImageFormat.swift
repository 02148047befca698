/// The file formats StickerKit decodes, recognised by content (magic bytes), not by name.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg

    /// The format whose signature starts `bytes`, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// File name extensions that mark an image when a folder is walked.
    public static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "jfif"]
}
