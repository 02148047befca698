import Foundation

/// Unbuffered writes to standard error.
enum StandardError {
    static func write(_ text: String) {
        _ = StandardStream.write(Data(text.utf8), to: STDERR_FILENO)
    }
}

/// Whole writes to a file descriptor that report failure (a closed pipe) instead of
/// trapping, as `FileHandle.write` does.
enum StandardStream {
    static func write(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
