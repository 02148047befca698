/// The file formats StickerKit decodes, recognised by content (magic bytes), not by name.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg
    case webp

    /// The format whose signature starts `bytes`, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(ImageFormat.signatureLength))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// File name extensions that mark an image when a folder is walked.
    public static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "jfif", "webp"]

    /// Bytes `init(sniffing:)` looks at.
    public static let signatureLength = 12
}
