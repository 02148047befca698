/// Why an image could not be decoded or encoded, with a message a person can act on.
public enum CodecError: Error, Equatable, CustomStringConvertible {
    /// The bytes are empty or not PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC or AVIF.
    case unrecognizedFormat
    /// The library rejected the data (truncated, bad CRC, broken Huffman table...).
    case corrupt(reason: String)
    /// The header asks for more pixels than the budget allows; refused before allocation.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A valid file of a kind this build does not read (12-bit JPEG, odd colour spaces).
    case unsupported(reason: String)
    case outOfMemory

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            return "not a PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC or AVIF image"
        case .corrupt(let reason):
            return "corrupt image: \(reason)"
        case .tooManyPixels(let width, let height, let limit):
            return "image is \(width)x\(height) (\(width * height) pixels), over the pixel budget of \(limit) (--max-pixels)"
        case .unsupported(let reason):
            return "unsupported image: \(reason)"
        case .outOfMemory:
            return "out of memory while decoding"
        }
    }
}
