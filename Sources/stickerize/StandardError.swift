import FoundationEssentials
import Glibc
import StickerKit

/// Unbuffered writes to standard error (a failed write is ignored: there is nowhere left
/// to report it).
enum StandardError {
    static func write(_ text: String) {
        _ = DescriptorWriter.writeAll(Data(text.utf8), to: STDERR_FILENO)
    }

    /// Writes `message` as one line, its control characters escaped
    /// (`String.escapingControlCharacters`).
    static func line(_ message: String) {
        write(message.escapingControlCharacters + "\n")
    }
}
