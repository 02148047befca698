/// What kind of failure an input met, as a stable word for scripts (`failure` in the
/// manifest, `--json` and `--list --json`) beside the `error` line written for people,
/// whose wording may change: `jq 'select(.failure == "corrupt")'`.
public enum FailureKind: String, Sendable, Codable, CaseIterable {
    /// The file could not be opened or read, or is not a regular file.
    case unreadable
    /// Empty, or in no format stickerize reads.
    case notAnImage = "not-an-image"
    /// Damaged or truncated image data.
    case corrupt
    /// A kind of image stickerize does not decode (a 12-bit JPEG, a format whose library
    /// is not installed).
    case unsupported
    /// Over the pixel budget (`--max-pixels`), or more than memory allows.
    case tooLarge = "too-large"
    /// Nothing in the photo stands out from its background.
    case noSubject = "no-subject"
    /// The sticker cannot meet its preset's byte limit.
    case overPresetLimit = "over-preset-limit"
    /// An output could not be written.
    case unwritable
    /// The input lies inside an output folder, where an output could replace it.
    case insideOutputFolder = "inside-output-folder"
    /// Anything else (an error of a caller's own `PhotoProcessing`).
    case other

    public init(_ error: any Error) {
        switch error {
        case InputFileError.empty: self = .notAnImage
        case is InputFileError: self = .unreadable
        case CodecError.unrecognizedFormat: self = .notAnImage
        case CodecError.corrupt: self = .corrupt
        case CodecError.unsupported: self = .unsupported
        case CodecError.tooManyPixels, CodecError.outOfMemory: self = .tooLarge
        case is StickerError: self = .noSubject
        case is PresetError: self = .overPresetLimit
        case is FileWriteError: self = .unwritable
        case is InputInsideOutputFolder: self = .insideOutputFolder
        default: self = .other
        }
    }
}
