import Glibc

/// Reads a byte range of a file by descriptor with `pread(2)`, retrying short reads and
/// EINTR, and reports failure as an errno value (EIO when the file ends first).
enum DescriptorReader {
    /// Fills `buffer` from `offset`; returns 0 on success, else the errno.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: off_t) -> Int32 {
        var count = 0
        while count < buffer.count {
            let got = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, offset + off_t(count))
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return got < 0 ? errno : EIO }
            count += got
        }
        return 0
    }
}
