import FoundationEssentials
import Glibc

/// Writes a whole buffer to a file descriptor with `write(2)`, retrying short writes and
/// EINTR, and reports failure (a closed pipe, a full disk) as an errno value instead of
/// trapping, as `FileHandle.write` does.
public enum DescriptorWriter {
    /// Returns 0 on success, else the errno of the failed write.
    public static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }
}
