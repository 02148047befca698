import FoundationEssentials
import Glibc

/// Keeps a batch from writing over its own inputs. Outputs are renamed into place, so an
/// output replaces an input only by landing on the input's own name, and that can happen
/// only to an input inside an output folder: `stickerize photos/a.png --out photos` would
/// replace the photo with its sticker, and `a.jpg`'s `a.png` another input. So inputs
/// inside an output folder are refused, with folders compared once links are resolved.
struct OutputFolderGuard: Sendable {
    /// The output folders that exist, resolved, each ending in "/".
    private let folders: [[UInt8]]

    /// A folder that does not exist yet holds no input; it is left out.
    init(_ folders: [URL]) {
        self.folders = folders.compactMap { RawPath($0.path).resolved.map(OutputFolderGuard.withSlash) }
    }

    /// The error for `path` when it lies inside an output folder, or is a link to a file
    /// that does. A path that does not resolve is left to fail when it is opened.
    func check(_ path: RawPath) throws(InputInsideOutputFolder) {
        guard !folders.isEmpty, let resolved = path.resolved.map(OutputFolderGuard.withSlash),
              let folder = folders.first(where: { resolved.starts(with: $0) }) else { return }
        throw InputInsideOutputFolder(folder: RawPath(bytes: folder.dropLast()).display)
    }

    private static func withSlash(_ path: RawPath) -> [UInt8] {
        path.bytes.last == UInt8(ascii: "/") ? path.bytes : path.bytes + [UInt8(ascii: "/")]
    }
}

/// An input inside an output folder, refused so that no output can replace it
/// (`OutputFolderGuard`).
public struct InputInsideOutputFolder: Error, Equatable, CustomStringConvertible {
    public var folder: String

    public var description: String { "inside the output folder \(folder), where an output could replace it" }
}
