import FoundationEssentials
import Glibc

/// Reads a file whole, refusing anything that is not a regular file (a FIFO or a device
/// could block or never end): inputs with one `read` loop into a buffer it owns, the
/// cache's own entries by mapping them.
public enum InputFile {
    public static func read(_ path: String) throws(InputFileError) -> Data {
        try read(RawPath(path))
    }

    public static func read(_ path: RawPath) throws(InputFileError) -> Data {
        let (descriptor, size) = try openRegularFile(path)
        defer { close(descriptor) }
        // Not Data(count:): zeroing the buffer first costs as much as reading into it.
        guard let buffer = malloc(size) else { throw .cannotRead(reason: String(cString: strerror(ENOMEM))) }
        var count = 0
        while count < size {
            let got = Glibc.read(descriptor, buffer + count, size - count)
            if got < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(buffer)
                throw .cannotRead(reason: reason)
            }
            if got == 0 { break }
            count += got
        }
        // A file that shrank while being read is read as it now is.
        guard count > 0 else {
            free(buffer)
            throw .empty
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// The file's bytes mapped from the page cache rather than copied: no buffer to fault
    /// in and zero, no copy out of the kernel. Only for files that are replaced by rename
    /// and never truncated in place (the cache's own entries): a mapped file that shrinks
    /// under the reader would fault on the lost pages.
    static func mapped(_ path: String) throws(InputFileError) -> Data {
        let (descriptor, size) = try openRegularFile(RawPath(path))
        defer { close(descriptor) }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw .cannotRead(reason: String(cString: strerror(errno)))
        }
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { address, size in
            munmap(address, size)
        })
    }

    /// An open descriptor on the regular, non-empty file at `path`, with its size; the
    /// caller closes it.
    private static func openRegularFile(_ path: RawPath) throws(InputFileError) -> (descriptor: Int32, size: Int) {
        let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        do throws(InputFileError) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile }
            guard info.st_size > 0 else { throw .empty }
            return (descriptor, Int(info.st_size))
        } catch {
            close(descriptor)
            throw error
        }
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
