import FoundationEssentials
import Glibc

/// Reads a list of paths (one per line, or NUL-separated) from a file descriptor as they
/// arrive, so `find ... | stickerize -` starts on the first path before `find` ends.
/// Paths stay bytes (`RawPath`): a name need not be UTF-8.
///
/// The blocking reads run on a thread of their own (`SystemThread`), never on the
/// cooperative pool.
public enum PathListReader {
    public static func paths(fileDescriptor: Int32, nulSeparated: Bool) -> PathList {
        let (list, writer) = PathList.make()
        SystemThread.start("reads the path list") {
            let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            func emit(_ bytes: ArraySlice<UInt8>) {
                var line = bytes
                if !nulSeparated, line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                if !line.isEmpty { writer.add(RawPath(bytes: line)) }
            }
            while true {
                let count = read(fileDescriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: chunk[0..<count])
                var start = 0
                while let end = pending[start...].firstIndex(of: separator) {
                    emit(pending[start..<end])
                    start = end + 1
                }
                pending.removeFirst(start)
            }
            emit(pending[...])
            writer.finish()
        }
        return list
    }
}
