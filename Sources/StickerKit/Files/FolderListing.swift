import Glibc

/// The names in a folder, as the bytes `readdir` gives (see `RawPath`).
enum FolderListing {
    /// Every name in `folder` but `.` and `..`, in the order `readdir` gives them; nil
    /// when the folder cannot be opened (`errno` says why).
    static func names(in folder: RawPath) -> [[UInt8]]? {
        guard let stream = folder.withCString({ opendir($0) }) else { return nil }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
        }
        return names
    }
}
