/// The file formats StickerKit decodes, recognised by content (magic bytes), not by name.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png
    case jpeg
    case webp
    /// TIFF (and BigTIFF): the first image of the file.
    case tiff
    /// GIF: the first frame (of an animation too).
    case gif
    /// JPEG XL (a bare codestream or the ISO BMFF container): the first frame; decoded when
    /// libjxl is installed.
    case jxl
    /// HEIC/HEIF, and AVIF (HEIF's container around AV1): decoded when libheif is installed.
    case heif

    /// The format whose signature starts `bytes`, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(ImageFormat.signatureLength))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else if ImageFormat.tiffSignatures.contains(where: head.starts(with:)) {
            self = .tiff
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if head.starts(with: [0xFF, 0x0A]) || head.starts(with: ImageFormat.jxlContainerSignature) {
            self = .jxl
        } else if head.count == 12, head[4..<8].elementsEqual("ftyp".utf8),
                  ImageFormat.heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) {
            self = .heif
        } else {
            return nil
        }
    }

    /// File name extensions that mark an image when a folder is walked.
    public static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "jfif", "webp", "tif", "tiff", "gif",
                                                        "jxl", "heic", "heif", "avif"]

    /// Byte order and version: TIFF's 42 and BigTIFF's 43, little- and big-endian.
    static let tiffSignatures: [[UInt8]] = [[0x49, 0x49, 42, 0], [0x4D, 0x4D, 0, 42], [0x49, 0x49, 43, 0], [0x4D, 0x4D, 0, 43]]

    /// The JPEG XL container's first box: a 12-byte 'JXL ' signature box (ISO/IEC 18181-2).
    static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// ISO BMFF major brands of HEIF and AVIF still images (and of AVIF sequences, whose
    /// primary image is read).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "mif1", "msf1", "avif", "avis"]

    /// Bytes `init(sniffing:)` looks at.
    public static let signatureLength = 12
}
