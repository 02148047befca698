import Foundation

/// Reads an input file with one `read` loop into a buffer it owns, refusing anything that
/// is not a regular file (a FIFO or a device could block or never end).
public enum InputFile {
    public static func read(_ path: String) throws(InputFileError) -> Data {
        try read(RawPath(path))
    }

    public static func read(_ path: RawPath) throws(InputFileError) -> Data {
        let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile }
        let size = Int(info.st_size)
        guard size > 0 else { throw .empty }
        var data = Data(count: size)
        var failure: Int32 = 0
        let count = data.withUnsafeMutableBytes { raw -> Int in
            var offset = 0
            while offset < size {
                let got = Foundation.read(descriptor, raw.baseAddress! + offset, size - offset)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return offset
                }
                if got == 0 { break }
                offset += got
            }
            return offset
        }
        if failure != 0 { throw .cannotRead(reason: String(cString: strerror(failure))) }
        // A file that shrank while being read is read as it now is.
        if count < size { data.removeSubrange(count...) }
        guard !data.isEmpty else { throw .empty }
        return data
    }
}

/// Why an input file could not be read.
public enum InputFileError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(reason: String)
    case cannotRead(reason: String)
    case notARegularFile
    case empty

    public var description: String {
        switch self {
        case .cannotOpen(let reason): return "cannot open: \(reason)"
        case .cannotRead(let reason): return "cannot read: \(reason)"
        case .notARegularFile: return "not a regular file"
        case .empty: return "empty file"
        }
    }
}
