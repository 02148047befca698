import FoundationEssentials
import Glibc

/// Creates the folders between a root and a file inside it, and removes files inside it,
/// without ever following a symbolic link, so that nothing written or removed under the
/// root can be outside it (a link planted at `out/photos -> /etc` is refused, not written
/// or removed through).
///
/// The root itself may be a link: the user chose it.
public enum ContainedFolder {
    /// Makes `root` (as the user named it, links and all) and then every folder of
    /// `file`'s parent path below it, refusing links and non-folders on the way.
    public static func createParents(of file: URL, under root: URL) throws(FileWriteError) {
        let rootPath = root.standardizedFileURL.path
        try createRoot(atPath: rootPath)
        let parentPath = file.deletingLastPathComponent().standardizedFileURL.path
        guard parentPath != rootPath else { return }
        guard parentPath.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else {
            throw .cannotCreateFolder(path: parentPath, reason: "it is outside \(rootPath)")
        }
        var path = rootPath
        for component in parentPath.dropFirst(rootPath.count).split(separator: "/") {
            path += (path.hasSuffix("/") ? "" : "/") + component
            try ensureFolder(path)
        }
    }

    /// Makes `root` (as the user named it, links and all) unless it is there, and checks
    /// that it is a folder (or a link to one).
    public static func createRoot(_ root: URL) throws(FileWriteError) {
        try createRoot(atPath: root.standardizedFileURL.path)
    }

    /// `createRoot` for an absolute, standardised path.
    private static func createRoot(atPath path: String) throws(FileWriteError) {
        var info = stat()
        if stat(path, &info) != 0 {
            try makeRoot(path)
            guard stat(path, &info) == 0 else {
                throw .cannotCreateFolder(path: path, reason: String(cString: strerror(errno)))
            }
        }
        // `stat` follows links, so what `check` sees is a folder or a file in the way.
        try check(info, path)
    }

    /// `mkdir -p` for the root, an absolute, standardised path: links on its way are
    /// followed, as the user named it.
    private static func makeRoot(_ path: String) throws(FileWriteError) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            // 0777 before the umask, as `mkdir -p` makes folders.
            if mkdir(partial, 0o777) != 0 && errno != EEXIST {
                throw .cannotCreateFolder(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    private static func ensureFolder(_ path: String) throws(FileWriteError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            // Another process may create it between `lstat` and `mkdir`: EEXIST is fine,
            // as long as what is there now is a real folder.
            guard errno == ENOENT, mkdir(path, 0o777) == 0 || errno == EEXIST, lstat(path, &info) == 0 else {
                throw .cannotCreateFolder(path: path, reason: String(cString: strerror(errno)))
            }
        }
        try check(info, path)
    }

    private static func check(_ info: stat, _ path: String) throws(FileWriteError) {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return
        case S_IFLNK: throw .cannotCreateFolder(path: path, reason: "it is a symbolic link, and outputs never leave their folder")
        default: throw .cannotCreateFolder(path: path, reason: "a file of that name is in the way")
        }
    }

    /// Removes the regular file at `relativePath` below `root`, reached through real
    /// folders only, and then the folders that leaves empty (up to, not including, the
    /// root). A path that is absolute or has an empty, `.` or `..` component, a link on the
    /// way, or anything but a regular file at the end is left alone (false), as is a file
    /// that is not there; another failure to remove it is thrown.
    public static func removeFile(_ relativePath: String, under root: URL) throws(FileWriteError) -> Bool {
        let rootPath = root.standardizedFileURL.path
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relativePath.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return false
        }
        var path = rootPath
        var info = stat()
        for (position, component) in components.enumerated() {
            path += "/" + component
            guard lstat(path, &info) == 0 else { return false }
            let kind = info.st_mode & S_IFMT
            if position + 1 < components.count ? kind != S_IFDIR : kind != S_IFREG { return false }
        }
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw .cannotRemove(path: path, reason: String(cString: strerror(errno)))
        }
        // `rmdir` refuses a folder that is not empty, which ends the climb.
        var folders = components.dropLast()
        while !folders.isEmpty, rmdir(rootPath + "/" + folders.joined(separator: "/")) == 0 {
            folders.removeLast()
        }
        return true
    }
}
