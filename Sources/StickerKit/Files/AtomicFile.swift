import FoundationEssentials
import Glibc

/// Writes files so no reader ever sees half of one: the bytes go to a temporary file in
/// the destination folder, which is then renamed over the destination (atomic on POSIX).
/// On any failure the temporary file is removed.
public enum AtomicFile {
    /// Prefix of temporary files, so a walk can recognise (and skip) them.
    public static let temporaryPrefix = ".stickerize-tmp-"

    /// The mode files are created with, before the umask: 0666, as `touch` and compilers
    /// create theirs, so a umask of 002 makes shared outputs group-writable and 077 private.
    static let permissions: mode_t = 0o666

    /// The longest name a file can have (NAME_MAX on Linux's file systems), in bytes.
    static let longestName = 255

    /// A fresh temporary name beside `url`, unique to this process and call, ending in the
    /// destination's name, cut from the front to keep within `longestName`: a destination
    /// whose name is as long as names go must still get its temporary file.
    static func temporaryURL(for url: URL) -> URL {
        let unique = temporaryPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
        var name = Substring(url.lastPathComponent)
        while unique.utf8.count + name.utf8.count > longestName { name = name.dropFirst() }
        return url.deletingLastPathComponent().appendingPathComponent(unique + name)
    }

    /// Writes `data` to `url`, whose folder must exist (see `ContainedFolder`); when
    /// `keepingIdentical`, a regular file at `url` that already holds exactly `data` is left
    /// as it is (its modification time too), without a temporary file.
    public static func write(_ data: Data, to url: URL, keepingIdentical: Bool = false) throws(FileWriteError) {
        guard !keepingIdentical || !holds(url, exactly: data) else { return }
        try write(to: url, flushed: false) { output throws(FileWriteError) in try output.write(data) }
    }

    /// A temporary file being written by `write(to:flushed:body:)`.
    public struct Output {
        fileprivate let descriptor: Int32
        fileprivate let path: String

        /// Appends `data`; a failure (a full disk) names the destination and the reason.
        public func write(_ data: Data) throws(FileWriteError) {
            let error = DescriptorWriter.writeAll(data, to: descriptor)
            guard error == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(error))) }
        }
    }

    /// Streams a file through `body` into a temporary file beside `url`, flushed to the disk
    /// first when `flushed`, then renames it over `url`; when `keepingIdentical`, a regular
    /// file at `url` that already holds exactly those bytes is left as it is (its
    /// modification time too, so what depends on it is not rebuilt) and the temporary
    /// file removed.
    public static func write(to url: URL, flushed: Bool = true, keepingIdentical: Bool = false,
                             body: (Output) throws(FileWriteError) -> Void) throws(FileWriteError) {
        let temporary = temporaryURL(for: url)
        let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, AtomicFile.permissions)
        guard descriptor >= 0 else { throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
        var isOpen = true
        do throws(FileWriteError) {
            try body(Output(descriptor: descriptor, path: url.path))
            if keepingIdentical, holdsTheSameBytes(url, as: descriptor) {
                close(descriptor)
                unlink(temporary.path)
                return
            }
            guard !flushed || fsync(descriptor) == 0 else { throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
            isOpen = false
            guard close(descriptor) == 0, rename(temporary.path, url.path) == 0 else {
                throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary.path)
            throw error
        }
    }
}

extension AtomicFile {
    /// Whether `url` is a regular file (not through a link) that already holds exactly
    /// `data`, so that writing it again can be skipped and the file keeps its modification
    /// time.
    static func holds(_ url: URL, exactly data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            holds(url, size: bytes.count) { existing, offset in
                memcmp(bytes.baseAddress! + offset, existing.baseAddress!, existing.count) == 0
            }
        }
    }

    /// Whether `url` holds exactly the bytes of the file open at `descriptor`.
    private static func holdsTheSameBytes(_ url: URL, as descriptor: Int32) -> Bool {
        var written = stat()
        guard fstat(descriptor, &written) == 0 else { return false }
        var block = [UInt8](repeating: 0, count: blockSize)
        return holds(url, size: Int(written.st_size)) { existing, offset in
            block.withUnsafeMutableBytes { block in
                let part = UnsafeMutableRawBufferPointer(rebasing: block[..<existing.count])
                return DescriptorReader.read(descriptor, into: part, at: off_t(offset)) == 0
                    && memcmp(part.baseAddress!, existing.baseAddress!, existing.count) == 0
            }
        }
    }

    /// How much of a file `holds` compares at a time.
    private static let blockSize = 1 << 16

    /// Whether `url` is a regular file (not through a link) of `size` bytes for each of
    /// whose blocks, read in turn, `matches(block, offset)` is true.
    private static func holds(_ url: URL, size: Int, matching matches: (UnsafeRawBufferPointer, Int) -> Bool) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == size else { return false }
        let file = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { return false }
        defer { close(file) }
        var block = [UInt8](repeating: 0, count: blockSize)
        var offset = 0
        while offset < size {
            let count = min(blockSize, size - offset)
            let same = block.withUnsafeMutableBytes { block in
                let part = UnsafeMutableRawBufferPointer(rebasing: block[..<count])
                return DescriptorReader.read(file, into: part, at: off_t(offset)) == 0 && matches(UnsafeRawBufferPointer(part), offset)
            }
            guard same else { return false }
            offset += count
        }
        return true
    }
}

/// Why an output could not be written (or, for `--prune`, removed).
public enum FileWriteError: Error, Equatable, CustomStringConvertible {
    case cannotCreateFolder(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case cannotRemove(path: String, reason: String)

    /// Why, without the path: the system's message or what was in the way.
    public var reason: String {
        switch self {
        case .cannotCreateFolder(_, let reason), .cannotWrite(_, let reason), .cannotRemove(_, let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .cannotCreateFolder(let path, let reason): return "cannot create folder \(path): \(reason)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .cannotRemove(let path, let reason): return "cannot remove \(path): \(reason)"
        }
    }
}
